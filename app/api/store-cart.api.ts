import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { addToCart } from "../domain/cart/add-item.server.ts";
import { applyCodeToCart, removeCodeFromCart } from "../domain/cart/cart-code.server.ts";
import { priceCart, totalsFor } from "../domain/cart/cart-pricing.ts";
import { newCartId, upsertCart } from "../domain/cart/cart-store.server.ts";
import { type CartView, getCart } from "../domain/cart/get-cart.server.ts";
import { addToCartToast, CART_MESSAGES, updateCartItemToast } from "../domain/cart/messages.server.ts";
import { updateCartItem } from "../domain/cart/update-item.server.ts";
import { COUPON_MESSAGES, normalizeCouponCode } from "../domain/coupons/coupon-rules.ts";
import { countryName } from "../lib/countries.ts";
import { deliveryDays, destinationProblem, type Totals } from "../lib/markets.ts";
import type { ApiEnv } from "./api-auth.server.ts";
import { idempotencyHeaders, moneySchema } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Store API's cart and checkout (issue 32, decision 038), for headless storefronts and apps,
 * with any key (a publishable one is made for this). A cart is named by its id, random and
 * unguessable, which only its creator learns: holding the id is owning the cart, as with the
 * browser's cart cookie. An account's cart is never reachable here (it is its shopper's, signed in).
 * Every operation calls what the /cart and /checkout pages call — `addToCart`, `updateCartItem`,
 * `applyCodeToCart`, `priceCart`, `placeOrder` — and answers in the pages' words.
 */

export const STORE = { security: [{ apiKey: [] }], "x-scope": "store" as const };
export const TAGS = ["Store: cart and checkout"];

export const cartIdParam = z.object({
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

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export const body = <T extends z.ZodType>(schema: T) => ({
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

export type StoreContext = Context<ApiEnv>;

export async function shopOf(c: StoreContext) {
  return c.get("services").settings.current();
}

/** The cart this id names, when it is a guest's cart (an account's is its shopper's alone). */
export async function guestCart(c: StoreContext, cartId: string): Promise<boolean> {
  const row = await c
    .get("db")
    .selectFrom("carts")
    .select("userId")
    .where("id", "=", cartId)
    .executeTakeFirst();
  return row !== undefined && row.userId === null;
}

export const NO_CART = "There is no such cart.";

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
}

/** A refusal beside one field, as the pages show it. */
export function fieldProblem(c: StoreContext, field: string, message: string) {
  return problemOf(c, 400, message, [{ field, message }]);
}
