import { useState } from "react";
import { data, redirect } from "react-router";
import { CheckoutProgress } from "../components/checkout/checkout-progress.tsx";
import { CheckoutSummary } from "../components/checkout/checkout-summary.tsx";
import { ConfirmationStep } from "../components/checkout/confirmation-step.tsx";
import { GiftCardsPanel } from "../components/checkout/gift-cards-panel.tsx";
import { PaymentStep } from "../components/checkout/payment-step.tsx";
import { ProviderPaymentStep } from "../components/checkout/provider-payment-step.tsx";
import { ReviewStep } from "../components/checkout/review-step.tsx";
import { ShippingStep } from "../components/checkout/shipping-step.tsx";
import { mailShopFrom, servicesFrom, shopSettingsFrom } from "../context.ts";
import { findDefaultAddress } from "../domain/accounts/account-overview.server.ts";
import { findCartId } from "../domain/cart/cart-owner.server.ts";
import { discountLabel, priceCart, pricingLines, totalsFor } from "../domain/cart/cart-pricing.ts";
import { emptyCart, getCart } from "../domain/cart/get-cart.server.ts";
import { checkoutActionSchema, postedText } from "../domain/checkout/checkout-form.server.ts";
import {
  clearCheckoutFeedback,
  readCheckoutProgress,
  saveCheckoutProgress,
} from "../domain/checkout/checkout-progress.server.ts";
import {
  applyGiftCardCode,
  applyStoreCredit,
  CHECKOUT_MESSAGES,
  type CheckoutStep,
  refusePayment,
  refuseShipping,
  removeGiftCard,
  type StepOutcome,
  stepPath,
  submitGiftCardPayment,
  submitPayment,
  submitPlaceOrder,
  submitShipping,
} from "../domain/checkout/checkout-steps.server.ts";
import { paymentDetails } from "../domain/checkout/payment-schema.server.ts";
import { submitProviderPayment } from "../domain/checkout/provider-payment.server.ts";
import { parseShippingMethod, SHIPPING_FIELDS } from "../domain/checkout/shipping-form.ts";
import { GIFT_CARD_CHECK_LIMIT, GIFT_CARD_CHECK_MESSAGES } from "../domain/gift-cards/gift-card-form.ts";
import { giftCardGoodsCents, planGiftCards, tenderName } from "../domain/gift-cards/gift-card-plan.ts";
import { storeCreditOf, usableTenders } from "../domain/gift-cards/gift-card-spending.server.ts";
import { getOrderByNumber } from "../domain/orders/orders.server.ts";
import { GIFT_CARD_PAYMENT, HOSTED_PAYMENT, type ProviderReturn } from "../domain/payments/charges.server.ts";
import { cartOwnerFor } from "../http/cart-session.server.ts";
import { clearLegacyCheckoutCookie, providerCancelToken } from "../http/checkout-session.server.ts";
import {
  contentSecurityPolicy,
  STRIPE_ELEMENT_SOURCES,
  stripeRedirectSources,
} from "../http/content-security.server.ts";
import { parseForm } from "../http/form.server.ts";
import { getSessionUser, type SessionUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { COUNTRY_OPTION_VALUES } from "../lib/countries.ts";
import { refusalOf } from "../lib/form-errors.ts";
import { deliveryDays } from "../lib/markets.ts";
import { PAYMENT_FIELDS } from "../lib/payment-card.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/checkout";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Checkout",
      description: "Enter your shipping and payment details and place your order.",
      path: "/checkout",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // the payment provider's origins, opened on the steps that use them
  const policy = loaderHeaders.get("Content-Security-Policy");
  if (policy) headers.set("Content-Security-Policy", policy);
  return headers;
}

/**
 * With a provider that takes cards in the browser, the checkout's document opens the provider's
 * origins in its Content-Security-Policy: Stripe.js, its frames and API for the payment step, its
 * 3-D Secure and hosted pages for Place Order's redirect. A policy comes with its document, so the
 * whole checkout carries it, and a visit from another page of the shop is a document load
 * (clientLoader) rather than a client-side navigation.
 */
function providerPolicy(nonce: string, apiUrl: string | undefined): string | null {
  if (!nonce) return null; // no CSP at all (the development server)
  return contentSecurityPolicy(nonce, { ...STRIPE_ELEMENT_SOURCES, ...stripeRedirectSources(apiUrl) });
}

