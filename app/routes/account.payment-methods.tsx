import { CreditCard } from "lucide-react";
import { data, Form } from "react-router";
import { servicesFrom } from "../context.ts";
import {
  listSavedCards,
  PAYMENT_METHOD_MESSAGES,
  removeCardSchema,
  removeSavedCard,
} from "../domain/accounts/payment-methods.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requireUser } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.payment-methods";

const PATH = "/account/payment-methods";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Payment Methods",
      description: "The cards you saved at checkout.",
      path: PATH,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { cards: await listSavedCards(servicesFrom(context).db, user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, removeCardSchema);
  if (submission.payload.intent !== "remove") throw data(null, { status: 400 });
  const id = submission.status === "success" ? submission.value.cardId : 0;
  const removed = await removeSavedCard(servicesFrom(context).db, user.id, id);
  if (!removed.ok) throw data(null, { status: 404 });
  return redirectWithToast(PATH, { type: "success", message: PAYMENT_METHOD_MESSAGES.removed });
}

export default function AccountPaymentMethods({ loaderData }: Route.ComponentProps) {
  const { cards } = loaderData;
  return (
    <section aria-labelledby="payment-methods-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="payment-methods-heading" className="text-xl font-bold">
        Payment Methods
      </h2>
      {cards.length === 0 ? (
        <p className="mt-3 text-gray-700">
          No saved payment methods. Cards you choose to save at checkout appear here.
        </p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {cards.map((card) => (
            <li key={card.id} className="rounded-lg border border-gray-200 p-4 text-sm">
              <p className="flex items-center gap-2 font-semibold">
                <CreditCard aria-hidden="true" className="size-5 text-brand-700" />
                {card.brand} ending in {card.last4}
              </p>
              <dl className="mt-2 space-y-1">
                <div className="flex gap-2">
                  <dt className="text-gray-700">Expires</dt>
                  <dd>
                    {card.expiry}
                    {card.expired && <span className="ml-2 font-semibold text-red-700">(Expired)</span>}
                  </dd>
                </div>
                <div className="flex gap-2">
                  <dt className="text-gray-700">Name on card</dt>
                  <dd>{card.cardholderName}</dd>
                </div>
              </dl>
              <Form method="post" action={PATH} className="mt-3">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="cardId" value={card.id} />
                <button
                  type="submit"
                  aria-label={`Remove ${card.brand} ending in ${card.last4}`}
                  className="font-semibold text-red-700 hover:underline"
                >
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
