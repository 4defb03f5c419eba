import { ShoppingBag, ShoppingCart } from "lucide-react";
import { Form } from "react-router";
import { WishlistButton } from "../wishlist-button.tsx";
import { QuantityStepper } from "./quantity-stepper.tsx";

/**
 * Add to Cart / Buy Now post to the cart's action (intent add | buy-now, with the quantity);
 * Add to Wishlist posts to /account/wishlist (see WishlistButton).
 */
export function PurchaseForm({
  productId,
  variantId,
  productName,
  stock,
  redirectTo,
  giftCard = false,
}: {
  productId: number;
  /** the variant chosen (the product's only one when it has no options) */
  variantId: number | null;
  productName: string;
  stock: number;
  redirectTo: string;
  /** a gift card: who it goes to, delivered by e-mail (empty: the buyer) */
  giftCard?: boolean;
}) {
  const outOfStock = stock <= 0;
  return (
    <div className="flex flex-col gap-4">
      <Form method="post" action="/cart" className="flex flex-col gap-4">
        <input type="hidden" name="productId" value={productId} />
        {variantId !== null && <input type="hidden" name="variantId" value={variantId} />}
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {/* keyed by the variant: a new choice starts again at 1, bounded by its stock */}
        <QuantityStepper key={variantId ?? 0} id="product-quantity" max={stock} disabled={outOfStock} />
        {giftCard && (
          <fieldset className="flex flex-col gap-3 rounded-lg border border-gray-300 p-4">
            <legend className="px-1 font-semibold">Who is it for?</legend>
            <p className="text-sm text-gray-700">
              We e-mail the gift card's code once the order is paid — to the recipient, or to you when you
              leave their e-mail address empty. No shipping.
            </p>
            {(
              [
                ["recipientEmail", "Recipient's e-mail", "email", 254],
                ["recipientName", "Recipient's name", "text", 100],
              ] as const
            ).map(([name, label, type, maxLength]) => (
              <label key={name} className="flex flex-col gap-1 text-sm font-semibold text-gray-900">
                {label}
                <input
                  type={type}
                  name={name}
                  maxLength={maxLength}
                  autoComplete="off"
                  className="rounded-lg border border-gray-400 px-3 py-2 font-normal"
                />
              </label>
            ))}
            <label className="flex flex-col gap-1 text-sm font-semibold text-gray-900">
              Message
              <textarea
                name="giftMessage"
                maxLength={500}
                rows={3}
                className="rounded-lg border border-gray-400 px-3 py-2 font-normal"
              />
            </label>
          </fieldset>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <button
            type="submit"
            name="intent"
            value="add"
            disabled={outOfStock}
            className="flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white shadow-sm hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-600 disabled:shadow-none"
          >
            <ShoppingCart aria-hidden="true" className="size-5" />
            Add to Cart
          </button>
          <button
            type="submit"
            name="intent"
            value="buy-now"
            disabled={outOfStock}
            className="flex items-center justify-center gap-2 rounded-lg bg-gray-900 px-6 py-3 font-semibold text-white shadow-sm hover:bg-black disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-600 disabled:shadow-none"
          >
            <ShoppingBag aria-hidden="true" className="size-5" />
            Buy Now
          </button>
        </div>
      </Form>
      <WishlistButton productId={productId} productName={productName} variant="full" />
    </div>
  );
}
