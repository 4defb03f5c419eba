import { randomUUID } from "node:crypto";
import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { FormField } from "../components/checkout/form-field.tsx";
import { mailShopFrom, servicesFrom, shopSettingsFrom } from "../context.ts";
import { sendGiftCardEmail } from "../domain/gift-cards/gift-card-email.server.ts";
import {
  GIFT_CARD_LIMITS,
  GIFT_CARD_LABELS as LABELS,
  GIFT_CARD_MESSAGES as M,
} from "../domain/gift-cards/gift-card-form.ts";
import { issueGiftCardSchema } from "../domain/gift-cards/gift-card-schema.server.ts";
import { issueGiftCard } from "../domain/gift-cards/gift-cards.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS, formatMoney } from "../lib/money.ts";
import type { Route } from "./+types/admin.gift-cards.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Issue a gift card", "/admin/gift-cards/new");

const FIELDS = ["amount", "expiresOn", "recipientEmail", "recipientName", "message"] as const;
type IssueField = (typeof FIELDS)[number];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "refunds");
  const shop = await shopSettingsFrom(context);
  // one key per form shown: sent twice, it issues one card
  return {
    key: randomUUID(),
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
    timeZone: shop.timeZone,
  };
}

/**
 * Issues the card and answers with its code — the only page that ever shows it (no redirect: the
 * code is not put in a URL or a cookie). Sent again, the same form issues nothing more.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "refunds");
  const shop = await shopSettingsFrom(context);
  const submission = await parseForm(
    request,
    issueGiftCardSchema({ currency: shop.currency, timeZone: shop.timeZone }),
    { disableAutoCoercion: true },
  );
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }), issued: null }, { status: 400 });
  }
  const services = servicesFrom(context);
  const issued = await issueGiftCard(services.db, {
    input: submission.value,
    actor: { id: staff.id, email: staff.email, role: staff.role },
  });
  if (!issued.ok) {
    if (issued.error.code !== "invalid") throw data(null, { status: 403 });
    // what only the domain knows: a last day already over
    const field = issued.error.field === "amount" ? "amount" : "expiresOn";
    const message = field === "amount" ? M.amount : M.expiresAt;
    return data(
      {
        result: submission.reply({ formErrors: [M.invalid], fieldErrors: { [field]: [message] } }),
        issued: null,
      },
      { status: 400 },
    );
  }
  const { card, code } = issued.value;
  if (code === null) {
    return redirectWithToast(`/admin/gift-cards/${card.id}`, {
      type: "success",
      message: M.issued(card.last4),
    });
  }
  const emailed = await sendGiftCardEmail(
    services.mail,
    { ...(await mailShopFrom(context)), timeZone: shop.timeZone },
    { card, code, message: submission.value.message },
  );
  return {
    result: undefined,
    issued: {
      id: card.id,
      code,
      amount: formatMoney(card.initialCents, card.currency),
      emailedTo: emailed ? card.recipientEmail : null,
    },
  };
}

export default function IssueGiftCard({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<IssueField, string>>({ lastResult: actionData?.result });
  const typed = (actionData?.result?.initialValue ?? {}) as Partial<Record<IssueField, string>>;
  const issued = actionData?.issued;
  return (
    <section aria-labelledby="issue-gift-card-heading" className="max-w-3xl">
      <p>
        <Link to="/admin/gift-cards" className="font-semibold text-brand-700 hover:underline">
          ← Back to gift cards
        </Link>
      </p>
      <h1 id="issue-gift-card-heading" className="mt-2 text-3xl font-bold">
        Issue a gift card
      </h1>
      {issued ? (
        <div role="status" className="mt-6 rounded-xl border border-green-700 bg-green-50 p-4 sm:p-6">
          <h2 className="text-xl font-bold text-green-900">Gift card issued: {issued.amount}</h2>
          <p className="mt-3 text-sm text-gray-900">
            Its code (shown only now; copy it if you hand it over yourself):
          </p>
          <p
            className="mt-1 font-mono text-2xl font-bold tracking-wider break-all"
            data-testid="gift-card-code"
          >
            {issued.code}
          </p>
          <p className="mt-3 text-sm text-gray-900">
            {issued.emailedTo ? `The code was e-mailed to ${issued.emailedTo}.` : "No e-mail was sent."}
          </p>
          <p className="mt-4 flex flex-wrap gap-4">
            <Link to={`/admin/gift-cards/${issued.id}`} className="font-semibold text-brand-700 underline">
              View the card
            </Link>
            <Link
              to="/admin/gift-cards/new"
              reloadDocument
              className="font-semibold text-brand-700 underline"
            >
              Issue another
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-700">Fields marked * are required.</p>
          <Form method="post" id={form.id} noValidate className="mt-6 space-y-4">
            <AdminMessage feedback={refusal(actionData?.result)} />
            <input type="hidden" name="key" value={loaderData.key} />
            <FormField
              id="gift-card-amount"
              name="amount"
              label={`${LABELS.amount} (${loaderData.currencySymbol})`}
              inputMode="decimal"
              required
              defaultValue={typed.amount ?? ""}
              error={fields.amount.errors?.[0]}
              hint="From 1.00 to 10000.00."
            />
            <FormField
              id="gift-card-expiresOn"
              name="expiresOn"
              type="date"
              label={LABELS.expiresAt}
              defaultValue={typed.expiresOn ?? ""}
              error={fields.expiresOn.errors?.[0]}
              hint={`The card works through this day (${loaderData.timeZone}). Empty: it never expires.`}
            />
            <FormField
              id="gift-card-recipientEmail"
              name="recipientEmail"
              type="email"
              inputMode="email"
              label={LABELS.recipientEmail}
              defaultValue={typed.recipientEmail ?? ""}
              error={fields.recipientEmail.errors?.[0]}
              hint="The code is e-mailed there. Empty: you hand it over yourself."
            />
            <FormField
              id="gift-card-recipientName"
              name="recipientName"
              label={LABELS.recipientName}
              maxLength={GIFT_CARD_LIMITS.name}
              defaultValue={typed.recipientName ?? ""}
              error={fields.recipientName.errors?.[0]}
            />
            <FormField
              id="gift-card-message"
              label={LABELS.message}
              error={fields.message.errors?.[0]}
              hint="Written in the e-mail."
            >
              <textarea
                id="gift-card-message"
                name="message"
                rows={3}
                maxLength={GIFT_CARD_LIMITS.message}
                defaultValue={typed.message ?? ""}
                aria-invalid={fields.message.errors ? true : undefined}
                aria-describedby={
                  fields.message.errors ? "gift-card-message-error" : "gift-card-message-hint"
                }
                className="mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2 text-gray-900"
              />
            </FormField>
            <button
              type="submit"
              disabled={busy}
              className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              Issue gift card
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
