import { Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { FilterInput, ListFilters } from "../components/admin/list-filters.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import { listCustomers } from "../domain/accounts/customers.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.customers._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Customers", "/admin/customers");

/** Customers with their order count and what they spent; search by name or e-mail. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").slice(0, 254);
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  return { ...(await listCustomers(servicesFrom(context).db, { search, page })), search };
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const money = useMoney();
  const { customers, page, hasMore, search } = loaderData;
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    if (search) params.set("search", search);
    if (n > 1) params.set("page", String(n));
    return `/admin/customers?${params}`;
  };
  return (
    <section aria-labelledby="customers-heading">
      <h1 id="customers-heading" className="text-3xl font-bold">
        Customers
      </h1>
      <ListFilters action="/admin/customers" label="Customer search" submitLabel="Search">
        <FilterInput
          id="customer-search"
          name="search"
          label="Name or e-mail"
          value={search}
          maxLength={254}
        />
      </ListFilters>
      {customers.length === 0 ? (
        <p className="mt-6 text-gray-700">No customers found.</p>
      ) : (
        <TableScroll label="Customer list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Customer</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Since</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>Orders</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>
                  Total spent
                </ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Account</ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {customers.map((customer) => (
                <Row key={customer.id} className={STACKED_TABLE.row}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold break-all`}>
                    <Link to={`/admin/customers/${customer.id}`} className="text-brand-700 hover:underline">
                      {customer.email}
                    </Link>
                  </RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} break-words`}>
                    <CardLabel>Name</CardLabel>
                    {customer.name}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Since</CardLabel>
                    <OrderDate iso={customer.createdAt} />
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} md:text-right`}>
                    <CardLabel>Orders</CardLabel>
                    {customer.orderCount}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} md:text-right md:whitespace-nowrap`}>
                    <CardLabel>Total spent</CardLabel>
                    {money(customer.spentCents)}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Account</CardLabel>
                    {customer.disabled ? "Disabled" : "Active"}
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={pageLink} />
    </section>
  );
}
