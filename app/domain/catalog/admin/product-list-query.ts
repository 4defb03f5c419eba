/** The admin's product list: its stock filter, sort orders and bulk actions (server and page). */
export const PRODUCT_STOCK_FILTERS = ["in", "low", "out"] as const;
export type ProductStockFilter = (typeof PRODUCT_STOCK_FILTERS)[number];
export const PRODUCT_SORTS = ["newest", "name", "price-asc", "price-desc", "stock-asc"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_BULK_ACTIONS = ["archive", "unarchive", "set-stock"] as const;
export type ProductBulkAction = (typeof PRODUCT_BULK_ACTIONS)[number];
