import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { servicesFrom } from "../context.ts";
import { getAdminProduct } from "../domain/catalog/admin/product-list.server.ts";
import { stockHistory } from "../domain/inventory/stock-ledger.server.ts";
import { STOCK_REASON_LABELS } from "../domain/inventory/stock-reasons.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.products.$id_.stock";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, "Stock history", `/admin/products/${params.id}/stock`);

/**
 * GET /admin/products/:id/stock?variant=…: a variant's stock history from the stock ledger (decision
 * 026) — every movement, newest first, with the level it left, why it moved (a sale, a refund's
 * restock, a return, a count by staff…) and the order, return or staff member behind it.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const { db } = servicesFrom(context);
  const id = positiveInt(params.id);
  const product = id ? await getAdminProduct(db, id) : null;
  if (!product) throw data(null, { status: 404 });
  const query = new URL(request.url).searchParams;
  const asked = positiveInt(query.get("variant"));
  const variant = product.variants.find((v) => v.id === asked) ?? product.variants[0];
  if (!variant) throw data(null, { status: 404 });
  const before = positiveInt(query.get("before"));
  const history = await stockHistory(db, variant.id, { before });
  return {
    product: { id: product.id, name: product.name },
    variants: product.variants.map((v) => ({ id: v.id, title: v.title, sku: v.sku })),
    variant: { id: variant.id, title: variant.title, sku: variant.sku },
    paged: before !== null,
    ...history,
  };
}

export default function StockHistory({ loaderData }: Route.ComponentProps) {
  const { product, variants, variant, entries, level, hasMore, paged } = loaderData;
  const older = entries.at(-1);
  const here = `/admin/products/${product.id}/stock?variant=${variant.id}`;
  return (
    <div className="space-y-6">
      <p>
        <Link to={`/admin/products/${product.id}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to {product.name}
        </Link>
      </p>
      <h1 className="min-w-0 text-3xl font-bold break-words">Stock history: {product.name}</h1>
      {variants.length > 1 && (
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <div className="max-w-full">
            <label htmlFor="stock-variant" className="block text-sm font-semibold text-gray-900">
              Variant
            </label>
            <select
              id="stock-variant"
              name="variant"
              defaultValue={variant.id}
              className="mt-1 block max-w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
            >
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.title || "Default"} ({v.sku})
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Show
          </button>
        </Form>
      )}
      <p className="break-words">
        <span className="font-semibold">{variant.title || "Default variant"}</span> (SKU {variant.sku}):{" "}
        {level} in stock now.
      </p>
      {entries.length === 0 ? (
        <p className="text-gray-700">No stock movements recorded for this variant.</p>
      ) : (
        <StackedTable aria-label={`Stock movements of ${variant.sku}`}>
          <thead className={STACKED_TABLE.head}>
            <Row>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>When</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Change</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Level after</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Why</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>By</ColumnHeader>
            </Row>
          </thead>
          <tbody className={STACKED_TABLE.body}>
            {entries.map((entry) => (
              <Row key={entry.id} className={`${STACKED_TABLE.row} grid-cols-2`}>
                <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                  <OrderDate iso={entry.createdAt} />
                </Cell>
                <Cell className={STACKED_TABLE.cell}>
                  <CardLabel>Change</CardLabel>
                  <span className="font-semibold tabular-nums">
                    {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                  </span>
                </Cell>
                <Cell className={STACKED_TABLE.cell}>
                  <CardLabel>Level after</CardLabel>
                  <span className="tabular-nums">{entry.level}</span>
                </Cell>
                <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                  {STOCK_REASON_LABELS[entry.reason]}
                  {entry.orderNumber && (
                    <>
                      {" — "}
                      <Link to={`/admin/orders/${entry.orderNumber}`} className="text-brand-700 underline">
                        {entry.orderNumber}
                      </Link>
                    </>
                  )}
                  {entry.returnNumber && (
                    <>
                      {" — "}
                      <Link to={`/admin/returns/${entry.returnNumber}`} className="text-brand-700 underline">
                        {entry.returnNumber}
                      </Link>
                    </>
                  )}
                </Cell>
                <Cell className={`${STACKED_TABLE.cell} col-span-2 text-gray-700`}>
                  <CardLabel>By</CardLabel>
                  {entry.actor}
                </Cell>
              </Row>
            ))}
          </tbody>
        </StackedTable>
      )}
      <p className="flex flex-wrap gap-4">
        {paged && (
          <Link to={here} className="font-semibold text-brand-700 hover:underline">
            Newest movements
          </Link>
        )}
        {hasMore && older && (
          <Link to={`${here}&before=${older.id}`} className="font-semibold text-brand-700 hover:underline">
            Older movements
          </Link>
        )}
      </p>
    </div>
  );
}
