import { data, Form, Link } from "react-router";
import { logger } from "../adapters/logger.server.ts";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { DeleteProductButton } from "../components/admin/delete-product-button.tsx";
import { FilterSelect, ListFilters, optionsOf } from "../components/admin/list-filters.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  SortableColumnHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { StockBadge } from "../components/admin/stock-badge.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { imageUrl } from "../components/product-image.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import {
  bulkProductsSchema,
  setProductsArchived,
  setProductsStock,
} from "../domain/catalog/admin/product-delete.server.ts";
import { PRODUCT_FORM_MESSAGES } from "../domain/catalog/admin/product-form.ts";
import { listAdminProducts } from "../domain/catalog/admin/product-list.server.ts";
import {
  PRODUCT_SORTS,
  PRODUCT_STOCK_FILTERS,
  type ProductSort,
  type ProductStockFilter,
} from "../domain/catalog/admin/product-list-query.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CATEGORIES } from "../lib/catalog-constants.ts";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import type { Route } from "./+types/admin._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Products", "/admin");

/**
 * /admin is the spec's product management page: the products from the database with a stock
 * badge, Add Product and a delete action per product (search and paging on top).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  const rawCategory = url.searchParams.get("category");
  const category = CATEGORIES.find((c) => c === rawCategory) ?? null;
  const stock = PRODUCT_STOCK_FILTERS.find((s) => s === url.searchParams.get("stock")) ?? null;
  const archived = url.searchParams.get("show") === "archived";
  const sort = PRODUCT_SORTS.find((s) => s === url.searchParams.get("sort")) ?? "newest";
  const filters = { search, category, stock, archived, sort };
  try {
    const result = await listAdminProducts(servicesFrom(context).db, { ...filters, page });
    return { ...result, ...filters, error: null };
  } catch (error) {
    logger.error({ err: error }, "admin product list failed");
    return data(
      { products: [], total: 0, page, pageCount: 1, ...filters, error: PRODUCT_FORM_MESSAGES.fetchFailed },
      { status: 500 },
    );
  }
}

/** Bulk: archive the selected products, put archived ones back on sale, or set their stock. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "products");
  const submission = await parseForm(request, bulkProductsSchema);
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ formErrors: ["Choose the products first."] }) },
      { status: 400 },
    );
  }
  const { intent, id, stock } = submission.value;
  const back = new URL(request.url).searchParams.get("back");
  const backTo = safeRedirectPath(back ?? "/admin", "/admin");
  const actor = { id: staff.id, email: staff.email };
  if (intent === "set-stock") {
    if (stock === undefined) {
      return data(
        { result: submission.reply({ fieldErrors: { stock: [BULK_STOCK_MESSAGE] } }) },
        { status: 400 },
      );
    }
    const result = await setProductsStock(servicesFrom(context).db, { ids: id, stock, actor });
    const count = (n: number) => `${n} ${n === 1 ? "product" : "products"}`;
    return redirectWithToast(backTo, {
      type: "success",
      message: `Stock set to ${stock} for ${count(result.changed)}${
        result.inVariants > 0
          ? `; ${count(result.inVariants)} sold in variants left alone (set their stock per variant)`
          : ""
      }`,
    });
  }
  const changed = await setProductsArchived(servicesFrom(context).db, {
    ids: id,
    archived: intent === "archive",
    actor,
  });
  return redirectWithToast(backTo, {
    type: "success",
    message: `${changed} ${changed === 1 ? "product" : "products"} ${intent === "archive" ? "archived" : "back on sale"}`,
  });
}

const BULK_STOCK_MESSAGE = "Enter the stock for the selected products: a whole number from 0 to 1,000,000.";

const STOCK_LABELS: Record<ProductStockFilter, string> = {
  in: "In stock (more than 10)",
  low: "Low (1 to 10)",
  out: "Out of stock",
};
const SORT_LABELS: Record<ProductSort, string> = {
  newest: "Newest first",
  name: "Name",
  "price-asc": "Lowest price",
  "price-desc": "Highest price",
  "stock-asc": "Least stock",
};

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  // the stock field's message, when Set stock was sent without a valid number
  const bulkStockError = actionData?.result.error?.stock?.[0];
  const money = useMoney();
  const { products, total, page, pageCount, search, category, stock, archived, sort, error } = loaderData;
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    if (search) params.set("search", search);
    if (category) params.set("category", category);
    if (stock) params.set("stock", stock);
    if (archived) params.set("show", "archived");
    if (sort !== "newest") params.set("sort", sort);
    if (n > 1) params.set("page", String(n));
    const query = params.toString();
    return query ? `/admin?${query}` : "/admin";
  };
  const filtered = Boolean(category || stock || archived);
  const sortLink = (to: string) => {
    const url = new URL(pageLink(1), "http://admin.local");
    if (to === "newest") url.searchParams.delete("sort");
    else url.searchParams.set("sort", to);
    return `${url.pathname}${url.search}`;
  };
  return (
    <section aria-labelledby="products-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="products-heading" className="text-3xl font-bold">
          Products
        </h1>
        <Link
          to="/admin/products/new"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Add Product
        </Link>
      </div>
      <Form
        method="get"
        action="/admin"
        role="search"
        aria-label="Product search"
        className="mt-4 flex max-w-xl gap-2"
      >
        <label htmlFor="admin-product-search" className="sr-only">
          Search products
        </label>
        <input
          id="admin-product-search"
          type="search"
          name="search"
          defaultValue={search}
          maxLength={100}
          placeholder="Name, brand, category or id"
          className="block w-full rounded-lg border border-gray-400 px-3 py-2"
        />
        <button
          type="submit"
          className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
        >
          Search
        </button>
        {category && <input type="hidden" name="category" value={category} />}
        {stock && <input type="hidden" name="stock" value={stock} />}
        {archived && <input type="hidden" name="show" value="archived" />}
        {sort !== "newest" && <input type="hidden" name="sort" value={sort} />}
      </Form>
      <ListFilters action="/admin" label="Product filters" keep={{ search }}>
        <FilterSelect
          id="product-category"
          name="category"
          label="Category"
          value={category}
          options={CATEGORIES.map((c) => ({ value: c, label: c }))}
          emptyLabel="All categories"
        />
        <FilterSelect
          id="product-stock"
          name="stock"
          label="Stock"
          value={stock}
          options={optionsOf(PRODUCT_STOCK_FILTERS, STOCK_LABELS)}
          emptyLabel="Any stock"
        />
        <FilterSelect
          id="product-show"
          name="show"
          label="Show"
          value={archived ? "archived" : null}
          options={[{ value: "archived", label: "Archived products" }]}
          emptyLabel="Products on sale"
        />
        <FilterSelect
          id="product-sort"
          name="sort"
          label="Sort"
          value={sort}
          options={optionsOf(PRODUCT_SORTS, SORT_LABELS)}
        />
      </ListFilters>
      <div className="mt-4">
        <AdminMessage feedback={error ? { type: "error", message: error } : refusal(actionData?.result)} />
      </div>
      {!error && (
        <p className="mt-4 text-sm text-gray-700" aria-live="polite">
          {total} {total === 1 ? "product" : "products"}
          {search ? ` matching “${search}”` : ""}
          {filtered ? " (filtered)" : ""}
        </p>
      )}
      {products.length > 0 && (
        <TableScroll label="Product list" className="mt-2">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>
                  <span className="sr-only">Select and image</span>
                </ColumnHeader>
                <SortableColumnHeader
                  label="Product"
                  ascending="name"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Category</ColumnHeader>
                <SortableColumnHeader
                  label="Price"
                  ascending="price-asc"
                  descending="price-desc"
                  current={sort}
                  href={sortLink}
                  className={`${STACKED_TABLE.columnHeader} text-right`}
                />
                <SortableColumnHeader
                  label="Stock"
                  ascending="stock-asc"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {products.map((product) => (
                <Row key={product.id} className={`${STACKED_TABLE.row} grid-cols-[3rem_minmax(0,1fr)]`}>
                  <Cell className={`${STACKED_TABLE.cell} row-span-5 md:w-16`}>
                    <label className="mb-1 flex items-center gap-1 text-xs">
                      <input
                        type="checkbox"
                        name="id"
                        value={product.id}
                        form="product-bulk"
                        className="size-4"
                      />
                      Select <span className="sr-only">{product.name}</span>
                    </label>
                    {product.image ? (
                      <img
                        src={imageUrl(product.image.key, product.image.widths[0] ?? 320)}
                        alt=""
                        width={48}
                        height={48}
                        className="size-12 max-w-none rounded object-cover"
                      />
                    ) : null}
                  </Cell>
                  <RowHeader className={`${STACKED_TABLE.cell} col-start-2 font-semibold`}>
                    <Link to={`/admin/products/${product.id}`} className="text-brand-700 hover:underline">
                      {product.name}
                    </Link>
                    <span className="block font-normal text-gray-700">{product.brand}</span>
                  </RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2`}>
                    <CardLabel>Category</CardLabel>
                    {product.categoryId}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 md:text-right md:whitespace-nowrap`}>
                    <CardLabel>Price</CardLabel>
                    {money(product.priceCents)}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 md:whitespace-nowrap`}>
                    <StockBadge stock={product.stock} />
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 pt-1`}>
                    <div className="flex flex-wrap gap-2 md:justify-end">
                      <Link
                        to={`/admin/products/${product.id}`}
                        className="rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100"
                      >
                        Edit<span className="sr-only"> {product.name}</span>
                      </Link>
                      {!archived && <DeleteProductButton productId={product.id} productName={product.name} />}
                    </div>
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      {products.length > 0 && (
        // the rows' checkboxes belong to this form (their `form` attribute)
        <Form
          id="product-bulk"
          method="post"
          action={`/admin?index&back=${encodeURIComponent(pageLink(page))}`}
          className="mt-4 flex flex-wrap gap-3"
        >
          <button
            type="submit"
            name="intent"
            value={archived ? "unarchive" : "archive"}
            className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
          >
            {archived ? "Put the selected products back on sale" : "Archive the selected products"}
          </button>
          {!archived && (
            <div className="flex flex-wrap items-end gap-2">
              <FormField
                id="bulk-stock"
                name="stock"
                label="Stock for the selected products"
                type="number"
                inputMode="numeric"
                min={0}
                max={1_000_000}
                step={1}
                className="w-56 max-w-full"
                error={bulkStockError}
              />
              <button
                type="submit"
                name="intent"
                value="set-stock"
                className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
              >
                Set stock
              </button>
            </div>
          )}
        </Form>
      )}
      {!error && products.length === 0 && <p className="mt-6 text-gray-700">No products found.</p>}
      <AdminPaging page={page} pageCount={pageCount} pageLink={pageLink} />
    </section>
  );
}
