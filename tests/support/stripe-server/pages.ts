import { formatAmount } from "./store.ts";
import type { CheckoutSessionObject, LineItemObject, PaymentIntentObject } from "./types.ts";

/**
 * The server's own HTML pages: the 3-D Secure challenge and the hosted Checkout page. Plain
 * forms that work without JavaScript, every input labelled, errors announced (role="alert") and
 * tied to their fields (aria-describedby), readable from 320 px up.
 */

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f6f8fa}
  main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}
  h1{font-size:1.5rem;margin:0 0 1rem}
  h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
  .test-mode{background:#fff4d6;border:1px solid #8a6d00;padding:.5rem .75rem;border-radius:4px}
  table{width:100%;border-collapse:collapse}
  caption{text-align:left}
  th,td{text-align:left;padding:.25rem 0;vertical-align:top}
  td.amount,th.amount{text-align:right}
  .field{margin:0 0 1rem}
  label{display:block;font-weight:600;margin-bottom:.25rem}
  input{width:100%;font:inherit;padding:.5rem;border:1px solid #555;border-radius:4px;background:#fff;color:#1a1a1a}
  input[aria-invalid=true]{border-color:#b00020;border-width:2px}
  .hint{margin:.25rem 0 0;color:#404040;font-size:.875rem}
  .field-error{margin:.25rem 0 0;color:#b00020;font-weight:600}
  .alert{border:2px solid #b00020;background:#fdecee;color:#6b0013;padding:.75rem;border-radius:4px;margin:0 0 1rem}
  button{font:inherit;font-weight:600;padding:.625rem 1rem;border-radius:4px;border:2px solid #0a2540;cursor:pointer;margin:.25rem .5rem .25rem 0}
  .primary{background:#0a2540;color:#fff}
  .secondary{background:#fff;color:#0a2540}
  a{color:#0a3d91}
  :focus-visible{outline:3px solid #0a3d91;outline-offset:2px}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  const action = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : "";
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n${action}`);
}

const TEST_BANNER = `<p class="test-mode">Test mode: this page belongs to Cartwheel's Stripe-compatible test server. No real payment is made.</p>`;

export function authenticationPage(
  intent: PaymentIntentObject,
  card: { brand: string; last4: string } | null,
  attempt: string,
): string {
  const cardText = card
    ? `${card.brand[0]?.toUpperCase()}${card.brand.slice(1)} ending in ${card.last4}`
    : "Card";
  return page(
    "Authenticate your payment",
    `<h1>Authenticate your payment</h1>
${TEST_BANNER}
<p>Your bank asks you to confirm this payment (3-D Secure).</p>
<table>
<caption class="hint">Payment to authenticate</caption>
<tr><th scope="row">Amount</th><td class="amount">${escapeHtml(formatAmount(intent.amount, intent.currency))}</td></tr>
<tr><th scope="row">Card</th><td class="amount">${escapeHtml(cardText)}</td></tr>
</table>
<form method="post" action="/3ds/${escapeHtml(intent.id)}">
<input type="hidden" name="attempt" value="${escapeHtml(attempt)}">
<button class="primary" type="submit" name="outcome" value="complete">Complete authentication</button>
<button class="secondary" type="submit" name="outcome" value="fail">Fail authentication</button>
</form>`,
  );
}

export interface CheckoutFormState {
  email: string;
  name: string;
  /** a payment error for the whole form: a decline, a failed authentication */
  error: string | null;
  fieldErrors: Partial<Record<"email" | "card_number" | "card_expiry" | "card_cvc", string>>;
}

export const EMPTY_FORM: CheckoutFormState = { email: "", name: "", error: null, fieldErrors: {} };

interface FieldSpec {
  name: keyof CheckoutFormState["fieldErrors"] | "name";
  id: string;
  label: string;
  type: string;
  autocomplete: string;
  value: string;
  hint?: string;
  required: boolean;
  inputmode?: string;
}

function field(spec: FieldSpec, error: string | undefined): string {
  const described = [spec.hint ? `${spec.id}-hint` : "", error ? `${spec.id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  const attributes = [
    `id="${spec.id}"`,
    `name="${spec.name}"`,
    `type="${spec.type}"`,
    `autocomplete="${spec.autocomplete}"`,
    spec.value ? `value="${escapeHtml(spec.value)}"` : "",
    spec.required ? "required" : "",
    spec.inputmode ? `inputmode="${spec.inputmode}"` : "",
    described ? `aria-describedby="${described}"` : "",
    error ? `aria-invalid="true"` : "",
  ].filter(Boolean);
  return `<div class="field">
<label for="${spec.id}">${escapeHtml(spec.label)}</label>
<input ${attributes.join(" ")}>
${spec.hint ? `<p class="hint" id="${spec.id}-hint">${escapeHtml(spec.hint)}</p>` : ""}
${error ? `<p class="field-error" id="${spec.id}-error">${escapeHtml(error)}</p>` : ""}
</div>`;
}

export function checkoutPage(
  session: CheckoutSessionObject,
  items: LineItemObject[],
  form: CheckoutFormState,
): string {
  const currency = session.currency ?? "usd";
  const rows = items
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.description)}${item.quantity > 1 ? ` × ${item.quantity}` : ""}</td><td class="amount">${escapeHtml(formatAmount(item.amount_total, currency))}</td></tr>`,
    )
    .join("\n");
  const total = formatAmount(session.amount_total ?? 0, currency);
  const errors = form.fieldErrors;
  const alert = form.error
    ? `<div class="alert" role="alert" id="payment-error"><p><strong>Payment failed:</strong> ${escapeHtml(form.error)}</p></div>`
    : Object.keys(errors).length > 0
      ? `<div class="alert" role="alert" id="payment-error"><p>Check the highlighted fields.</p></div>`
      : "";
  const fields = [
    field(
      {
        name: "email",
        id: "email",
        label: "Email",
        type: "email",
        autocomplete: "email",
        value: form.email,
        required: true,
      },
      errors.email,
    ),
    field(
      {
        name: "name",
        id: "cardholder",
        label: "Name on card",
        type: "text",
        autocomplete: "cc-name",
        value: form.name,
        required: false,
      },
      undefined,
    ),
    field(
      {
        name: "card_number",
        id: "card-number",
        label: "Card number",
        type: "text",
        autocomplete: "cc-number",
        inputmode: "numeric",
        value: "",
        required: true,
        hint: "Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0027 6000 3184 asks for authentication.",
      },
      errors.card_number,
    ),
    field(
      {
        name: "card_expiry",
        id: "card-expiry",
        label: "Expiry date",
        type: "text",
        autocomplete: "cc-exp",
        value: "",
        required: true,
        hint: "MM / YY, e.g. 12 / 34",
      },
      errors.card_expiry,
    ),
    field(
      {
        name: "card_cvc",
        id: "card-cvc",
        label: "Security code (CVC)",
        type: "text",
        autocomplete: "cc-csc",
        inputmode: "numeric",
        value: "",
        required: true,
        hint: "3 or 4 digits",
      },
      errors.card_cvc,
    ),
  ];
  const cancel = session.cancel_url
    ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return to the shop</a></p>`
    : "";
  return page(
    form.error || Object.keys(errors).length > 0 ? "Error: Checkout" : "Checkout",
    `<h1>Checkout</h1>
${TEST_BANNER}
<h2 id="summary-heading">Order summary</h2>
<table aria-labelledby="summary-heading">
<thead><tr><th scope="col">Item</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row">Total</th><td class="amount"><strong>${escapeHtml(total)}</strong></td></tr></tfoot>
</table>
<h2>Payment details</h2>
${alert}
<form method="post" action="/checkout/${escapeHtml(session.id)}" novalidate>
${fields.join("\n")}
<button class="primary" type="submit">Pay ${escapeHtml(total)}</button>
</form>
${cancel}`,
  );
}
