import { Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import { listAdminOrders } from "../domain/orders/order-admin.server.ts";
import { isOrderStatus, ORDER_STATUS_LABELS, ORDER_STATUSES } from "../domain/orders/order-status.ts";
import { requirePermission } from "../http/session.server.ts";
import { formatCents } from "../lib/money.ts";
import type { Route } from "./+types/admin.orders._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Orders", "/admin/orders");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "orders");
  const url = new URL(request.url);
  const rawStatus = url.searchParams.get("status");
  const status = isOrderStatus(rawStatus) ? rawStatus : null;
  const search = (url.searchParams.get("search") ?? "").slice(0, 254);
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  const result = await listAdminOrders(servicesFrom(context).db, { status, search, page });
  return { ...result, status, search };
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, page, hasMore, status, search } = loaderData;
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    if (status) params.set("status", status);
    if (search) params.set("search", search);
    if (n > 1) params.set("page", String(n));
    return `/admin/orders?${params}`;
  };
  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="text-3xl font-bold">
        Orders
      </h1>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="order-status" className="block text-sm font-semibold">
            Status
          </label>
          <select
            id="order-status"
            name="status"
            defaultValue={status ?? ""}
            className="mt-1 rounded-lg border border-gray-400 bg-white px-3 py-2"
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ORDER_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="order-search" className="block text-sm font-semibold">
            Order number or e-mail
          </label>
          <input
            id="order-search"
            type="search"
            name="search"
            defaultValue={search}
            maxLength={254}
            className="mt-1 rounded-lg border border-gray-400 px-3 py-2"
          />
        </div>
        <button
          type="submit"
          className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
        >
          Filter
        </button>
      </Form>
      {orders.length === 0 ? (
        <p className="mt-6 text-gray-700">No orders found.</p>
      ) : (
        <TableScroll label="Order list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Slip</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Order</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Date</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>E-mail</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>Total</ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {orders.map((order) => (
                <Row key={order.id} className={STACKED_TABLE.row}>
                  <Cell className={STACKED_TABLE.cell}>
                    <label className="inline-flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="number"
                        value={order.number}
                        form="packing-slips"
                        className="size-4"
                      />
                      Select <span className="sr-only">{order.number}</span>
                    </label>
                  </Cell>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>
                    <Link to={`/admin/orders/${order.number}`} className="text-brand-700 hover:underline">
                      {order.number}
                    </Link>
                  </RowHeader>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Date</CardLabel>
                    <OrderDate iso={order.createdAt} />
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>E-mail</CardLabel>
                    {order.email}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Status</CardLabel>
                    {ORDER_STATUS_LABELS[order.status]}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} md:text-right md:whitespace-nowrap`}>
                    <CardLabel>Total</CardLabel>
                    {formatCents(order.totalCents)}
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      {orders.length > 0 && (
        // the rows' checkboxes belong to this form (their `form` attribute): a GET of the slips
        <Form id="packing-slips" method="get" action="/admin/orders/packing-slips" className="mt-4">
          <button
            type="submit"
            className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
          >
            Packing slips for the selected orders
          </button>
        </Form>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={pageLink} />
    </section>
  );
}
