import { data, redirect } from "react-router";
import { CartPage } from "../components/cart/cart-page.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { addToCart } from "../domain/cart/add-item.server.ts";
import { cartActionSchema, cartRefusalMessage } from "../domain/cart/cart-action.server.ts";
import { applyCodeToCart, removeCodeFromCart } from "../domain/cart/cart-code.server.ts";
import { findCartId, openCart } from "../domain/cart/cart-owner.server.ts";
import { chooseCartEstimate, emptyCart, getCart } from "../domain/cart/get-cart.server.ts";
import {
  addToCartToast,
  CART_MESSAGES,
  type CartToast,
  updateCartItemToast,
} from "../domain/cart/messages.server.ts";
import { clearCart, removeCartItem, updateCartItem } from "../domain/cart/update-item.server.ts";
import { COUPON_MESSAGES, normalizeCouponCode } from "../domain/coupons/coupon-rules.ts";
import { cartOwnerFor, serializeCartCookie } from "../http/cart-session.server.ts";
import { parseForm } from "../http/form.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { fail } from "../lib/result.ts";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/cart";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Shopping Cart",
      description: "Review the items in your cart, adjust quantities and proceed to checkout.",
      path: "/cart",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = servicesFrom(context);
  const user = await getSessionUser(request, context);
  const cartId = await findCartId(db, await cartOwnerFor(request, context, user));
  const shop = await shopSettingsFrom(context);
  // a signed-in shopper's terms (signed-in, first-order, their uses) as the checkout will price them
  const shopper = user ? { userId: user.id, email: user.email } : {};
  return { cart: cartId ? await getCart(db, cartId, shop, shopper) : emptyCart(shop) };
}

/**
 * POST /cart: add, buy-now, update, remove, clear, apply-coupon, remove-coupon, estimate (where
 * shipping and tax are estimated for); POST → redirect → toast.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, cartActionSchema, { disableAutoCoercion: true });
  if (submission.status !== "success") {
    const message = cartRefusalMessage(submission.error);
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 400 });
  }
  const input = submission.value;
  const backTo = (fallback: string) => safeRedirectPath(input.redirectTo, fallback);
  const { db } = servicesFrom(context);
  const owner = await cartOwnerFor(request, context);
  // the signed-in shopper's cart is the account's; a guest's is the cookie's (cart-owner.server.ts)
  const existingCartId = () => findCartId(db, owner);

  switch (input.intent) {
    case "add":
    case "buy-now": {
      const cartId = await openCart(db, owner);
      const result = await addToCart(db, {
        cartId,
        productId: input.productId,
        variantId: input.variantId,
        quantity: input.quantity,
        recipient: { email: input.recipientEmail, name: input.recipientName, message: input.giftMessage },
      });
      const inCart = result.ok;
      const to =
        input.intent === "buy-now" && inCart
          ? "/checkout"
          : !result.ok && result.error.code === "choose-variant"
            ? `/products/${result.error.slug}`
            : backTo(
                safeRedirectPath(refererPath(request, servicesFrom(context).config.PUBLIC_URL), "/cart"),
              );
      // a guest's cookie (re)starts its 30 days with every add; an account needs none
      const guestCartId = owner.userId === null && inCart ? cartId : null;
      return redirectWithCart(to, addToCartToast(result, input.quantity), guestCartId);
    }
    case "update": {
      const cartId = await existingCartId();
      const result = cartId
        ? await updateCartItem(db, {
            cartId,
            productId: input.productId,
            variantId: input.variantId,
            quantity: input.quantity,
          })
        : fail({ code: "not-in-cart" as const });
      return redirectWithCart(backTo("/cart"), updateCartItemToast(result));
    }
    case "remove": {
      const cartId = await existingCartId();
      if (cartId) {
        await removeCartItem(db, { cartId, productId: input.productId, variantId: input.variantId });
      }
      return redirectWithCart(backTo("/cart"), { type: "success", message: CART_MESSAGES.removed });
    }
    case "clear": {
      const cartId = await existingCartId();
      if (cartId) await clearCart(db, cartId);
      return redirectWithCart(backTo("/cart"), { type: "success", message: CART_MESSAGES.cleared });
    }
    case "apply-coupon": {
      const code = normalizeCouponCode(input.code);
      if (code === "")
        return redirectWithCart(backTo("/cart"), { type: "error", message: COUPON_MESSAGES.missing });
      const cartId = await existingCartId();
      const shop = await shopSettingsFrom(context);
      const user = await getSessionUser(request, context);
      const shopper = user ? { userId: user.id, email: user.email } : {};
      const cart = cartId ? await getCart(db, cartId, shop, shopper) : emptyCart(shop);
      if (!cartId || cart.totalQuantity === 0) {
        return redirectWithCart(backTo("/cart"), { type: "error", message: CART_MESSAGES.couponNeedsItems });
      }
      const result = await applyCodeToCart(db, { cartId, code, shop, shopper });
      return redirectWithCart(
        backTo("/cart"),
        result.ok
          ? { type: "success", message: COUPON_MESSAGES.applied(result.value.code) }
          : { type: "error", message: result.error.message },
      );
    }
    case "remove-coupon": {
      const cartId = await existingCartId();
      if (cartId) await removeCodeFromCart(db, cartId);
      return redirectWithCart(backTo("/cart"), { type: "success", message: COUPON_MESSAGES.removed });
    }
    case "estimate": {
      const cartId = await existingCartId();
      if (!cartId) {
        return redirectWithCart(backTo("/cart"), {
          type: "error",
          message: CART_MESSAGES.estimateNeedsItems,
        });
      }
      const { markets } = await shopSettingsFrom(context);
      const chosen = await chooseCartEstimate(db, cartId, markets, {
        country: input.country,
        region: input.region,
      });
      return redirectWithCart(
        backTo("/cart"),
        chosen.ok
          ? { type: "success", message: CART_MESSAGES.estimateFor(chosen.value) }
          : { type: "error", message: chosen.error.message },
      );
    }
  }
}

/** Redirect with a toast, and (after a guest's successful add) the cart cookie, restarting its 30 days. */
async function redirectWithCart(to: string, toast: CartToast, cartId: string | null = null) {
  const headers = await createToastHeaders(toast);
  if (cartId) headers.append("Set-Cookie", await serializeCartCookie(cartId));
  return redirect(to, { headers });
}

/** The page the form was posted from, when it is this site; null otherwise. */
function refererPath(request: Request, publicUrl: string): string | null {
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  try {
    const url = new URL(referer);
    const origins = [new URL(request.url).origin, new URL(publicUrl).origin];
    return origins.includes(url.origin) ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
  return <CartPage cart={loaderData.cart} error={actionData?.result.error?.[""]?.[0] ?? null} />;
}
