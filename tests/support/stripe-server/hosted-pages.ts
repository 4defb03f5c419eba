import { completeSession, expireSession, sessionIntent, successUrl } from "./checkout.ts";
import {
  authenticationPage,
  type CheckoutFormState,
  checkoutPage,
  EMPTY_FORM,
  messagePage,
} from "./pages.ts";
import { completeAuthentication, confirmIntent, redirectStatus } from "./payment-flow.ts";
import { nowSeconds, type Store } from "./store.ts";
import { cardByNumber, luhnValid, NON_TEST_CARD } from "./test-cards.ts";
import type { CheckoutSessionObject } from "./types.ts";

/**
 * The pages a shopper's browser visits on this server (no API key): the 3-D Secure challenge
 * (`/3ds/<pi>`) and the hosted Checkout page (`/checkout/<cs>`). Each POST answers with a 303
 * redirect or the page again with its errors.
 */

export interface PageResult {
  status: number;
  html?: string;
  location?: string;
}

const notFound = (what: string): PageResult => ({
  status: 404,
  html: messagePage("Page not found", `There is no ${what} at this address on the test server.`),
});

export function handlePage(store: Store, method: string, url: URL, form: URLSearchParams): PageResult | null {
  const parts = url.pathname.split("/").filter(Boolean);
  const [section, id, action] = parts;
  if (section === "3ds" && id && parts.length === 2) {
    if (method === "GET") return showAuthentication(store, id, url.searchParams.get("attempt") ?? "");
    if (method === "POST") return answerAuthentication(store, id, form);
  }
  if (section === "checkout" && id) {
    const session = store.sessions.get(id);
    if (!session) return notFound("checkout session");
    if (parts.length === 2 && method === "GET") return showCheckout(store, session);
    if (parts.length === 2 && method === "POST") return pay(store, session, form);
    if (action === "complete" && method === "GET") return afterAuthentication(store, session);
    if (action === "success" && method === "GET") {
      return {
        status: 200,
        html: messagePage("Payment complete", "Thank you: your test payment went through."),
      };
    }
  }
  return null;
}

function showAuthentication(store: Store, id: string, attempt: string): PageResult {
  const intent = store.paymentIntents.get(id);
  if (!intent) return notFound("payment to authenticate");
  const internals = store.internals(id);
  if (intent.status !== "requires_action" || !attempt || internals.authenticationAttempt !== attempt) {
    return {
      status: 410,
      html: messagePage(
        "Nothing to authenticate",
        "This authentication is no longer pending: it was answered or replaced.",
      ),
    };
  }
  const card = intent.payment_method ? store.paymentMethod(intent.payment_method).card : null;
  return { status: 200, html: authenticationPage(intent, card, attempt) };
}

function answerAuthentication(store: Store, id: string, form: URLSearchParams): PageResult {
  const intent = store.paymentIntents.get(id);
  if (!intent) return notFound("payment to authenticate");
  const outcome = form.get("outcome");
  if (outcome !== "complete" && outcome !== "fail") {
    return {
      status: 400,
      html: messagePage("Choose an answer", "Choose Complete authentication or Fail authentication."),
    };
  }
  completeAuthentication(store, intent, form.get("attempt") ?? "", outcome === "complete");
  const returnUrl = store.internals(id).returnUrl;
  if (!returnUrl) {
    return { status: 200, html: messagePage("Authentication answered", "You can close this page.") };
  }
  const target = new URL(returnUrl);
  target.searchParams.set("payment_intent", intent.id);
  target.searchParams.set("payment_intent_client_secret", intent.client_secret ?? "");
  target.searchParams.set("redirect_status", redirectStatus(intent));
  return { status: 303, location: target.toString() };
}

