import { useForm } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
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
import { Field } from "../components/admin/zone-form-parts.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  createCampaign,
  listAdminPromotions,
  listCampaigns,
} from "../domain/promotions/promotion-admin.server.ts";
import {
  actionText,
  PROMOTION_MESSAGES as M,
  type PromotionStatus,
  STATUS_LABELS,
  scheduleText,
} from "../domain/promotions/promotion-form.ts";
import { campaignSchema } from "../domain/promotions/promotion-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.promotions._index";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Promotions", "/admin/promotions");

const LIST = "/admin/promotions";
/** the list's address: `?with=code` keeps those a shopper applies with a code (coupons among them) */
const listLink = (withCode: boolean, page = 1) => {
  const query = new URLSearchParams();
  if (withCode) query.set("with", "code");
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `${LIST}?${text}` : LIST;
};

/** The promotions in the order they apply, and the campaigns whose budgets they spend. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const query = new URL(request.url).searchParams;
  const page = positiveInt(query.get("page"), 10_000) ?? 1;
  const withCode = query.get("with") === "code";
  const { db } = servicesFrom(context);
  const shop = await shopSettingsFrom(context);
  const { promotions, hasMore } = await listAdminPromotions(db, { page, withCode });
  return {
    page,
    hasMore,
    withCode,
    promotions: promotions.map((promotion) => ({
      id: promotion.id,
      name: promotion.name,
      code: promotion.uniqueCodes ? null : promotion.code,
      uniqueCodes: promotion.uniqueCodes,
      does: actionText(promotion.action, shop.currency),
      schedule: scheduleText(promotion.startsAt, promotion.endsAt, shop.timeZone),
      status: promotion.status,
      usedCount: promotion.usedCount,
      usageLimit: promotion.usageLimit,
      priority: promotion.priority,
      campaignName: promotion.campaignName,
    })),
    campaigns: await listCampaigns(db),
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

/** A new campaign (a name and an optional budget its promotions share). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const submission = await parseForm(request, campaignSchema, { disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const campaign = await createCampaign(servicesFrom(context).db, {
    input: submission.value,
    actor: { id: admin.id, email: admin.email },
  });
  return redirectWithToast(LIST, { type: "success", message: M.campaignCreated(campaign.name) });
}

const STATUS_STYLES: Record<PromotionStatus, string> = {
  active: "bg-green-100 text-green-900 ring-green-700",
  scheduled: "bg-blue-100 text-blue-900 ring-blue-700",
  disabled: "bg-gray-100 text-gray-900 ring-gray-600",
  ended: "bg-yellow-100 text-yellow-900 ring-yellow-700",
  "used-up": "bg-yellow-100 text-yellow-900 ring-yellow-700",
};

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  const money = useMoney();
  const { promotions, campaigns, page, hasMore, withCode } = loaderData;
  const [form, fields] = useForm<{ campaignName: string; budget: string }>({
    id: "campaign-form",
    lastResult: actionData?.result,
  });
  return (
    <section aria-labelledby="promotions-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="promotions-heading" className="text-3xl font-bold">
          Promotions
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link
            to="/admin/promotions/simulate"
            className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
          >
            Simulate
          </Link>
          <Link
            to="/admin/promotions/new"
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            New promotion
          </Link>
        </div>
      </div>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        Listed in the order they apply: higher priority first, then the older one. Automatic promotions apply
        to every cart that qualifies; those with a code, when the shopper enters it in the cart's coupon field
        — coupons are promotions with a code.
      </p>
      <p className="mt-3 text-sm">
        {withCode ? (
          <>
            Showing promotions with a code (coupons).{" "}
            <Link to={listLink(false)} className="font-semibold text-brand-700 hover:underline">
              Show all promotions
            </Link>
          </>
        ) : (
          <Link to={listLink(true)} className="font-semibold text-brand-700 hover:underline">
            Show only promotions with a code (coupons)
          </Link>
        )}
        {" · "}
        <Link
          to="/admin/promotions/new?type=order-percent&coupon=1"
          className="font-semibold text-brand-700 hover:underline"
        >
          New coupon
        </Link>
      </p>
      {promotions.length === 0 ? (
        <p className="mt-6 text-gray-700">
          {withCode ? "No promotions with a code yet." : "No promotions yet."}
        </p>
      ) : (
        <TableScroll label="Promotion list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>What it does</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Code</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Runs</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>
                  Used / limit
                </ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {promotions.map((promotion) => (
                <Row key={promotion.id} className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>
                    {promotion.name}
                    {promotion.campaignName && (
                      <span className="block text-xs font-normal text-gray-700">
                        Campaign: {promotion.campaignName}
                      </span>
                    )}
                  </RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>What it does</CardLabel>
                    {promotion.does}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 font-mono`}>
                    <CardLabel>Code</CardLabel>
                    {promotion.code ?? (
                      <span className="font-sans">
                        {promotion.uniqueCodes ? "Single-use codes" : "Automatic"}
                      </span>
                    )}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Runs</CardLabel>
                    {promotion.schedule}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 md:text-right`}>
                    <CardLabel>Used / limit</CardLabel>
                    {promotion.usedCount} / {promotion.usageLimit ?? "no limit"}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1`}>
                    <span
                      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATUS_STYLES[promotion.status]}`}
                    >
                      {STATUS_LABELS[promotion.status]}
                    </span>
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 pt-1`}>
                    <Link
                      to={`/admin/promotions/${promotion.id}`}
                      className="inline-block rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                    >
                      Edit<span className="sr-only"> {promotion.name}</span>
                    </Link>
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={(next) => listLink(withCode, next)} />

      <section aria-labelledby="campaigns-heading" className="mt-10 max-w-3xl">
        <h2 id="campaigns-heading" className="text-xl font-bold">
          Campaigns
        </h2>
        <p className="mt-1 text-sm text-gray-700">
          A campaign's promotions together never give more than its budget; choose the campaign on a
          promotion.
        </p>
        {campaigns.length === 0 ? (
          <p className="mt-3 text-gray-700">No campaigns yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-200 rounded-lg border border-gray-200">
            {campaigns.map((campaign) => (
              <li key={campaign.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                <span className="font-semibold break-words">{campaign.name}</span>
                <span className="text-sm text-gray-700">
                  {campaign.budgetCents === null
                    ? `${money(campaign.spentCents)} given, no budget`
                    : `${money(campaign.spentCents)} of ${money(campaign.budgetCents)} spent`}
                </span>
              </li>
            ))}
          </ul>
        )}
        <Form
          method="post"
          id={form.id}
          noValidate
          className="mt-4 space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6"
        >
          <h3 className="text-lg font-bold">New campaign</h3>
          <AdminMessage feedback={refusal(actionData?.result)} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field
              field={fields.campaignName}
              id="campaign-name"
              label="Campaign name"
              required
              maxLength={140}
            />
            <Field
              field={fields.budget}
              id="campaign-budget"
              label={`Budget (${loaderData.currencySymbol})`}
              inputMode="decimal"
              maxLength={12}
              hint="Empty: no budget."
            />
          </div>
          <button
            type="submit"
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Create campaign
          </button>
        </Form>
      </section>
    </section>
  );
}
