import type { Stripe, StripeElements, StripePaymentElement } from "@stripe/stripe-js";
import { Lock } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, useSubmit } from "react-router";
import { useShopSettings } from "../shop-settings.ts";

/**
 * Step 2 with Stripe (decision 020). The page as the server sends it works without JavaScript: the
 * shopper reviews the order and pays on Stripe's hosted page after Place Order. With JavaScript,
 * Stripe.js is loaded here (and only on this step) and its Payment Element takes the card in
 * Stripe's own frame; what the shop gets is a PaymentMethod id, never the card. If Stripe.js cannot
 * be loaded, the hosted page stays the way to pay.
 */
export function ProviderPaymentStep({
  publishableKey,
  amountCents,
}: {
  publishableKey: string;
  amountCents: number;
}) {
  const submit = useSubmit();
  const mountPoint = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { currency } = useShopSettings();

  useEffect(() => {
    let element: StripePaymentElement | null = null;
    let gone = false;
    import("@stripe/stripe-js/pure")
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((loaded) => {
        if (!loaded || gone || !mountPoint.current) return;
        const elements = loaded.elements({
          mode: "payment",
          amount: amountCents,
          currency: currency.toLowerCase(),
          paymentMethodCreation: "manual",
        });
        element = elements.create("payment");
        element.on("ready", () => setReady(true));
        element.mount(mountPoint.current);
        stripe.current = { stripe: loaded, elements };
      })
      .catch(() => {
        // no Stripe.js (blocked, offline): the hosted page below is the way to pay
      });
    return () => {
      gone = true;
      element?.destroy();
    };
  }, [publishableKey, amountCents, currency]);

  async function continueWithCard(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const current = stripe.current;
    if (!current || busy) return;
    setBusy(true);
    setError(null);
    try {
      const checked = await current.elements.submit();
      if (checked.error) {
        setError(checked.error.message ?? "Please check your card details.");
        return;
      }
      const made = await current.stripe.createPaymentMethod({ elements: current.elements });
      if (made.error || !made.paymentMethod) {
        setError(made.error?.message ?? "Your card could not be used. Please try another card.");
        return;
      }
      await submit(
        { intent: "payment", paymentMethodId: made.paymentMethod.id },
        { method: "post", action: "/checkout" },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="payment-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="payment-heading" className="text-xl font-bold">
        Payment Information
      </h2>
      <p className="mt-1 flex items-center gap-2 text-sm text-gray-700">
        <Lock aria-hidden="true" className="size-4" /> Your card details go to Stripe, our payment provider;
        we keep only the card type and last four digits.
      </p>

      <form onSubmit={continueWithCard} hidden={!ready} aria-label="Card" className="mt-4 space-y-4">
        <div ref={mountPoint} />
        {error && (
          <p role="alert" className="text-sm font-semibold text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-row-reverse flex-wrap items-center justify-between gap-4">
          <button
            type="submit"
            disabled={busy}
            aria-busy={busy || undefined}
            className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80"
          >
            Review Order
          </button>
        </div>
      </form>

      <Form method="post" action="/checkout" className="mt-4 space-y-4">
        {ready ? (
          <p className="text-sm text-gray-700">
            Or enter your card on Stripe's secure page after the review.
          </p>
        ) : (
          <p className="text-sm text-gray-900">
            You will enter your card on Stripe's secure payment page after reviewing your order.
          </p>
        )}
        <div className="flex flex-row-reverse flex-wrap items-center justify-between gap-4">
          <button
            type="submit"
            name="intent"
            value="payment"
            className={
              ready
                ? "rounded-lg border border-gray-400 px-6 py-3 font-semibold text-gray-900 hover:bg-gray-100"
                : "rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
            }
          >
            {ready ? "Pay on Stripe's page instead" : "Review Order"}
          </button>
          <button
            type="submit"
            name="intent"
            value="back-to-shipping"
            className="rounded-lg border border-gray-400 px-6 py-3 font-semibold text-gray-900 hover:bg-gray-100"
          >
            Back
          </button>
        </div>
      </Form>
    </section>
  );
}
