import { useForm } from "@conform-to/react";
import { data, Form, useNavigation } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { Breadcrumbs } from "../content/help/help-layout.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  GIFT_CARD_CHECK_LIMIT,
  GIFT_CARD_REFUSALS,
  GIFT_CARD_CHECK_MESSAGES as M,
} from "../domain/gift-cards/gift-card-form.ts";
import { giftCardBalanceSchema } from "../domain/gift-cards/gift-card-schema.server.ts";
import { findGiftCard } from "../domain/gift-cards/gift-cards.server.ts";
import { parseForm } from "../http/form.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { formatMoney } from "../lib/money.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { formatDateTimeIn } from "../lib/time-zones.ts";
import type { Route } from "./+types/gift-cards.balance";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Gift card balance",
    description: "Check what is left on a gift card.",
    path: "/gift-cards/balance",
    origin,
    shopName: contact.name,
  });
};

/** A balance is nobody else's business: never kept by a cache. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/**
 * A gift card's balance by its code. Each check counts against the visitor's address before the
 * code is looked up (10 per 15 minutes across every process), so codes cannot be tried in bulk;
 * an unknown code and a wrong one get the same answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, giftCardBalanceSchema);
  if (submission.status !== "success")
    return data({ result: submission.reply(), card: null }, { status: 400 });
  const { db } = servicesFrom(context);
  const { clientIp } = context.get(requestInfoContext);
  const limited = await hitRateLimit(db, `gift-card-check:${clientIp}`, GIFT_CARD_CHECK_LIMIT);
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return data(
      { result: submission.reply({ fieldErrors: { code: [M.tooMany(minutes)] } }), card: null },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const found = await findGiftCard(db, submission.value.code);
  if (!found.ok) {
    return data(
      {
        result: submission.reply({ fieldErrors: { code: [GIFT_CARD_REFUSALS[found.error.code]] } }),
        card: null,
      },
      { status: 400 },
    );
  }
  const { timeZone } = await shopSettingsFrom(context);
  const card = found.value;
  return {
    result: submission.reply({ resetForm: true }),
    card: {
      last4: card.last4,
      balance: formatMoney(card.balanceCents, card.currency),
      expires: card.expiresAt ? formatDateTimeIn(card.expiresAt, timeZone) : null,
    },
  };
}

export default function GiftCardBalance({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<{ code: string }>({ lastResult: actionData?.result });
  const card = actionData?.card;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Gift card balance" }]} />
      <div className="mt-6 max-w-xl">
        <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">
          Gift card balance
        </h1>
        <p className="mt-3 text-gray-700">Enter your gift card's code to see what is left on it.</p>
        {card && (
          <div role="status" className="mt-6 rounded-xl border border-green-700 bg-green-50 p-4">
            <p className="font-semibold text-green-900">
              Gift card ending {card.last4}: <span data-testid="gift-card-balance">{card.balance}</span> left
            </p>
            <p className="mt-1 text-sm text-gray-900">
              {card.expires ? `It can be used until ${card.expires}.` : "It does not expire."}
            </p>
          </div>
        )}
        <Form method="post" id={form.id} noValidate className="mt-6 space-y-4">
          <FormField
            id="gift-card-code"
            name="code"
            label="Gift card code"
            required
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="characters"
            maxLength={40}
            defaultValue=""
            error={fields.code.errors?.[0]}
            hint="16 letters and digits, e.g. ABCD-EFGH-JKLM-NPQR."
          />
          <button
            type="submit"
            disabled={busy}
            className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            Check balance
          </button>
        </Form>
      </div>
    </div>
  );
}
