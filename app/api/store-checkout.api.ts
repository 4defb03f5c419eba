import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { PAYMENT_MESSAGES } from "../adapters/payments/payment-gateway.ts";
import { CART_MESSAGES } from "../domain/cart/messages.server.ts";
import { shippingSchema } from "../domain/checkout/address-schema.server.ts";
import { CHECKOUT_MESSAGES, followUpPlacedOrder } from "../domain/checkout/checkout-steps.server.ts";
import { paymentSchema } from "../domain/checkout/payment-schema.server.ts";
import { findOrderForTracking } from "../domain/orders/orders.server.ts";
import { placeOrder } from "../domain/orders/place-order.server.ts";
import { countryName } from "../lib/countries.ts";
import { mailShop } from "../lib/shop-settings.ts";
import type { ApiEnv } from "./api-auth.server.ts";
import { idempotencyHeaders, moneySchema } from "./conventions.ts";
import { problemOf, problemResponses, validationProblemOf } from "./problem.ts";
import {
  body,
  cartIdParam,
  fieldProblem,
  guestCart,
  json,
  NO_CART,
  STORE,
  shopOf,
  TAGS,
} from "./store-cart.api.ts";

/**
 * The Store API's checkout (issue 32, decision 038): the test gateway's card token, Place Order on a
 * cart (`placeOrder`, then `followUpPlacedOrder` as the checkout page) and tracking by number and
 * e-mail (`findOrderForTracking`, as /orders/track), in the pages' words.
 */

const paymentToken = createRoute({
  method: "post",
  path: "/store/payment-tokens",
  operationId: "createPaymentToken",
  tags: TAGS,
  summary:
    "With the built-in test gateway: a card exchanged for a token for checkout (with Stripe, make a PaymentMethod with Stripe's SDK instead)",
  ...STORE,
  request: {
    headers: idempotencyHeaders,
    body: body(
      z
        .object({
          cardNumber: z.string().max(40),
          cardName: z.string().max(200),
          expiryDate: z.string().max(10).openapi({ example: "12/30" }),
          cvv: z.string().max(10),
        })
        .strict()
        .openapi("Card"),
    ),
  },
  responses: {
    201: json(
      z.object({ token: z.string(), brand: z.string(), last4: z.string() }).openapi("PaymentToken"),
      "The card's token",
    ),
    ...problemResponses(400, 401, 402, 409, 422, 429),
  },
});

const checkout = createRoute({
  method: "post",
  path: "/store/carts/{cartId}/checkout",
  operationId: "checkoutCart",
  tags: TAGS,
  summary:
    "Place the cart as an order (Place Order): paid at once, or waiting for the shopper at redirectUrl",
  ...STORE,
  request: {
    params: cartIdParam,
    headers: idempotencyHeaders,
    body: body(
      z
        .object({
          email: z.string().max(254),
          firstName: z.string().max(200),
          lastName: z.string().max(200),
          phone: z.string().max(60),
          address: z.string().max(300),
          city: z.string().max(200),
          state: z.string().max(100),
          zipCode: z.string().max(30),
          country: z.string().max(60),
          shippingMethod: z.string().max(60).openapi({ description: "a code GET …/quote listed" }),
          payment: z
            .object({
              token: z.string().min(1).max(1000).openapi({
                description:
                  "the test gateway's token (POST /store/payment-tokens), or with Stripe a PaymentMethod id (pm_…)",
              }),
            })
            .strict(),
          expectedTotal: z
            .number()
            .int()
            .min(0)
            .openapi({ description: "the total the shopper was shown (GET …/quote), in minor units" }),
          returnUrl: z.url().max(2000).optional().openapi({
            description:
              "where the provider sends the shopper back after authenticating with their bank; without it such a payment is declined",
          }),
        })
        .strict()
        .openapi("Checkout"),
    ),
  },
  responses: {
    201: json(
      z
        .object({
          order: z.object({
            number: z.string(),
            email: z.string(),
            total: moneySchema,
            estimatedDelivery: z.string(),
          }),
          redirectUrl: z.string().nullable().openapi({
            description: "set when the shopper must authenticate at the provider: the order waits, reserved",
          }),
        })
        .openapi("PlacedOrder"),
      "The order placed",
    ),
    ...problemResponses(400, 401, 402, 404, 409, 422, 429),
  },
});

const trackOrder = createRoute({
  method: "get",
  path: "/store/orders/{number}",
  operationId: "trackOrder",
  tags: ["Store: orders"],
  summary: "An order's status and tracking, by its number and the e-mail it was placed with",
  ...STORE,
  request: {
    params: z.object({ number: z.string().max(40) }),
    query: z.object({ email: z.string().max(254) }),
  },
  responses: {
    200: json(
      z
        .object({
          number: z.string(),
          status: z.string(),
          createdAt: z.string(),
          estimatedDelivery: z.string(),
          tracking: z
            .object({ carrier: z.string(), number: z.string().nullable(), url: z.string().nullable() })
            .nullable(),
          items: z.array(
            z.object({ name: z.string(), variantTitle: z.string(), quantity: z.number().int() }),
          ),
          total: moneySchema,
        })
        .openapi("TrackedOrder"),
      "The order",
    ),
    ...problemResponses(400, 401, 404, 429),
  },
});

