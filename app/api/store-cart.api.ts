import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PAYMENT_MESSAGES } from "../adapters/payments/payment-gateway.ts";
import { addToCart } from "../domain/cart/add-item.server.ts";
import { applyCodeToCart, removeCodeFromCart } from "../domain/cart/cart-code.server.ts";
import { priceCart, totalsFor } from "../domain/cart/cart-pricing.ts";
import { newCartId, upsertCart } from "../domain/cart/cart-store.server.ts";
import { type CartView, getCart } from "../domain/cart/get-cart.server.ts";
import { addToCartToast, CART_MESSAGES, updateCartItemToast } from "../domain/cart/messages.server.ts";
import { updateCartItem } from "../domain/cart/update-item.server.ts";
import { shippingSchema } from "../domain/checkout/address-schema.server.ts";
import { CHECKOUT_MESSAGES, followUpPlacedOrder } from "../domain/checkout/checkout-steps.server.ts";
import { paymentSchema } from "../domain/checkout/payment-schema.server.ts";
import { COUPON_MESSAGES, normalizeCouponCode } from "../domain/coupons/coupon-rules.ts";
import { findOrderForTracking } from "../domain/orders/orders.server.ts";
import { placeOrder } from "../domain/orders/place-order.server.ts";
import { countryName } from "../lib/countries.ts";
import { deliveryDays, destinationProblem, type Totals } from "../lib/markets.ts";
import { mailShop } from "../lib/shop-settings.ts";
import type { ApiEnv } from "./api-auth.server.ts";
import { idempotencyHeaders, moneySchema } from "./conventions.ts";
import { problemOf, problemResponses, validationProblemOf } from "./problem.ts";

/**
 * The Store API's cart and checkout (issue 32, decision 038), for headless storefronts and apps,
 * with any key (a publishable one is made for this). A cart is named by its id, random and
 * unguessable, which only its creator learns: holding the id is owning the cart, as with the
 * browser's cart cookie. An account's cart is never reachable here (it is its shopper's, signed in).
 * Every operation calls what the /cart and /checkout pages call — `addToCart`, `updateCartItem`,
 * `applyCodeToCart`, `priceCart`, `placeOrder` — and answers in the pages' words.
 */

const STORE = { security: [{ apiKey: [] }], "x-scope": "store" as const };
const TAGS = ["Store: cart and checkout"];

const cartIdParam = z.object({
  cartId: z.string().uuid("A cart id is the UUID POST /store/carts gave.").openapi({ format: "uuid" }),
});

const totalsSchema = z
  .object({
    subtotal: moneySchema,
    discount: moneySchema,
    shipping: moneySchema,
    tax: moneySchema,
    total: moneySchema,
    taxIncluded: z.boolean().openapi({ description: "prices include the tax (it is part of the subtotal)" }),
    taxLabel: z.string(),
  })
  .openapi("Totals");

const cartSchema = z
  .object({
    id: z.string(),
    lines: z.array(
      z.object({
        productId: z.number().int(),
        variantId: z.number().int(),
        sku: z.string(),
        slug: z.string(),
        name: z.string(),
        variantTitle: z.string(),
        brand: z.string(),
        quantity: z.number().int().openapi({ description: "what can be bought now: min(requested, stock)" }),
        requestedQuantity: z.number().int(),
        status: z.enum(["ok", "reduced", "out-of-stock", "unavailable"]),
        unitPrice: moneySchema,
        lineTotal: moneySchema,
        giftCard: z.boolean(),
      }),
    ),
    code: z.object({ code: z.string(), label: z.string(), discount: moneySchema }).nullable(),
    codeProblem: z
      .string()
      .nullable()
      .openapi({ description: "why the code on the cart no longer applies, in the cart page's words" }),
    totalQuantity: z.number().int(),
    estimate: z.object({
      country: z.string(),
      region: z.string(),
      shippingMethod: z.string().nullable(),
    }),
    totals: totalsSchema,
    promotions: z.array(z.object({ name: z.string(), amount: moneySchema })),
    hints: z.array(z.string()).openapi({ description: "what the cart could get by adding to it" }),
  })
  .openapi("Cart");