const STEPS: readonly CheckoutStep[] = ["shipping", "payment", "review", "confirmation"];
const parseStep = (value: string | null): CheckoutStep => STEPS.find((step) => step === value) ?? "shipping";

/** Into the checkout from elsewhere with Stripe: a document load, so its policy comes along. */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  if (document.body.dataset.paymentProvider === "stripe" && window.location.pathname !== "/checkout") {
    window.location.assign(request.url);
    return new Promise<never>(() => {});
  }
  return serverLoader();
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const step = parseStep(new URL(request.url).searchParams.get("step"));
  const { db, gateway, config } = servicesFrom(context);
  const provider = gateway.browser ? { publishableKey: gateway.browser.publishableKey } : null;
  const user = await getSessionUser(request, context);
  // the checkout in progress is the cart's (decision 012): the account's, or the guest cookie's
  const cartId = await findCartId(db, await cartOwnerFor(request, context, user));
  const { state, feedback } = cartId ? await readCheckoutProgress(db, cartId) : { state: {}, feedback: null };
  if (cartId && feedback) await clearCheckoutFeedback(db, cartId);
  const headers = new Headers();
  const legacy = clearLegacyCheckoutCookie(request);
  if (legacy) headers.append("Set-Cookie", legacy);
  const policy = provider && providerPolicy(context.get(requestInfoContext).nonce, config.STRIPE_API_URL);
  if (policy) headers.set("Content-Security-Policy", policy);

  if (step === "confirmation") {
    const order = state.placedOrder ? await getOrderByNumber(db, state.placedOrder) : null;
    if (!order) throw redirect("/cart", { headers });
    return data(
      {
        step,
        order: {
          number: order.number,
          email: order.email,
          estimatedDelivery: order.estimatedDelivery,
          shippingMethodName: order.shippingMethodName,
          couponCode: order.couponCode,
          totals: order.totals,
          lines: order.items.map((item) => ({
            productId: item.productId,
            name: item.name,
            variantTitle: item.variantTitle,
            sku: item.sku,
            quantity: item.quantity,
            lineTotalCents: item.lineTotalCents,
          })),
        },
      } as const,
      { headers },
    );
  }

  const shop = await shopSettingsFrom(context);
  // priced for who is buying (first-order, signed-in and per-customer terms), as Place Order will
  const shopper = { userId: user?.id ?? null, email: state.shipping?.email ?? user?.email ?? null };
  const cart = cartId ? await getCart(db, cartId, shop, shopper) : emptyCart(shop);
  if (cart.totalQuantity === 0) throw redirect("/cart", { headers });
  if (step !== "shipping" && !state.shipping) throw redirect(stepPath("shipping"), { headers });
  if (step === "review" && (!state.payment || !state.idempotencyKey))
    throw redirect(stepPath("payment"), { headers });

  const shipping =
    state.shipping ??
    (step === "shipping" ? prefillFromAccount(user, user && (await findDefaultAddress(db, user.id))) : null);
  // priced for the address (the one typed before, else the cart's estimate) and the method chosen
  const destination = {
    country: feedback?.values.country || shipping?.country || cart.estimate.country,
    region: feedback?.values.state || shipping?.state || cart.estimate.region,
  };
  const pricingInput = {
    lines: cart.lines,
    destination,
    methodCode: state.method,
    offers: cart.offers,
  };
  const priced = priceCart(shop.markets, pricingInput);
  const chosen = priced.ok ? priced.shipping : null;
  const lines = cart.lines
    .filter((line) => line.quantity > 0)
    .map((line) => ({
      productId: line.productId,
      name: line.name,
      variantTitle: line.variantTitle,
      sku: line.sku,
      quantity: line.quantity,
      lineTotalCents: line.lineTotalCents,
    }));
  const totals = totalsFor(priced, pricingInput, "");
  // what the applied gift cards and store credit pay, by their balances now (Place Order takes them)
  const tenders =
    step !== "shipping" && state.giftCards?.length
      ? await usableTenders(db, state.giftCards, {
          userId: user?.id ?? null,
          currency: shop.currency,
          now: new Date(),
        })
      : [];
  const plan = planGiftCards(tenders, totals.totalCents, giftCardGoodsCents(cart.lines));
  const credit = user && step === "payment" ? await storeCreditOf(db, user.id, shop.currency) : null;
  const payment = state.payment
    ? {
        brand: state.payment.brand,
        last4: state.payment.last4,
        expiry: state.payment.expiry,
        cardName: state.payment.cardName,
        hosted: state.payment.token === HOSTED_PAYMENT,
        giftCards: state.payment.token === GIFT_CARD_PAYMENT,
      }
    : null;
  return data(
    {
      step,
      lines,
      method: chosen
        ? { code: chosen.method.code, name: chosen.method.name, days: deliveryDays(chosen.method) }
        : null,
      totals,
      giftCards: {
        applied: tenders.map((card) => ({
          id: card.id,
          name: tenderName(card),
          balanceCents: card.balanceCents,
          amountCents: plan.takes.find((take) => take.id === card.id)?.amountCents ?? 0,
        })),
        giftCardCents: plan.giftCardCents,
        restCents: plan.restCents,
        /** the account's store credit, when it has some and it is not applied yet */
        storeCreditCents:
          credit && !tenders.some((card) => card.id === credit.id) ? credit.balanceCents : null,
      },
      // what the discount is made of: the coupon and the promotions that took from the lines or the order
      discountLabel: discountLabel(cart.coupon, priced.promotions),
      shipping,
      /** the country an address starts at: where the cart was estimated for */
      defaultCountry: COUNTRY_OPTION_VALUES[cart.estimate.country] ?? cart.estimate.country,
      /** what the shipping step prices in the browser as the shopper types (the same rules) */
      pricing:
        step === "shipping"
          ? {
              markets: shop.markets,
              lines: pricingLines(cart.lines),
              offers: cart.offers,
            }
          : null,
      values: feedback?.values ?? {},
      fieldErrors: feedback?.fieldErrors ?? {},
      card: payment,
      idempotencyKey: state.idempotencyKey ?? null,
      provider,
    } as const,
    { headers },
  );
}

