import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { FilterInput, FilterSelect, ListFilters, optionsOf } from "../components/admin/list-filters.tsx";
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
import { TableScroll } from "../components/table-scroll.tsx";
import { mailShopFrom, servicesFrom } from "../context.ts";
import { bulkOrdersSchema, listAdminOrders, shipOrders } from "../domain/orders/order-admin.server.ts";
import {
  ORDER_PAYMENT_FILTERS,
  ORDER_SORTS,
  type OrderPaymentFilter,
  type OrderSort,
} from "../domain/orders/order-list-query.ts";
import { isOrderStatus, ORDER_STATUS_LABELS, ORDER_STATUSES } from "../domain/orders/order-status.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { currencyOf, formatMoney } from "../lib/money.ts";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import type { Route } from "./+types/admin.orders._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Orders", "/admin/orders");

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayParam = (value: string | null) =>
  value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
const PAYMENT_LABELS: Record<OrderPaymentFilter, string> = {
  refunded: "Refunded (in part or full)",
  disputed: "Disputed",
  unpaid: "Not paid (pending or failed)",
};
const SORT_LABELS: Record<OrderSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  "total-desc": "Highest total",
  "total-asc": "Lowest total",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "orders");
  const url = new URL(request.url);
  const rawStatus = url.searchParams.get("status");
  const status = isOrderStatus(rawStatus) ? rawStatus : null;
  const search = (url.searchParams.get("search") ?? "").slice(0, 254);
  const from = dayParam(url.searchParams.get("from"));
  const to = dayParam(url.searchParams.get("to"));
  const rawPayment = url.searchParams.get("payment");
  const payment = ORDER_PAYMENT_FILTERS.find((p) => p === rawPayment) ?? null;
  const sort = ORDER_SORTS.find((s) => s === url.searchParams.get("sort")) ?? "newest";
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  const result = await listAdminOrders(servicesFrom(context).db, {
    status,
    search,
    from,
    to,
    payment,
    sort,
    page,
  });
  return { ...result, status, search, from, to, payment, sort };
}

/** Bulk: mark the selected paid orders as shipped (each through the transition table, e-mailed). */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "orders");
  const submission = await parseForm(request, bulkOrdersSchema);
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ formErrors: ["Choose the orders to mark as shipped."] }) },
      { status: 400 },
    );
  }
  const services = servicesFrom(context);
  const { shipped, refused } = await shipOrders(
    {
      db: services.db,
      gateway: services.gateway,
      mail: services.mail,
      shop: await mailShopFrom(context),
    },
    { numbers: submission.value.number, actor: { id: staff.id, email: staff.email, role: staff.role } },
  );
  const back = new URL(request.url).searchParams.get("back");
  return redirectWithToast(safeRedirectPath(back ?? "/admin/orders", "/admin/orders"), {
    type: refused.length ? "warning" : "success",
    message: `${shipped.length} ${shipped.length === 1 ? "order" : "orders"} marked as shipped${
      refused.length ? `; not ${refused.join(", ")} (not paid)` : ""
    }`,
  });
}

export default function AdminOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, page, hasMore, status, search, from, to, payment, sort } = loaderData;
  const query = (n: number) => {
    const params = new URLSearchParams();
    if (status) params.set("status", status);
    if (search) params.set("search", search);
    if (from) params.set("from", from);
    if (to) params.set("to", to);
    if (payment) params.set("payment", payment);
    if (sort !== "newest") params.set("sort", sort);
    if (n > 1) params.set("page", String(n));
    return params;
  };
  const pageLink = (n: number) => `/admin/orders?${query(n)}`;
  const sortLink = (to: string) => {
    const params = query(1);
    if (to === "newest") params.delete("sort");
    else params.set("sort", to);
    return `/admin/orders?${params}`;
  };
  const here = pageLink(page);
  return (
    <section aria-labelledby="orders-heading">
      <h1 id="orders-heading" className="text-3xl font-bold">
        Orders
      </h1>
      <ListFilters action="/admin/orders" label="Order filters">
        <FilterSelect
          id="order-status"
          name="status"
          label="Status"
          value={status}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }))}
          emptyLabel="All statuses"
        />
        <FilterInput
          id="order-search"
          name="search"
          label="Order number or e-mail"
          value={search}
          maxLength={254}
        />
        <FilterInput id="order-from" name="from" label="Placed from" value={from} type="date" />
        <FilterInput id="order-to" name="to" label="Placed to" value={to} type="date" />
        <FilterSelect
          id="order-payment"
          name="payment"
          label="Payment"
          value={payment}
          options={optionsOf(ORDER_PAYMENT_FILTERS, PAYMENT_LABELS)}
          emptyLabel="Any payment"
        />
        <FilterSelect
          id="order-sort"
          name="sort"
          label="Sort"
          value={sort}
          options={optionsOf(ORDER_SORTS, SORT_LABELS)}
        />
      </ListFilters>
      {orders.length === 0 ? (
        <p className="mt-6 text-gray-700">No orders found.</p>
      ) : (
        <TableScroll label="Order list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Slip</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Order</ColumnHeader>
                <SortableColumnHeader
                  label="Date"
                  ascending="oldest"
                  descending="newest"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <ColumnHeader className={STACKED_TABLE.columnHeader}>E-mail</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <SortableColumnHeader
                  label="Total"
                  ascending="total-asc"
                  descending="total-desc"
                  current={sort}
                  href={sortLink}
                  className={`${STACKED_TABLE.columnHeader} text-right`}
                />
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
                    {formatMoney(order.totalCents, currencyOf(order.currency))}
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      <AdminMessage feedback={refusal(actionData?.result)} />
      {orders.length > 0 && (
        // the rows' checkboxes belong to this form (their `form` attribute): its first button GETs
        // their packing slips, the second POSTs them to be marked shipped (the button's own method)
        <Form
          id="packing-slips"
          method="get"
          action="/admin/orders/packing-slips"
          className="mt-4 flex flex-wrap gap-3"
        >
          <button
            type="submit"
            className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
          >
            Packing slips for the selected orders
          </button>
          <button
            type="submit"
            formMethod="post"
            formAction={`/admin/orders?index&back=${encodeURIComponent(here)}`}
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Mark the selected orders as shipped
          </button>
        </Form>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={pageLink} />
    </section>
  );
}
