import { Link } from "react-router";
import type { CartView } from "../../domain/cart/cart-types.ts";
import { taxRows } from "../../lib/markets.ts";
import { TaxName } from "../order/order-lines.tsx";
import { useMoney } from "../shop-settings.ts";
import { CouponForm } from "./coupon-form.tsx";
import { EstimateForm } from "./estimate-form.tsx";

const PAYMENT_LABELS = ["Visa", "MasterCard", "American Express", "PayPal"] as const;

/**
 * Subtotal, shipping, tax and total, all computed on the server from today's prices, estimated for
 * the cart's destination (the shop's home country until the shopper picks another).
 */
export function OrderSummary({ cart }: { cart: CartView }) {
  const money = useMoney();
  const { subtotalCents, discountCents, shippingCents, totalCents } = cart.totals;
  // the coupon's part of the discount: what the promotions beside it did not take
  const promotionCents = cart.promotions
    .filter((promotion) => promotion.kind !== "shipping")
    .reduce((sum, promotion) => sum + promotion.amountCents, 0);
  const couponCents = discountCents - promotionCents;
  const shippingPromotions = cart.promotions.filter((promotion) => promotion.kind === "shipping");
  const { freeShippingThresholdCents, methodName } = cart.estimate;
  const toFreeShipping = freeShippingThresholdCents === null ? 0 : freeShippingThresholdCents - subtotalCents;
  return (
    <section
      aria-labelledby="order-summary-heading"
      className="rounded-xl border border-gray-200 bg-gray-50 p-6 lg:sticky lg:top-36"
    >
      <h2 id="order-summary-heading" className="text-xl font-bold">
        Order Summary
      </h2>
      <dl className="mt-4 space-y-3 text-sm" data-testid="order-summary">
        <div className="flex justify-between gap-4">
          <dt>
            Subtotal ({cart.totalQuantity} {cart.totalQuantity === 1 ? "item" : "items"})
          </dt>
          <dd data-testid="summary-subtotal">{money(subtotalCents)}</dd>
        </div>
        {cart.coupon && (
          <div className="flex justify-between gap-4 text-green-800">
            <dt>Discount ({cart.coupon.label})</dt>
            <dd data-testid="summary-discount">−{money(couponCents)}</dd>
          </div>
        )}
        {cart.promotions
          .filter((promotion) => promotion.kind !== "shipping")
          .map((promotion) => (
            <div key={promotion.name} className="flex justify-between gap-4 text-green-800">
              <dt>{promotion.name}</dt>
              <dd data-testid="summary-promotion">−{money(promotion.amountCents)}</dd>
            </div>
          ))}
        <div className="flex justify-between gap-4">
          <dt>
            Shipping
            {shippingPromotions.length > 0 &&
              ` (${shippingPromotions.map((promotion) => promotion.name).join(", ")})`}
          </dt>
          <dd data-testid="summary-shipping">
            {methodName === null ? "Not available" : shippingCents === 0 ? "Free" : money(shippingCents)}
          </dd>
        </div>
        {taxRows(cart.totals).map((tax, index, rows) => (
          <div key={tax.label} className="flex justify-between gap-4">
            <dt>
              <TaxName label={tax.label} />
            </dt>
            <dd data-testid={rows.length === 1 ? "summary-tax" : `summary-tax-${index}`}>
              {money(tax.taxCents)}
            </dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-gray-300 pt-3 text-base font-bold">
          <dt>Total</dt>
          <dd data-testid="summary-total">{money(totalCents)}</dd>
        </div>
      </dl>
      {freeShippingThresholdCents !== null && toFreeShipping > 0 && subtotalCents > 0 && (
        <p className="mt-3 text-sm text-gray-700">
          Add {money(toFreeShipping)} more for free shipping on orders over{" "}
          {money(freeShippingThresholdCents)}.
        </p>
      )}
      {cart.hints.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm font-medium text-green-900" data-testid="promotion-hints">
          {cart.hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      )}
      <EstimateForm estimate={cart.estimate} />

      <CouponForm cart={cart} />

      {cart.totalQuantity > 0 ? (
        <Link
          to="/checkout"
          className="mt-6 block rounded-lg bg-brand-700 px-6 py-3 text-center font-semibold text-white hover:bg-brand-800"
        >
          Proceed to Checkout
        </Link>
      ) : (
        <p className="mt-6 text-sm text-gray-700">Remove the unavailable items to check out.</p>
      )}

      <div className="mt-6">
        <p className="text-sm font-medium text-gray-800" id="payment-methods-label">
          We accept
        </p>
        <ul aria-labelledby="payment-methods-label" className="mt-2 flex flex-wrap gap-2">
          {PAYMENT_LABELS.map((label) => (
            <li
              key={label}
              className="rounded border border-gray-300 bg-white px-2 py-1 text-xs font-semibold text-gray-800"
            >
              {label}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