/** POST /checkout: one intent per step; every answer is a redirect (works without JavaScript). */
export async function action({ request, context }: Route.ActionArgs) {
  const services = servicesFrom(context);
  const submission = await parseForm(
    request,
    checkoutActionSchema({ provider: services.gateway.browser !== null }),
  );
  const { db } = services;
  const user = await getSessionUser(request, context);
  const cartId = await findCartId(db, await cartOwnerFor(request, context, user));
  const headers = new Headers();
  const legacy = clearLegacyCheckoutCookie(request);
  if (legacy) headers.append("Set-Cookie", legacy);
  if (!cartId)
    return redirectWithToast("/cart", { type: "error", message: CHECKOUT_MESSAGES.emptyCart }, headers);
  const { state } = await readCheckoutProgress(db, cartId);

  let outcome: StepOutcome;
  if (submission.status !== "success") {
    // a refused step goes back to itself with its messages (and an unknown intent to the start)
    const { payload } = submission;
    const values = postedText(payload);
    if (payload.intent === "shipping") {
      const refusal = refusalOf(SHIPPING_FIELDS, payload, submission.error);
      const method = parseShippingMethod(payload.shippingMethod);
      outcome = refuseShipping(state, { method, refusal: { ...refusal, values } });
    } else if (payload.intent === "payment") {
      outcome = refusePayment(state, { ...refusalOf(PAYMENT_FIELDS, payload, submission.error), values });
    } else if (typeof payload.intent === "string" && payload.intent.includes("gift-card")) {
      outcome = { to: stepPath(state.shipping ? "payment" : "shipping"), state };
    } else {
      outcome = { to: stepPath("shipping"), state };
    }
  } else {
    const input = submission.value;
    switch (input.intent) {
      case "shipping": {
        const { intent: _intent, shippingMethod: method, ...shipping } = input;
        const shop = await shopSettingsFrom(context);
        const cart = await getCart(db, cartId, shop, { userId: user?.id ?? null, email: shipping.email });
        outcome = submitShipping(state, { shipping, method }, { shop, cart });
        break;
      }
      case "payment":
        outcome =
          "cardNumber" in input
            ? await submitPayment(
                state,
                {
                  card: paymentDetails(input),
                  saveInfo: input.saveInfo,
                  typed: postedText(submission.payload),
                },
                services.gateway,
              )
            : await submitProviderPayment(
                state,
                { paymentMethodId: input.paymentMethodId ?? null },
                services.gateway,
              );
        break;
      case "keep-payment":
        outcome = { to: stepPath(state.payment ? "review" : "payment"), state };
        break;
      case "apply-gift-card": {
        // codes are bearer secrets: an address may try only so many (shared with the balance check)
        const limited = await hitRateLimit(
          db,
          `gift-card-check:${context.get(requestInfoContext).clientIp}`,
          GIFT_CARD_CHECK_LIMIT,
        );
        outcome = limited.allowed
          ? await applyGiftCardCode(db, state, { code: input.giftCardCode })
          : {
              to: stepPath("payment"),
              state,
              toast: {
                type: "error",
                message: GIFT_CARD_CHECK_MESSAGES.tooMany(Math.ceil(limited.retryAfterSeconds / 60)),
              },
            };
        break;
      }
      case "use-store-credit":
        outcome = await applyStoreCredit(db, state, {
          userId: user?.id ?? null,
          currency: (await shopSettingsFrom(context)).currency,
        });
        break;
      case "remove-gift-card":
        outcome = removeGiftCard(state, input);
        break;
      case "pay-with-gift-cards": {
        const shop = await shopSettingsFrom(context);
        const shopper = { userId: user?.id ?? null, email: state.shipping?.email ?? user?.email ?? null };
        const cart = await getCart(db, cartId, shop, shopper);
        const totals = checkoutTotals(shop, cart, state.shipping ?? null, state.method);
        const plan = planGiftCards(
          await usableTenders(db, state.giftCards ?? [], {
            userId: user?.id ?? null,
            currency: shop.currency,
            now: new Date(),
          }),
          totals.totalCents,
          giftCardGoodsCents(cart.lines),
        );
        outcome = submitGiftCardPayment(state, plan);
        break;
      }
      case "back-to-shipping":
        outcome = { to: stepPath("shipping"), state };
        break;
      case "place-order":
        outcome = await submitPlaceOrder(state, input, {
          db,
          gateway: services.gateway,
          mailer: services.mail,
          mailShop: await mailShopFrom(context),
          shop: await shopSettingsFrom(context),
          cartId,
          userId: user?.id ?? null,
          reservationMs: services.config.PAYMENT_RESERVATION_MINUTES * 60_000,
          provider: providerReturn(services.config.PUBLIC_URL, state.idempotencyKey),
        });
        break;
    }
  }

  if (outcome.state !== state || outcome.feedback) {
    await saveCheckoutProgress(db, cartId, outcome.state, outcome.feedback ?? null);
  }
  return redirectWithToast(outcome.to, outcome.toast ?? null, headers);
}