const cartAnswer = z
  .object({ message: z.string().openapi({ description: "the cart page's toast" }), cart: cartSchema })
  .openapi("CartAnswer");

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

const createCart = createRoute({
  method: "post",
  path: "/store/carts",
  operationId: "createCart",
  tags: TAGS,
  summary: "Start an empty cart; keep its id (it is the cart's only key)",
  ...STORE,
  request: { headers: idempotencyHeaders },
  responses: { 201: json(cartSchema, "The new cart"), ...problemResponses(400, 401, 409, 422, 429) },
});

const getCartRoute = createRoute({
  method: "get",
  path: "/store/carts/{cartId}",
  operationId: "getCart",
  tags: TAGS,
  summary: "The cart priced as it is now, as the cart page shows it",
  ...STORE,
  request: { params: cartIdParam },
  responses: { 200: json(cartSchema, "The cart"), ...problemResponses(400, 401, 404, 429) },
});

const quantity = (min: number) => z.number().int().min(min).max(999);

const addLine = createRoute({
  method: "post",
  path: "/store/carts/{cartId}/lines",
  operationId: "addCartLine",
  tags: TAGS,
  summary: "Add a product (the variant chosen, for a product with several) — capped at the stock",
  ...STORE,
  request: {
    params: cartIdParam,
    headers: idempotencyHeaders,
    body: body(
      z
        .object({
          productId: z.number().int().min(1),
          variantId: z.number().int().min(1).optional(),
          quantity: quantity(1).default(1),
          recipient: z
            .object({
              email: z.email(CART_MESSAGES.invalidRecipient).max(254),
              name: z.string().trim().max(100).optional(),
              message: z.string().trim().max(500).optional(),
            })
            .optional()
            .openapi({ description: "who a gift card goes to (none: the buyer)" }),
        })
        .strict()
        .openapi("NewCartLine"),
    ),
  },
  responses: {
    200: json(cartAnswer, "Added (the message says when the stock capped it)"),
    ...problemResponses(400, 401, 404, 409, 422, 429),
  },
});

const setLine = createRoute({
  method: "post",
  path: "/store/carts/{cartId}/lines/{variantId}",
  operationId: "setCartLineQuantity",
  tags: TAGS,
  summary: "Set a line's quantity (0 removes it); repeating it changes nothing",
  ...STORE,
  request: {
    params: cartIdParam.extend({ variantId: z.coerce.number().int().min(1).max(2_147_483_647) }),
    headers: idempotencyHeaders,
    body: body(z.object({ quantity: quantity(0) }).strict()),
  },
  responses: {
    200: json(cartAnswer, "Updated or removed"),
    ...problemResponses(400, 401, 404, 409, 422, 429),
  },
});

const applyCode = createRoute({
  method: "post",
  path: "/store/carts/{cartId}/code",
  operationId: "applyCartCode",
  tags: TAGS,
  summary: "Apply a promotion code; a code that does not apply is refused with the reason",
  ...STORE,
  request: {
    params: cartIdParam,
    headers: idempotencyHeaders,
    body: body(z.object({ code: z.string().max(200) }).strict()),
  },
  responses: {
    200: json(cartAnswer, "Applied"),
    ...problemResponses(400, 401, 404, 409, 422, 429),
  },
});

const removeCode = createRoute({
  method: "delete",
  path: "/store/carts/{cartId}/code",
  operationId: "removeCartCode",
  tags: TAGS,
  summary: "Take the promotion code off the cart",
  ...STORE,
  request: { params: cartIdParam },
  responses: { 200: json(cartAnswer, "Removed"), ...problemResponses(400, 401, 404, 429) },
});

