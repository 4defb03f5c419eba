import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { couponValueText } from "../components/admin/coupon-fields.tsx";
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
import { useMoney } from "../components/shop-settings.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import { listAdminCoupons, setCouponActive } from "../domain/coupons/coupon-admin.server.ts";
import {
  COUPON_FORM_MESSAGES,
  COUPON_KIND_LABELS,
  COUPON_KINDS,
  COUPON_STATE_LABELS,
  disableQuestion,
  lastDayOfExpiry,
} from "../domain/coupons/coupon-form.ts";
import { COUPON_SORTS, COUPON_STATES, type CouponSort } from "../domain/coupons/coupon-list-query.ts";
import {
  type CouponListQuery,
  couponActionSchema,
  couponListQuerySchema,
} from "../domain/coupons/coupon-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { parseListQuery } from "../lib/list-query.ts";
import type { Route } from "./+types/admin.coupons._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Coupons", "/admin/coupons");

/** The list's URL for a query (its defaults left out) and a page. */
function listHref(
  { search, state, kind, sort }: Pick<CouponListQuery, "search" | "state" | "kind" | "sort">,
  page: number,
) {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (state) params.set("state", state);
  if (kind) params.set("kind", kind);
  if (sort !== "code") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  return params.size ? `/admin/coupons?${params}` : "/admin/coupons";
}