function showCheckout(
  store: Store,
  session: CheckoutSessionObject,
  form: CheckoutFormState = EMPTY_FORM,
): PageResult {
  if (session.status === "open" && session.expires_at <= nowSeconds()) expireSession(store, session, null);
  if (session.status === "complete") return { status: 303, location: successUrl(store, session) };
  if (session.status === "expired") {
    const back = session.cancel_url ? { href: session.cancel_url, text: "Return to the shop" } : undefined;
    return { status: 410, html: messagePage("Checkout expired", "This checkout session has expired.", back) };
  }
  const items = store.sessionInternals.get(session.id)?.lineItems ?? [];
  const prefilled =
    form === EMPTY_FORM && session.customer_email ? { ...form, email: session.customer_email } : form;
  const status = form.error ? 402 : Object.keys(form.fieldErrors).length > 0 ? 400 : 200;
  return { status, html: checkoutPage(session, items, prefilled) };
}

const EXPIRY = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/;

function pay(store: Store, session: CheckoutSessionObject, form: URLSearchParams): PageResult {
  if (session.status !== "open") return showCheckout(store, session);
  const email = (form.get("email") ?? "").trim();
  const name = (form.get("name") ?? "").trim();
  const number = (form.get("card_number") ?? "").replace(/[\s-]/g, "");
  const expiry = (form.get("card_expiry") ?? "").match(EXPIRY);
  const cvc = (form.get("card_cvc") ?? "").trim();
  const state: CheckoutFormState = { email, name, error: null, fieldErrors: {} };
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    state.fieldErrors.email = "Enter an email address, like name@example.com.";
  if (!/^\d{12,19}$/.test(number)) state.fieldErrors.card_number = "Your card number is incomplete.";
  else if (!luhnValid(number)) state.fieldErrors.card_number = "Your card number is invalid.";
  if (!expiry) state.fieldErrors.card_expiry = "Your card's expiration date is incomplete.";
  else {
    const month = Number(expiry[1]);
    const year = Number(expiry[2]) < 100 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const today = new Date();
    if (month < 1 || month > 12) state.fieldErrors.card_expiry = "Your card's expiration date is invalid.";
    else if (
      year < today.getUTCFullYear() ||
      (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)
    ) {
      state.fieldErrors.card_expiry = "Your card's expiration date is in the past.";
    }
  }
  if (!/^\d{3,4}$/.test(cvc)) state.fieldErrors.card_cvc = "Your card's security code is incomplete.";
  if (Object.keys(state.fieldErrors).length > 0) return showCheckout(store, session, state);

  const testCard = cardByNumber(number);
  if (!testCard) return showCheckout(store, session, { ...state, error: NON_TEST_CARD.message });
  const intent = sessionIntent(store, session, email);
  // a new attempt, also after a decline or an abandoned authentication
  Object.assign(intent, { payment_method: testCard.paymentMethod, status: "requires_confirmation" });
  confirmIntent(
    store,
    intent,
    { returnUrl: `${store.baseUrl}/checkout/${session.id}/complete`, request: null },
    false,
  );
  const internals = store.sessionInternals.get(session.id);
  if (internals) internals.customer = { email, name: name || null };
  if (intent.status === "requires_action" && intent.next_action?.redirect_to_url?.url) {
    return { status: 303, location: intent.next_action.redirect_to_url.url };
  }
  return finish(store, session, state);
}

function afterAuthentication(store: Store, session: CheckoutSessionObject): PageResult {
  if (session.status !== "open") return showCheckout(store, session);
  const details = store.sessionInternals.get(session.id)?.customer;
  return finish(store, session, { ...EMPTY_FORM, email: details?.email ?? "", name: details?.name ?? "" });
}

/** After an attempt: paid → success_url; declined or not authenticated → the form with the reason. */
function finish(store: Store, session: CheckoutSessionObject, state: CheckoutFormState): PageResult {
  const intent = session.payment_intent ? store.paymentIntents.get(session.payment_intent) : undefined;
  if (intent?.status === "succeeded" || intent?.status === "processing") {
    const details = { email: state.email || null, name: state.name || null };
    completeSession(store, session, details, intent.status === "succeeded" ? "paid" : "unpaid");
    return { status: 303, location: successUrl(store, session) };
  }
  const error =
    intent?.last_payment_error?.code === "payment_intent_authentication_failure"
      ? "We are unable to authenticate your payment method. Please choose a different payment method and try again."
      : (intent?.last_payment_error?.message ?? "Your payment could not be completed.");
  return showCheckout(store, session, { ...state, error });
}