const shippingMethodSchema = z.object({
  code: z.string(),
  name: z.string(),
  deliveryDays: z.string(),
  price: moneySchema,
});

const quote = createRoute({
  method: "get",
  path: "/store/carts/{cartId}/quote",
  operationId: "quoteCart",
  tags: TAGS,
  summary:
    "The shipping methods for an address and the totals with one of them: what checkout's expectedTotal is",
  ...STORE,
  request: {
    params: cartIdParam,
    query: z.object({
      country: z.string().max(60).openapi({ description: "ISO 3166-1 alpha-2, e.g. US" }),
      region: z.string().max(100).default("").openapi({ description: "the state or region's code" }),
      shippingMethod: z.string().max(60).optional().openapi({ description: "none: the zone's first" }),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          shippingMethods: z.array(shippingMethodSchema),
          shippingMethod: z.string().nullable(),
          totals: totalsSchema,
        })
        .openapi("Quote"),
      "The methods and the totals",
    ),
    ...problemResponses(400, 401, 404, 429),
  },
});

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

type StoreContext = Context<ApiEnv>;

async function shopOf(c: StoreContext) {
  return c.get("services").settings.current();
}

/** The cart this id names, when it is a guest's cart (an account's is its shopper's alone). */
async function guestCart(c: StoreContext, cartId: string): Promise<boolean> {
  const row = await c
    .get("db")
    .selectFrom("carts")
    .select("userId")
    .where("id", "=", cartId)
    .executeTakeFirst();
  return row !== undefined && row.userId === null;
}

const NO_CART = "There is no such cart.";

function totalsJson(totals: Totals, currency: string) {
  const money = (amount: number) => ({ amount, currency });
  return {
    subtotal: money(totals.subtotalCents),
    discount: money(totals.discountCents),
    shipping: money(totals.shippingCents),
    tax: money(totals.taxCents),
    total: money(totals.totalCents),
    taxIncluded: totals.taxIncluded,
    taxLabel: totals.taxLabel,
  };
}

function cartJson(id: string, cart: CartView, currency: string): z.infer<typeof cartSchema> {
  const money = (amount: number) => ({ amount, currency });
  return {
    id,
    lines: cart.lines.map((line) => ({
      productId: line.productId,
      variantId: line.variantId,
      sku: line.sku,
      slug: line.slug,
      name: line.name,
      variantTitle: line.variantTitle,
      brand: line.brand,
      quantity: line.quantity,
      requestedQuantity: line.requestedQuantity,
      status: line.status,
      unitPrice: money(line.unitPriceCents),
      lineTotal: money(line.lineTotalCents),
      giftCard: line.giftCard,
    })),
    code: cart.coupon
      ? { code: cart.coupon.code, label: cart.coupon.label, discount: money(cart.coupon.discountCents) }
      : null,
    codeProblem: cart.couponProblem?.message ?? null,
    totalQuantity: cart.totalQuantity,
    estimate: {
      country: cart.estimate.country,
      region: cart.estimate.region,
      shippingMethod: cart.estimate.methodName,
    },
    totals: totalsJson(cart.totals, currency),
    promotions: cart.promotions.map((p) => ({ name: p.name, amount: money(p.amountCents) })),
    hints: cart.hints,
  };
}

async function cartBody(c: StoreContext, cartId: string) {
  const shop = await shopOf(c);
  return cartJson(cartId, await getCart(c.get("db"), cartId, shop), shop.currency);
}

