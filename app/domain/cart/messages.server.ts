import { countryName, regionName } from "../../lib/countries.ts";
import type { Toast } from "../../lib/toast.ts";
import type { AddToCartResult } from "./add-item.server.ts";
import type { UpdateCartItemResult } from "./update-item.server.ts";

export type CartToast = Omit<Toast, "id">;

/** Every text the cart shows after an action (spec §8 wording where the spec has one). */
export const CART_MESSAGES = {
  added: (name: string, quantity: number) =>
    quantity > 1 ? `${quantity} x ${name} added to cart!` : `${name} added to cart!`,
  capped: (name: string, stock: number) => `Only ${stock} of ${name} available — your cart has the maximum.`,
  updated: (name: string, quantity: number) => `${name}: quantity updated to ${quantity}.`,
  removed: "Item removed from cart",
  cleared: "Cart cleared",
  unavailable: "This product is no longer available.",
  chooseVariant: (name: string) => `Please choose the options of ${name} first.`,
  outOfStock: (name: string) => `Sorry, ${name} is out of stock.`,
  notInCart: "That item is no longer in your cart.",
  invalidQuantity: "Please enter a quantity between 1 and 999.",
  invalidRecipient:
    "Enter a valid e-mail address for the gift card's recipient, or leave it empty to receive it yourself.",
  invalidRequest: "Sorry, we could not update your cart. Please try again.",
  couponNeedsItems: "Add something to your cart before applying a coupon.",
  estimateNeedsItems: "Add something to your cart to estimate its shipping and tax.",
  estimateFor: ({ country, region }: { country: string; region: string }) =>
    `Shipping and tax are now estimated for ${region ? `${regionName(country, region)}, ` : ""}${countryName(country)}.`,
} as const;

/** The toast after an add; `requested` is the quantity the shopper asked to add. */
export function addToCartToast(result: AddToCartResult, requested: number): CartToast {
  if (result.ok) {
    const line = result.value;
    return line.outcome === "added"
      ? { type: "success", message: CART_MESSAGES.added(line.name, requested) }
      : { type: "warning", message: CART_MESSAGES.capped(line.name, line.stock) };
  }
  const error = result.error;
  switch (error.code) {
    case "out-of-stock":
      return { type: "error", message: CART_MESSAGES.outOfStock(error.name) };
    case "unavailable":
      return { type: "error", message: CART_MESSAGES.unavailable };
    case "choose-variant":
      return { type: "info", message: CART_MESSAGES.chooseVariant(error.name) };
  }
}

export function updateCartItemToast(result: UpdateCartItemResult): CartToast {
  if (result.ok) {
    const line = result.value;
    switch (line.outcome) {
      case "updated":
        return { type: "success", message: CART_MESSAGES.updated(line.name, line.quantity) };
      case "removed":
        return { type: "success", message: CART_MESSAGES.removed };
      case "capped":
        return { type: "warning", message: CART_MESSAGES.capped(line.name, line.stock) };
    }
  }
  const error = result.error;
  switch (error.code) {
    case "out-of-stock":
      return { type: "error", message: CART_MESSAGES.outOfStock(error.name) };
    case "unavailable":
      return { type: "error", message: CART_MESSAGES.unavailable };
    case "not-in-cart":
      return { type: "error", message: CART_MESSAGES.notInCart };
  }
}
