import { data, Form, Link } from "react-router";
import { logger } from "../adapters/logger.server.ts";
import { AdminMessage } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { DeleteProductButton } from "../components/admin/delete-product-button.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { StockBadge } from "../components/admin/stock-badge.tsx";
import { imageUrl } from "../components/product-image.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import { PRODUCT_FORM_MESSAGES } from "../domain/catalog/admin/product-form.ts";
import { listAdminProducts } from "../domain/catalog/admin/product-list.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { formatCents } from "../lib/money.ts";
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
  try {
    const result = await listAdminProducts(servicesFrom(context).db, { search, page });
    return { ...result, search, error: null };
  } catch (error) {
    logger.error({ err: error }, "admin product list failed");
    return data(
      { products: [], total: 0, page, pageCount: 1, search, error: PRODUCT_FORM_MESSAGES.fetchFailed },
      { status: 500 },
    );
  }
}

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { products, total, page, pageCount, search, error } = loaderData;
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    if (search) params.set("search", search);
    if (n > 1) params.set("page", String(n));
    const query = params.toString();
    return query ? `/admin?${query}` : "/admin";
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
      </Form>
      <div className="mt-4">
        <AdminMessage feedback={error ? { type: "error", message: error } : null} />
      </div>
      {!error && (
        <p className="mt-4 text-sm text-gray-700" aria-live="polite">
          {total} {total === 1 ? "product" : "products"}
          {search ? ` matching “${search}”` : ""}
        </p>
      )}
      {products.length > 0 && (
        <TableScroll label="Product list" className="mt-2">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>
                  <span className="sr-only">Image</span>
                </ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Product</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Category</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>Price</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Stock</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {products.map((product) => (
                <Row key={product.id} className={`${STACKED_TABLE.row} grid-cols-[3rem_minmax(0,1fr)]`}>
                  <Cell className={`${STACKED_TABLE.cell} row-span-5 md:w-16`}>
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
                    {formatCents(product.priceCents)}
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
                      <DeleteProductButton productId={product.id} productName={product.name} />
                    </div>
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      {!error && products.length === 0 && <p className="mt-6 text-gray-700">No products found.</p>}
      <AdminPaging page={page} pageCount={pageCount} pageLink={pageLink} />
    </section>
  );
}
