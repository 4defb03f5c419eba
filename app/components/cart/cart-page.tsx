import { ShoppingCart } from "lucide-react";
import { Form, Link } from "react-router";
import type { CartView } from "../../domain/cart/cart-types.ts";
import { CartLineItem } from "./cart-line-item.tsx";
import { OrderSummary } from "./order-summary.tsx";

/** /cart: the lines with their steppers, the order summary, or the empty state. */
export function CartPage({ cart, error }: { cart: CartView; error: string | null }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Shopping Cart</h1>
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800"
        >
          {error}
        </p>
      )}
      {cart.lines.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="mt-8 grid grid-cols-1 items-start gap-8 lg:grid-cols-3">
          <section aria-labelledby="cart-items-heading" className="lg:col-span-2">
            <h2 id="cart-items-heading" className="sr-only">
              Items in your cart
            </h2>
            <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200 bg-white">
              {cart.lines.map((line) => (
                <CartLineItem key={line.variantId} line={line} />
              ))}
            </ul>
            <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
              <Link
                to="/products"
                className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
              >
                Continue Shopping
              </Link>
              <Form method="post" action="/cart" preventScrollReset>
                <input type="hidden" name="intent" value="clear" />
                <button
                  type="submit"
                  className="rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
                >
                  Clear Cart
                </button>
              </Form>
            </div>
          </section>
          <OrderSummary cart={cart} />
        </div>
      )}
    </div>
  );
}

function EmptyCart() {
  return (
    <section aria-labelledby="empty-cart-heading" className="mx-auto max-w-md py-16 text-center">
      <ShoppingCart aria-hidden="true" className="mx-auto size-16 text-gray-400" />
      <h2 id="empty-cart-heading" className="mt-4 text-2xl font-bold">
        Your cart is empty
      </h2>
      <p className="mt-2 text-gray-700">Looks like you haven't added anything yet.</p>
      <Link
        to="/products"
        className="mt-6 inline-block rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Start Shopping
      </Link>
    </section>
  );
}