/** Coupons: search by code, filter by state and kind, sort by the columns; bad values are left out. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const query = parseListQuery(new URL(request.url).searchParams, couponListQuerySchema);
  const result = await listAdminCoupons(servicesFrom(context).db, query);
  const { search, state, kind, sort } = query;
  return { ...result, search, state, kind, sort };
}

/** Disable / enable from the list (intent + couponId). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const submission = await parseForm(request, couponActionSchema);
  const refuse = (status: number, message: string) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  // shoppers' carts lose a disabled coupon at once: only from the confirm step
  if (submission.payload.intent === "disable" && submission.payload.confirm !== CONFIRM_VALUE) {
    return refuse(400, COUPON_FORM_MESSAGES.disableUnconfirmed);
  }
  const form = submission.status === "success" ? submission.value : null;
  if (!form || form.intent === "update" || form.couponId === null) {
    return refuse(400, COUPON_FORM_MESSAGES.badRequest);
  }
  const active = form.intent === "enable";
  const result = await setCouponActive(servicesFrom(context).db, {
    id: form.couponId,
    active,
    actor: { id: admin.id, email: admin.email },
  });
  if (!result.ok) return refuse(404, COUPON_FORM_MESSAGES.notFound);
  const { code } = result.value;
  // back to the list as it was filtered (the forms post to the page's own URL)
  const back = parseListQuery(new URL(request.url).searchParams, couponListQuerySchema);
  return redirectWithToast(listHref(back, back.page), {
    type: "success",
    message: active ? COUPON_FORM_MESSAGES.enabled(code) : COUPON_FORM_MESSAGES.disabled(code),
  });
}

const STATE_STYLES = {
  active: "bg-green-100 text-green-900 ring-green-700",
  disabled: "bg-gray-100 text-gray-900 ring-gray-600",
  expired: "bg-yellow-100 text-yellow-900 ring-yellow-700",
  "used-up": "bg-yellow-100 text-yellow-900 ring-yellow-700",
} as const;

const SORT_LABELS: Record<CouponSort, string> = {
  code: "Code A–Z",
  "code-desc": "Code Z–A",
  "value-asc": "Lowest value",
  "value-desc": "Highest value",
  "uses-desc": "Most used",
  "uses-asc": "Least used",
  "expiry-asc": "Expiring first",
  "expiry-desc": "Expiring last",
};

export default function AdminCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const money = useMoney();
  const { coupons, page, hasMore, search, state, kind, sort } = loaderData;
  const pageLink = (n: number) => listHref({ search, state, kind, sort }, n);
  const sortLink = (to: string) =>
    listHref({ search, state, kind, sort: COUPON_SORTS.find((s) => s === to) ?? "code" }, 1);
  const filtered = Boolean(search || state || kind);
  return (
    <section aria-labelledby="coupons-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="coupons-heading" className="text-3xl font-bold">
          Coupons
        </h1>
        <Link
          to="/admin/coupons/new"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          New coupon
        </Link>
      </div>
      <ListFilters action="/admin/coupons" label="Coupon filters">
        <FilterInput id="coupon-search" name="search" label="Coupon code" value={search} maxLength={32} />
        <FilterSelect
          id="coupon-state"
          name="state"
          label="Status"
          value={state}
          options={optionsOf(COUPON_STATES, COUPON_STATE_LABELS)}
          emptyLabel="Any status"
        />
        <FilterSelect
          id="coupon-kind"
          name="kind"
          label="Kind"
          value={kind}
          options={optionsOf(COUPON_KINDS, COUPON_KIND_LABELS)}
          emptyLabel="Any kind"
        />
        <FilterSelect
          id="coupon-sort"
          name="sort"
          label="Sort"
          value={sort}
          options={optionsOf(COUPON_SORTS, SORT_LABELS)}
        />
      </ListFilters>
      <div className="mt-4">
        <AdminMessage feedback={refusal(actionData?.result)} />
      </div>
      {coupons.length === 0 ? (
        <p className="mt-6 text-gray-700">{filtered ? "No coupons found." : "No coupons yet."}</p>
      ) : (
        <TableScroll label="Coupon list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <SortableColumnHeader
                  label="Code"
                  ascending="code"
                  descending="code-desc"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Kind</ColumnHeader>
                <SortableColumnHeader
                  label="Value"
                  ascending="value-asc"
                  descending="value-desc"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <SortableColumnHeader
                  label="Valid through"
                  ascending="expiry-asc"
                  descending="expiry-desc"
                  current={sort}
                  href={sortLink}
                  className={STACKED_TABLE.columnHeader}
                />
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>
                  Minimum subtotal
                </ColumnHeader>
                <SortableColumnHeader
                  label="Used / limit"
                  ascending="uses-asc"
                  descending="uses-desc"
                  current={sort}
                  href={sortLink}
                  className={`${STACKED_TABLE.columnHeader} text-right`}
                />
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {coupons.map((coupon) => (
                <Row key={coupon.id} className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-mono font-semibold`}>
                    {coupon.code}
                  </RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Kind</CardLabel>
                    {COUPON_KIND_LABELS[coupon.kind]}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Value</CardLabel>
                    {couponValueText(coupon, money)}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Valid through</CardLabel>
                    {coupon.expiresAt ? <OrderDate iso={lastDayOfExpiry(coupon.expiresAt)} /> : "No expiry"}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 md:text-right`}>
                    <CardLabel>Minimum subtotal</CardLabel>
                    {money(coupon.minSubtotalCents)}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 md:text-right`}>
                    <CardLabel>Used / limit</CardLabel>
                    {coupon.usedCount} / {coupon.usageLimit ?? "no limit"}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1`}>
                    <span
                      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATE_STYLES[coupon.state]}`}
                    >
                      {COUPON_STATE_LABELS[coupon.state]}
                    </span>
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 pt-1`}>
                    <div className="flex flex-wrap items-start gap-2 md:justify-end">
                      <Link
                        to={`/admin/coupons/${coupon.id}`}
                        className="rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                      >
                        Edit<span className="sr-only"> {coupon.code}</span>
                      </Link>
                      {coupon.active ? (
                        <ConfirmAction
                          size="sm"
                          label={
                            <>
                              Disable<span className="sr-only"> {coupon.code}</span>
                            </>
                          }
                          question={disableQuestion(coupon.code)}
                          confirmLabel="Yes, disable coupon"
                          keepLabel="Keep it active"
                          keepTo={pageLink(page)}
                          fields={{ couponId: coupon.id, intent: "disable" }}
                        />
                      ) : (
                        <Form method="post">
                          <input type="hidden" name="couponId" value={coupon.id} />
                          <input type="hidden" name="intent" value="enable" />
                          <button
                            type="submit"
                            className="rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                          >
                            Enable<span className="sr-only"> {coupon.code}</span>
                          </button>
                        </Form>
                      )}
                    </div>
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
