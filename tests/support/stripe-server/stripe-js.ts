/**
 * A stand-in for Stripe.js (https://js.stripe.com/<train>/stripe.js) in the browser tests, which
 * cannot reach js.stripe.com: the e2e suite answers that address with this script
 * (`page.route`), so the shop loads it exactly as it loads the real one (@stripe/stripe-js, on the
 * payment step, under the same Content-Security-Policy).
 *
 * It implements the part the shop uses — `Stripe(pk)`, `elements({ mode, amount, currency })`,
 * `elements.create("payment")` with `mount`, `on("ready")` and `destroy`, `elements.submit()` and
 * `stripe.createPaymentMethod({ elements })` — with a plain labelled card form in place of the
 * Payment Element's frame. Card numbers map to Stripe's test PaymentMethods as Stripe's testing
 * docs pair them (4242… → pm_card_visa, …0002 → pm_card_chargeDeclined, 4000 0000 0000 3220 →
 * pm_card_threeDSecure2Required, …), and those ids are what the Stripe test server knows, so the
 * shop's server goes on against it unchanged. Nothing here talks to the network.
 */
export const FAKE_STRIPE_JS = String.raw`(() => {
  const CARDS = {
    "4242424242424242": ["pm_card_visa", "visa"],
    "5555555555554444": ["pm_card_mastercard", "mastercard"],
    "378282246310005": ["pm_card_amex", "amex"],
    "4000000000000002": ["pm_card_chargeDeclined", "visa"],
    "4000000000009995": ["pm_card_chargeDeclinedInsufficientFunds", "visa"],
    "4000000000003220": ["pm_card_threeDSecure2Required", "visa"],
    "4000002760003184": ["pm_card_authenticationRequired", "visa"],
  };
  const field = (id, label, autocomplete, inputmode) => {
    const wrap = document.createElement("div");
    wrap.style.marginBottom = "0.75rem";
    const labelElement = document.createElement("label");
    labelElement.htmlFor = id;
    labelElement.textContent = label;
    labelElement.style.display = "block";
    labelElement.style.fontWeight = "600";
    const input = document.createElement("input");
    input.id = id;
    input.autocomplete = autocomplete;
    input.inputMode = inputmode;
    input.style.border = "1px solid #6b7280";
    input.style.borderRadius = "0.5rem";
    input.style.padding = "0.5rem";
    input.style.width = "100%";
    wrap.append(labelElement, input);
    return wrap;
  };
  function Stripe(publishableKey) {
    if (typeof publishableKey !== "string" || !publishableKey.startsWith("pk_")) {
      throw new Error("Invalid API Key provided: " + publishableKey);
    }
    let mounted = null;
    const stripe = {
      _registerWrapper() {},
      elements(options) {
        const elements = {
          options,
          create(type) {
            if (type !== "payment") throw new Error("This stand-in makes the payment element only");
            const handlers = {};
            const element = {
              on(event, handler) {
                (handlers[event] ??= []).push(handler);
                return element;
              },
              mount(target) {
                const host = typeof target === "string" ? document.querySelector(target) : target;
                const box = document.createElement("div");
                box.setAttribute("data-fake-stripe", "payment-element");
                box.append(
                  field("fake-stripe-number", "Card number", "cc-number", "numeric"),
                  field("fake-stripe-expiry", "Expiration date (MM / YY)", "cc-exp", "numeric"),
                  field("fake-stripe-cvc", "Security code", "cc-csc", "numeric"),
                );
                host.append(box);
                mounted = box;
                setTimeout(() => (handlers.ready ?? []).forEach((handler) => handler({ elementType: "payment" })), 0);
              },
              destroy() {
                mounted?.remove();
                mounted = null;
              },
              unmount() {
                mounted?.remove();
              },
            };
            return element;
          },
          async submit() {
            const number = (mounted?.querySelector("#fake-stripe-number")?.value ?? "").replace(/\D/g, "");
            if (number.length === 0) {
              return { error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } };
            }
            return {};
          },
        };
        return elements;
      },
      async createPaymentMethod({ elements }) {
        const value = (id) => mounted?.querySelector(id)?.value ?? "";
        const number = value("#fake-stripe-number").replace(/\D/g, "");
        const expiry = value("#fake-stripe-expiry").replace(/\D/g, "");
        const known = CARDS[number];
        if (!elements || !known) {
          return { error: { type: "card_error", code: "incorrect_number", message: "Your card number is invalid." } };
        }
        if (expiry.length !== 4) {
          return { error: { type: "validation_error", code: "incomplete_expiry", message: "Your card's expiration date is incomplete." } };
        }
        return {
          paymentMethod: {
            id: known[0],
            object: "payment_method",
            type: "card",
            card: { brand: known[1], last4: number.slice(-4), exp_month: Number(expiry.slice(0, 2)), exp_year: 2000 + Number(expiry.slice(2)) },
          },
        };
      },
    };
    return stripe;
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
`;
