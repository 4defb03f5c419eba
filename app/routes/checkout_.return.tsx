import { redirect } from "react-router";
import { mailShopFrom, servicesFrom } from "../context.ts";
import { findCartId } from "../domain/cart/cart-owner.server.ts";
import {
  type CheckoutState,
  readCheckoutProgress,
  saveCheckoutProgress,
} from "../domain/checkout/checkout-progress.server.ts";
import { returnFromProvider } from "../domain/checkout/provider-payment.server.ts";
import { cartOwnerFor } from "../http/cart-session.server.ts";
import { isProviderCancelToken } from "../http/checkout-session.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import type { Route } from "./+types/checkout_.return";

/**
 * GET /checkout/return: where the payment provider sends the shopper back — after 3-D Secure, from
 * its hosted page paid, or from there given up (`?cancelled=<value signed for this checkout>`). The
 * order settled is the one of the shopper's own checkout in progress (provider-payment.server.ts),
 * from what the provider says of it; the address decides nothing else, and giving the payment up
 * needs the signed value (a plain `?cancelled=1` from anywhere is an ordinary return). Always
 * answers with a redirect: the confirmation, the payment step with the reason, or the cart.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesFrom(context);
  const { db } = services;
  const user = await getSessionUser(request, context);
  const cartId = await findCartId(db, await cartOwnerFor(request, context, user));
  const state: CheckoutState = cartId ? (await readCheckoutProgress(db, cartId)).state : {};
  const cancelled = isProviderCancelToken(
    new URL(request.url).searchParams.get("cancelled"),
    state.idempotencyKey,
  );
  const outcome = await returnFromProvider(
    state,
    { cancelled },
    {
      db,
      gateway: services.gateway,
      mailer: services.mail,
      shop: await mailShopFrom(context),
      cartId,
    },
  );
  if (cartId && (outcome.state !== state || outcome.feedback)) {
    await saveCheckoutProgress(db, cartId, outcome.state, outcome.feedback ?? null);
  }
  const headers = outcome.toast ? await createToastHeaders(outcome.toast) : new Headers();
  headers.set("Cache-Control", "private, no-store");
  throw redirect(outcome.to, { headers });
}