export function registerStoreCheckout(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(paymentToken, async (c) => {
    const gateway = c.get("services").gateway;
    if (gateway.browser) {
      return problemOf(
        c,
        409,
        "This shop takes cards through its payment provider: make a PaymentMethod with the provider's SDK and send its id to checkout.",
      );
    }
    const parsed = paymentSchema(new Date()).safeParse(c.req.valid("json"));
    if (!parsed.success) return validationProblemOf(c, parsed.error);
    const card = parsed.data;
    const tokenized = await gateway.tokenize({
      number: card.cardNumber,
      expMonth: card.expMonth,
      expYear: card.expYear,
      cvv: card.cvv,
      name: card.cardName,
    });
    if (!tokenized.ok) return problemOf(c, 402, tokenized.message);
    return c.json({ token: tokenized.token, brand: tokenized.brand, last4: tokenized.last4 }, 201);
  });

  api.openapi(checkout, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    const input = c.req.valid("json");
    const { payment, expectedTotal, returnUrl, shippingMethod, ...address } = input;
    // the shipping step's own schema: the same checks and messages as the form
    const shipping = shippingSchema.safeParse({ ...address, shippingMethod });
    if (!shipping.success) return validationProblemOf(c, shipping.error);
    const services = c.get("services");
    const { db, gateway } = services;
    // what the order keeps of the card: its brand and last 4 (a token we did not make: refused)
    const card = await gateway.describeToken(payment.token);
    if (!card) return problemOf(c, 402, PAYMENT_MESSAGES.invalid_token);
    const settings = await shopOf(c);
    const { shippingMethod: method, ...details } = shipping.data;
    const result = await placeOrder(db, gateway, {
      cartId,
      // one order per API request: the same Idempotency-Key from the same key places it once
      idempotencyKey: `api:${c.get("caller").id}:${c.req.header("Idempotency-Key")}`,
      shipping: details,
      method: method ?? "",
      shop: settings,
      payment: { token: payment.token, brand: card.brand, last4: card.last4 },
      provider: returnUrl ? { returnUrl, successUrl: returnUrl, cancelUrl: returnUrl } : undefined,
      expectedTotalCents: expectedTotal,
      reservationMs: services.config.PAYMENT_RESERVATION_MINUTES * 60_000,
    });
    if (result.ok) {
      const { order, replayed, redirectUrl, confirmation } = result.value;
      if (!replayed && !redirectUrl) {
        followUpPlacedOrder(
          { db, mailer: services.mail, mailShop: mailShop(settings, services.config.PUBLIC_URL) },
          order,
          confirmation,
        );
      }
      return c.json(
        {
          order: {
            number: order.number,
            email: order.email,
            total: { amount: order.totalCents, currency: settings.currency },
            estimatedDelivery: order.estimatedDelivery,
          },
          redirectUrl,
        },
        201,
      );
    }
    const error = result.error;
    switch (error.code) {
      case "empty-cart":
        return problemOf(c, 409, CHECKOUT_MESSAGES.emptyCart);
      case "out-of-stock":
        return problemOf(c, 409, CART_MESSAGES.outOfStock(error.productName));
      case "coupon-invalid":
        return problemOf(c, 409, error.message);
      case "price-changed":
        return problemOf(c, 409, CHECKOUT_MESSAGES.priceChanged);
      case "gift-card-changed":
        return problemOf(c, 409, CHECKOUT_MESSAGES.giftCardChanged);
      case "payment-declined":
        return problemOf(c, 402, error.message);
      case "no-zone":
        return fieldProblem(c, "country", `We don't ship to ${countryName(details.country)} yet.`);
      case "shipping-unavailable":
        return fieldProblem(c, "shippingMethod", CHECKOUT_MESSAGES.methodUnavailable);
    }
  });

  api.openapi(trackOrder, async (c) => {
    const order = await findOrderForTracking(c.get("db"), {
      number: c.req.valid("param").number,
      email: c.req.valid("query").email,
    });
    // the tracking page's answer: the number and e-mail must both match
    if (!order) return problemOf(c, 404, "We couldn't find an order with that number and email.");
    return c.json(
      {
        number: order.number,
        status: order.status,
        createdAt: order.createdAt,
        estimatedDelivery: order.estimatedDelivery,
        tracking: order.tracking,
        items: order.items.map((item) => ({
          name: item.name,
          variantTitle: item.variantTitle,
          quantity: item.quantity,
        })),
        total: { amount: order.totals.totalCents, currency: order.currency },
      },
      200,
    );
  });
}
