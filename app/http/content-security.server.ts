/**
 * The Content-Security-Policy: one set of directives for every page (server/app.ts sends it with
 * each response's nonce), and the same set opened for a payment provider's origins on the pages
 * that need them (the checkout's payment and review steps with Stripe) — a route's own header wins
 * over the server's (server/app.ts, `overwrite: false`).
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
} as const satisfies Record<string, readonly string[]>;

export type CspDirective = keyof typeof CSP_DIRECTIVES | "frameSrc";

/** The header's text: the shared directives with the page's nonce, and `extra` sources added. */
export function contentSecurityPolicy(
  nonce: string,
  extra: Partial<Record<CspDirective, readonly string[]>> = {},
): string {
  const directives: Record<string, readonly string[]> = { ...CSP_DIRECTIVES };
  directives.scriptSrc = [...CSP_DIRECTIVES.scriptSrc, `'nonce-${nonce}'`];
  for (const [name, sources] of Object.entries(extra)) {
    directives[name] = [...(directives[name] ?? []), ...sources];
  }
  return Object.entries(directives)
    .map(([name, sources]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${sources.join(" ")}`)
    .join("; ");
}

/** Stripe.js and its Payment Element (https://docs.stripe.com/security/guide#content-security-policy). */
export const STRIPE_ELEMENT_SOURCES = {
  scriptSrc: ["https://js.stripe.com"],
  frameSrc: ["https://js.stripe.com", "https://hooks.stripe.com"],
  connectSrc: ["https://api.stripe.com"],
} as const;

/**
 * Where Place Order may send the shopper (a form's redirect counts for form-action): Stripe's
 * 3-D Secure and hosted Checkout pages, and the origin of another Stripe-compatible API's pages
 * (STRIPE_API_URL, e.g. the test server).
 */
export function stripeRedirectSources(apiUrl: string | undefined): { formAction: string[] } {
  const origins = ["https://checkout.stripe.com", "https://hooks.stripe.com"];
  if (apiUrl) origins.push(new URL(apiUrl).origin);
  return { formAction: origins };
}