/**
 * Where the provider sends the shopper back (checkout_.return.tsx); giving up there carries a value
 * signed for this checkout (checkout-session.server.ts), so no other link can give up its payment.
 */
function providerReturn(publicUrl: string, checkoutKey: string | undefined): ProviderReturn {
  const back = new URL("/checkout/return", publicUrl).href;
  return {
    returnUrl: back,
    successUrl: `${back}?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${back}?cancelled=${checkoutKey ? providerCancelToken(checkoutKey) : ""}`,
  };
}

async function redirectWithToast(to: string, toast: StepOutcome["toast"] | null, extra: Headers) {
  const headers = toast ? await createToastHeaders(toast) : new Headers();
  for (const cookie of extra.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(to, { headers });
}

export default function Checkout({ loaderData: page }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Checkout</h1>
      <CheckoutProgress current={page.step} />
      <div className="mt-8">
        {page.step === "confirmation" ? (
          <ConfirmationStep order={page.order} />
        ) : (
          <div className="grid items-start gap-8 lg:grid-cols-3">
            {page.step === "shipping" && page.pricing ? (
              <ShippingWithSummary page={page} pricing={page.pricing} />
            ) : (
              <>
                <div className="lg:col-span-2">
                  {page.step === "payment" && (
                    <div className="space-y-6">
                      <GiftCardsPanel
                        giftCards={page.giftCards}
                        value={page.values.giftCardCode}
                        error={page.fieldErrors.giftCardCode}
                      />
                      {/* no card when the gift cards pay it all */}
                      {(page.giftCards.applied.length === 0 || page.giftCards.restCents > 0) &&
                        (page.provider ? (
                          <ProviderPaymentStep
                            publishableKey={page.provider.publishableKey}
                            amountCents={page.giftCards.restCents}
                          />
                        ) : (
                          <PaymentStep
                            values={page.values}
                            fieldErrors={page.fieldErrors}
                            savedCard={page.card?.giftCards ? null : page.card}
                          />
                        ))}
                    </div>
                  )}
                  {page.step === "review" &&
                    page.shipping &&
                    page.card &&
                    page.idempotencyKey &&
                    page.method && (
                      <ReviewStep
                        lines={page.lines}
                        totals={page.totals}
                        discountLabel={page.discountLabel}
                        shipping={page.shipping}
                        method={page.method}
                        card={page.card}
                        idempotencyKey={page.idempotencyKey}
                        giftCards={page.giftCards}
                      />
                    )}
                </div>
                {page.step !== "review" && (
                  <CheckoutSummary
                    lines={page.lines}
                    totals={page.totals}
                    discountLabel={page.discountLabel}
                    giftCards={page.giftCards}
                  />
                )}
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

type StepPage = Exclude<Route.ComponentProps["loaderData"], { step: "confirmation" }>;

/**
 * The shipping step beside its Order Summary. With JavaScript the methods and the summary follow
 * the country, state and method as the shopper picks them, priced in the browser by the same rules
 * as the server (cart-pricing.ts); without it, the step is priced for the address it was rendered
 * with, and the server checks the method against the address sent (a method that address's zone
 * does not offer comes back with its message and that zone's methods).
 */
function ShippingWithSummary({
  page,
  pricing,
}: {
  page: StepPage;
  pricing: NonNullable<StepPage["pricing"]>;
}) {
  const defaultCountry = page.defaultCountry;
  const typed = { ...page.shipping, ...page.values };
  const values = { ...typed, country: typed.country || defaultCountry };
  const [place, setPlace] = useState({ country: values.country, region: values.state ?? "" });
  const [method, setMethod] = useState<string | null>(page.method?.code ?? null);
  const input = {
    lines: pricing.lines,
    destination: place,
    methodCode: method,
    offers: pricing.offers,
  };
  const priced = priceCart(pricing.markets, input);
  return (
    <>
      <div className="lg:col-span-2">
        <ShippingStep
          values={values}
          fieldErrors={page.fieldErrors}
          markets={pricing.markets}
          destination={place}
          priced={priced}
          onCountryChange={(country) => setPlace((was) => ({ ...was, country }))}
          onStateChange={(region) => setPlace((was) => ({ ...was, region }))}
          onMethodChange={setMethod}
        />
      </div>
      <CheckoutSummary
        lines={page.lines}
        totals={totalsFor(priced, input, page.totals.taxLabel)}
        discountLabel={page.discountLabel}
      />
    </>
  );
}

/** The cart's total for the address and method chosen so far (what gift cards are planned against). */
function checkoutTotals(
  shop: Awaited<ReturnType<typeof shopSettingsFrom>>,
  cart: Awaited<ReturnType<typeof getCart>>,
  shipping: { country: string; state: string } | null,
  method: string | undefined,
) {
  const input = {
    lines: cart.lines,
    destination: {
      country: shipping?.country ?? cart.estimate.country,
      region: shipping?.state ?? cart.estimate.region,
    },
    methodCode: method,
    offers: cart.offers,
  };
  return totalsFor(priceCart(shop.markets, input), input, "");
}

/** A signed-in shopper starts from their default address and e-mail. */
function prefillFromAccount(
  user: SessionUser | null,
  address: Awaited<ReturnType<typeof findDefaultAddress>> | null,
) {
  if (!user) return null;
  return {
    firstName: address?.firstName ?? user.name.split(" ")[0] ?? "",
    lastName: address?.lastName ?? user.name.split(" ").slice(1).join(" "),
    email: user.email,
    phone: address?.phone ?? "",
    address: address?.address ?? "",
    city: address?.city ?? "",
    state: address?.state ?? "",
    zipCode: address?.zipCode ?? "",
    country: address?.country ?? "",
  };
}
