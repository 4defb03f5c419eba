import { data, Form, Link, useNavigation } from "react-router";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { GIFT_CARD_MESSAGES as M, MOVEMENT_LABELS } from "../domain/gift-cards/gift-card-form.ts";
import { giftCardActionSchema } from "../domain/gift-cards/gift-card-schema.server.ts";
import { getGiftCard, setGiftCardDisabled } from "../domain/gift-cards/gift-cards.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatMoney } from "../lib/money.ts";
import { formatDateTimeIn } from "../lib/time-zones.ts";
import type { Route } from "./+types/admin.gift-cards.$id";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, "Gift card", `/admin/gift-cards/${params.id}`);

/** One card: what it was worth, what it holds, each movement of its balance; disable or enable it. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "refunds");
  const id = positiveInt(params.id);
  const found = id ? await getGiftCard(servicesFrom(context).db, id) : null;
  if (!found) throw data(null, { status: 404 });
  const { timeZone } = await shopSettingsFrom(context);
  const { card, message, movements } = found;
  const money = (cents: number) => formatMoney(cents, card.currency);
  return {
    card: {
      id: card.id,
      name: card.kind === "store_credit" ? "Store credit" : `Gift card ending ${card.last4}`,
      balance: money(card.balanceCents),
      initial: money(card.initialCents),
      recipient: card.recipientEmail
        ? `${card.recipientName ? `${card.recipientName}, ` : ""}${card.recipientEmail}`
        : null,
      message,
      expires: card.expiresAt ? formatDateTimeIn(card.expiresAt, timeZone) : "Never",
      issued: formatDateTimeIn(card.createdAt, timeZone),
      disabled: card.disabled,
    },
    movements: movements.map((movement) => ({
      when: formatDateTimeIn(movement.createdAt, timeZone),
      what: MOVEMENT_LABELS[movement.reason],
      amount: `${movement.amountCents > 0 ? "+" : "−"}${money(Math.abs(movement.amountCents))}`,
      orderNumber: movement.orderNumber,
    })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "refunds");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const submission = await parseForm(request, giftCardActionSchema);
  if (submission.status !== "success") throw data(null, { status: 400 });
  const disabled = submission.value.intent === "disable";
  const changed = await setGiftCardDisabled(servicesFrom(context).db, {
    id,
    disabled,
    actor: { id: staff.id, email: staff.email, role: staff.role },
  });
  if (!changed.ok) throw data(null, { status: changed.error.code === "forbidden" ? 403 : 404 });
  const last4 = changed.value.last4;
  return redirectWithToast(`/admin/gift-cards/${id}`, {
    type: "success",
    message: disabled ? M.disabled(last4) : M.enabled(last4),
  });
}

export default function AdminGiftCard({ loaderData }: Route.ComponentProps) {
  const { card, movements } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="gift-card-heading" className="max-w-3xl">
      <p>
        <Link to="/admin/gift-cards" className="font-semibold text-brand-700 hover:underline">
          ← Back to gift cards
        </Link>
      </p>
      <h1 id="gift-card-heading" className="mt-2 text-3xl font-bold break-words">
        {card.name}
      </h1>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Balance</dt>
        <dd data-testid="gift-card-balance">
          {card.balance} of {card.initial}
        </dd>
        <dt className="font-semibold">Status</dt>
        <dd>{card.disabled ? "Disabled: it cannot pay" : "Active"}</dd>
        <dt className="font-semibold">Issued</dt>
        <dd>{card.issued}</dd>
        <dt className="font-semibold">Expires</dt>
        <dd>{card.expires}</dd>
        {card.recipient && (
          <>
            <dt className="font-semibold">Recipient</dt>
            <dd className="break-all">{card.recipient}</dd>
          </>
        )}
        {card.message && (
          <>
            <dt className="font-semibold">Message</dt>
            <dd className="whitespace-pre-line break-words">{card.message}</dd>
          </>
        )}
      </dl>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value={card.disabled ? "enable" : "disable"} />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100 disabled:opacity-60"
        >
          {card.disabled ? "Enable gift card" : "Disable gift card"}
        </button>
      </Form>
      <h2 className="mt-8 text-xl font-bold">Movements</h2>
      <ul className="mt-3 divide-y divide-gray-200 rounded-lg border border-gray-200">
        {movements.map((movement, index) => (
          <li key={index} className="flex flex-wrap justify-between gap-2 px-3 py-2">
            <span>
              <span className="font-semibold">{movement.what}</span>
              {movement.orderNumber && <span className="text-gray-700"> · order {movement.orderNumber}</span>}
              <span className="block text-sm text-gray-700">{movement.when}</span>
            </span>
            <span className="font-semibold">{movement.amount}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
