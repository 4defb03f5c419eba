import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { CartView } from "../../domain/cart/cart-types.ts";
import { OrderSummary } from "./order-summary.tsx";

/** Server-rendered inside a data router (the summary holds forms), as a visitor without JavaScript gets it. */
function render(cart: CartView): string {
  const Stub = createRoutesStub([{ path: "/cart", Component: () => <OrderSummary cart={cart} /> }]);
  // without React's markers between adjacent text nodes
  return renderToString(<Stub initialEntries={["/cart"]} />).replaceAll("<!-- -->", "");
}

const CART: CartView = {
  lines: [],
  coupon: { code: "WELCOME10", label: "WELCOME10 (10% off)", discountCents: 500 },
  couponProblem: null,
  totalQuantity: 3,
  totals: {
    subtotalCents: 6_000,
    // the coupon's $5.00 and the promotion's $10.00
    discountCents: 1_500,
    shippingCents: 0,
    taxCents: 315,
    totalCents: 4_815,
    taxIncluded: false,
    taxLabel: "Sales tax",
    taxLines: [{ label: "Sales tax", basisPoints: 700, taxCents: 315 }],
  },
  estimate: { country: "US", region: "", methodName: "Standard", freeShippingThresholdCents: null },
  offers: null,
  promotions: [
    { name: "Buy 2, get 1 free", kind: "product", amountCents: 1_000 },
    { name: "Free shipping weekend", kind: "shipping", amountCents: 499 },
  ],
  hints: ["Add 1 more Classic Tee to get 1 free.", "Free shipping from $50.00: $12.01 to go."],
};

describe("OrderSummary with promotions", () => {
  it("names each promotion beside its amount, and the coupon with its own part only", () => {
    const html = render(CART);
    expect(html).toMatch(
      /<dt>Discount \(WELCOME10 \(10% off\)\)<\/dt><dd data-testid="summary-discount">−\$5\.00<\/dd>/,
    );
    expect(html).toMatch(/<dt>Buy 2, get 1 free<\/dt><dd data-testid="summary-promotion">−\$10\.00<\/dd>/);
    // a shipping promotion shows as free shipping, named, not as a second discount
    expect(html).toContain("Shipping (Free shipping weekend)");
    expect(html).not.toContain("−$4.99");
    expect(html).toContain("$48.15");
  });

  it("lists what is within reach, each in its own sentence", () => {
    const html = render(CART);
    expect(html).toContain(
      '<ul class="mt-3 space-y-1 text-sm font-medium text-green-900" data-testid="promotion-hints"><li>Add 1 more Classic Tee to get 1 free.</li><li>Free shipping from $50.00: $12.01 to go.</li></ul>',
    );
    expect(render({ ...CART, hints: [] })).not.toContain("promotion-hints");
  });

  it("shows no promotion rows for a cart without any (the spec's summary)", () => {
    const html = render({
      ...CART,
      coupon: null,
      promotions: [],
      hints: [],
      totals: { ...CART.totals, discountCents: 0 },
    });
    expect(html).not.toContain("summary-promotion");
    expect(html).not.toContain("summary-discount");
  });
});