export function registerStoreCart(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createCart, async (c) => {
    const cartId = newCartId();
    await upsertCart(c.get("db"), cartId, new Date());
    return c.json(await cartBody(c, cartId), 201);
  });

  api.openapi(getCartRoute, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    return c.json(await cartBody(c, cartId), 200);
  });

  api.openapi(addLine, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    const input = c.req.valid("json");
    const result = await addToCart(c.get("db"), {
      cartId,
      productId: input.productId,
      variantId: input.variantId ?? null,
      quantity: input.quantity,
      recipient: input.recipient
        ? {
            email: input.recipient.email.toLowerCase(),
            name: input.recipient.name || null,
            message: input.recipient.message || null,
          }
        : null,
    });
    const { message } = addToCartToast(result, input.quantity);
    if (result.ok) return c.json({ message, cart: await cartBody(c, cartId) }, 200);
    if (result.error.code === "unavailable") return problemOf(c, 404, message);
    if (result.error.code === "choose-variant") return problemOf(c, 400, message);
    return problemOf(c, 409, message);
  });

  api.openapi(setLine, async (c) => {
    const { cartId, variantId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    const line = await c
      .get("db")
      .selectFrom("cartItems")
      .select("productId")
      .where("cartId", "=", cartId)
      .where("variantId", "=", variantId)
      .executeTakeFirst();
    if (!line) return problemOf(c, 404, CART_MESSAGES.notInCart);
    const result = await updateCartItem(c.get("db"), {
      cartId,
      productId: line.productId,
      variantId,
      quantity: c.req.valid("json").quantity,
    });
    const { message } = updateCartItemToast(result);
    if (result.ok) return c.json({ message, cart: await cartBody(c, cartId) }, 200);
    return problemOf(c, result.error.code === "out-of-stock" ? 409 : 404, message);
  });

  api.openapi(applyCode, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    const code = normalizeCouponCode(c.req.valid("json").code);
    if (code === "") return problemOf(c, 400, COUPON_MESSAGES.missing);
    const shop = await shopOf(c);
    const db = c.get("db");
    const cart = await getCart(db, cartId, shop);
    if (cart.totalQuantity === 0) return problemOf(c, 409, CART_MESSAGES.couponNeedsItems);
    const result = await applyCodeToCart(db, { cartId, code, shop, shopper: {} });
    if (!result.ok) return problemOf(c, 409, result.error.message);
    return c.json(
      { message: COUPON_MESSAGES.applied(result.value.code), cart: await cartBody(c, cartId) },
      200,
    );
  });

  api.openapi(removeCode, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    await removeCodeFromCart(c.get("db"), cartId);
    return c.json({ message: COUPON_MESSAGES.removed, cart: await cartBody(c, cartId) }, 200);
  });

  api.openapi(quote, async (c) => {
    const { cartId } = c.req.valid("param");
    if (!(await guestCart(c, cartId))) return problemOf(c, 404, NO_CART);
    const query = c.req.valid("query");
    const shop = await shopOf(c);
    const destination = { country: query.country.trim().toUpperCase(), region: query.region.trim() };
    const refused = destinationProblem(shop.markets, destination);
    if (refused) return fieldProblem(c, refused.field, refused.message);
    const cart = await getCart(c.get("db"), cartId, shop);
    const input = {
      lines: cart.lines,
      destination,
      methodCode: query.shippingMethod ?? null,
      offers: cart.offers,
    };
    // the checkout's own pricing: its shipping step and summary price exactly this
    const priced = priceCart(shop.markets, input);
    if (!priced.ok)
      return fieldProblem(c, "country", `We don't ship to ${countryName(destination.country)} yet.`);
    const money = (amount: number) => ({ amount, currency: shop.currency });
    return c.json(
      {
        shippingMethods: priced.quotes.map(({ method, priceCents }) => ({
          code: method.code,
          name: method.name,
          deliveryDays: deliveryDays(method),
          price: money(priceCents),
        })),
        shippingMethod: priced.shipping?.method.code ?? null,
        totals: totalsJson(totalsFor(priced, input, ""), shop.currency),
      },
      200,
    );
  });

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

/** A refusal beside one field, as the pages show it. */
function fieldProblem(c: StoreContext, field: string, message: string) {
  return problemOf(c, 400, message, [{ field, message }]);
}
