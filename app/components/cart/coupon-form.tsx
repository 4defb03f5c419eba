import { Form } from "react-router";
import type { CartView } from "../../domain/cart/cart-types.ts";

/** Apply a coupon code, or show the applied one with Remove; a code that stopped applying says why. */
export function CouponForm({ cart }: { cart: Pick<CartView, "coupon" | "couponProblem"> }) {
  if (cart.coupon) {
    return (
      <Form method="post" action="/cart" preventScrollReset className="mt-6">
        <input type="hidden" name="intent" value="remove-coupon" />
        <p className="text-sm text-gray-800" data-testid="applied-coupon">
          Coupon <strong>{cart.coupon.code}</strong> applied.
        </p>
        <button
          type="submit"
          className="mt-2 rounded-lg border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold text-gray-800 hover:bg-gray-100"
        >
          Remove coupon
        </button>
      </Form>
    );
  }
  return (
    <Form method="post" action="/cart" preventScrollReset className="mt-6">
      <input type="hidden" name="intent" value="apply-coupon" />
      <label htmlFor="coupon-code" className="block text-sm font-medium text-gray-800">
        Coupon code
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="coupon-code"
          name="code"
          type="text"
          autoComplete="off"
          maxLength={64}
          required
          defaultValue={cart.couponProblem?.code}
          aria-describedby={cart.couponProblem ? "coupon-problem" : undefined}
          className="min-w-0 flex-1 rounded-lg border border-gray-400 bg-white px-3 py-2 text-sm"
        />
        <button
          type="submit"
          className="rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
        >
          Apply
        </button>
      </div>
      {cart.couponProblem && (
        <p id="coupon-problem" className="mt-2 text-sm text-red-800">
          {cart.couponProblem.code}: {cart.couponProblem.message}
        </p>
      )}
    </Form>
  );
}
