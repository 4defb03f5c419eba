/** The admin's orders list: its payment filter and sort orders (shared by the server and the page). */
export const ORDER_PAYMENT_FILTERS = ["refunded", "disputed", "unpaid"] as const;
export type OrderPaymentFilter = (typeof ORDER_PAYMENT_FILTERS)[number];
export const ORDER_SORTS = ["newest", "oldest", "total-desc", "total-asc"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
