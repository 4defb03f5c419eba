import type { Database } from "../../db/database.server.ts";
import { destinationProblem, type Markets, normalDestination } from "../../lib/markets.ts";
import type { Currency } from "../../lib/money.ts";
import { type ListPrice, memberPriceApplies } from "../../lib/price-lists.ts";
import { salePrice } from "../../lib/promotions/catalogue-sale.ts";
import type { PromotionResult } from "../../lib/promotions/engine.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { variantTitle } from "../../lib/variants.ts";
import { optionsOfProducts } from "../catalog/product-options.server.ts";
import { COUPON_MESSAGES } from "../coupons/coupon-rules.ts";
import { customerGroupIds } from "../customer-groups/customer-groups.server.ts";
import { memberListPrices } from "../customer-groups/price-lists.server.ts";
import { codeLabel, codeRefusalMessage } from "../promotions/code-messages.ts";
import {
  anyAutomaticLive,
  cataloguePromotions,
  customerKeyOf,
  hasOrdered,
  readPromotionState,
} from "../promotions/promotions.server.ts";
import {
  type CartOffers,
  estimateDestination,
  type PricedCart,
  priceCart,
  totalsFor,
} from "./cart-pricing.ts";
import type { CartEstimate, CartLine, CartLineStatus, CartView } from "./cart-types.ts";
import { promotionHints } from "./promotion-hints.ts";

export type { AppliedCoupon, CartLine, CartLineStatus, CartView } from "./cart-types.ts";

/** What a cart is priced by: the shop's currency and markets (its settings). */
export type CartShop = { currency: Currency; markets: Markets };

/** The cart of a visitor who has none yet (no cookie): nothing to query. */
export function emptyCart(shop: CartShop): CartView {
  return priced(shop, [], null, { country: null, region: null }, null).view;
}

/**
 * The cart as the shopper sees it, priced from the database as it is now: a line counts with
 * min(its quantity, the stock); archived or sold-out products are listed but not charged. Totals
 * are estimated for the cart's destination (the shopper's choice, else the shop's estimate
 * country) by the markets' rules: its zone's tax and first shipping method that can carry it.
 */
export async function getCart(
  db: Database,
  cartId: string,
  shop: CartShop,
  /** who is buying, when known: per-customer limits and first-order conditions follow them */
  shopper: Shopper = {},
  now: Date = new Date(),
): Promise<CartView> {
  const read = await readCart(db, cartId, shopper, now);
  return priced(shop, read.lines, read.code, read.chosen, read.offers).view;
}

/**
 * The cart as Place Order sees it: priced once, for the order's address and method (not the cart's
 * estimate), with that pricing beside the view — the one Place Order checks and charges.
 */
export async function getCartForOrder(
  db: Database,
  cartId: string,
  shop: CartShop,
  shopper: Shopper,
  now: Date,
  at: { country: string; region: string; methodCode: string },
): Promise<{ cart: CartView; priced: PricedCart }> {
  const read = await readCart(db, cartId, shopper, now);
  const { view, pricing } = priced(shop, read.lines, read.code, read.chosen, read.offers, at);
  return { cart: view, priced: pricing };
}

async function readCart(
  db: Database,
  cartId: string,
  shopper: Shopper,
  now: Date,
): Promise<{
  lines: CartLine[];
  code: string | null;
  chosen: { country: string | null; region: string | null };
  offers: CartOffers | null;
}> {
  const rows = await db
    .selectFrom("cartItems")
    .innerJoin("productVariants", "productVariants.id", "cartItems.variantId")
    .innerJoin("products", "products.id", "cartItems.productId")
    // the variant's own picture, else the product's first
    .leftJoin("productImages", (join) =>
      join
        .onRef("productImages.productId", "=", "products.id")
        .on((eb) =>
          eb.or([
            eb("productImages.id", "=", eb.ref("productVariants.imageId")),
            eb.and([eb("productVariants.imageId", "is", null), eb("productImages.position", "=", 0)]),
          ]),
        ),
    )
    // who a gift card amount goes to
    .leftJoin("cartGiftCardRecipients", (join) =>
      join
        .onRef("cartGiftCardRecipients.cartId", "=", "cartItems.cartId")
        .onRef("cartGiftCardRecipients.variantId", "=", "cartItems.variantId"),
    )
    .select((eb) => [
      "cartItems.productId",
      "cartItems.variantId",
      "cartItems.quantity",
      "products.slug",
      "products.name",
      "products.brand",
      "products.categoryId",
      "productVariants.sku",
      "productVariants.option1",
      "productVariants.option2",
      "productVariants.option3",
      "productVariants.priceCents",
      "productVariants.originalPriceCents",
      "productVariants.stock",
      "productVariants.weightGrams",
      "products.taxClass",
      "products.giftCard",
      "cartGiftCardRecipients.recipientEmail",
      "cartGiftCardRecipients.recipientName",
      "cartGiftCardRecipients.message as giftMessage",
      eb.fn.coalesce("products.archivedAt", "productVariants.archivedAt").as("archivedAt"),
      "productImages.key as imageKey",
      "productImages.alt as imageAlt",
      "productImages.width as imageWidth",
      "productImages.height as imageHeight",
      "productImages.widths as imageWidths",
    ])
    .where("cartItems.cartId", "=", cartId)
    .orderBy("cartItems.addedAt")
    .orderBy("cartItems.variantId")
    .execute();
  // the option names of the lines that have option values (a line without any has no title)
  const options = await optionsOfProducts(
    db,
    rows.filter((row) => row.option1 || row.option2 || row.option3).map((row) => row.productId),
  );

  const members = await memberPricing(db, shopper, rows, now);

  const lines = rows.map((row): CartLine => {
    const status = lineStatus(row.quantity, row.stock, row.archivedAt);
    const quantity = status === "ok" || status === "reduced" ? Math.min(row.quantity, row.stock) : 0;
    const member = members?.get(row.variantId);
    const unitPriceCents = member ? member.listPrice.priceCents : row.priceCents;
    return {
      productId: row.productId,
      variantId: row.variantId,
      variantTitle: variantTitle(options.get(row.productId) ?? [], [row.option1, row.option2, row.option3]),
      sku: row.sku,
      slug: row.slug,
      name: row.name,
      brand: row.brand,
      category: row.categoryId,
      unitPriceCents,
      regularPriceCents: row.priceCents,
      listPrice: member?.listPrice ?? null,
      excludedPromotionIds: member?.excludedPromotionIds ?? [],
      // a member price shows the regular one struck through, as a sale price does
      originalPriceCents: member
        ? Math.max(row.originalPriceCents ?? 0, row.priceCents)
        : row.originalPriceCents,
      quantity,
      requestedQuantity: row.quantity,
      stock: Math.max(0, row.stock),
      lineTotalCents: unitPriceCents * quantity,
      status,
      taxClass: row.taxClass,
      weightGrams: row.weightGrams,
      giftCard: row.giftCard === 1,
      recipient:
        row.giftCard === 1
          ? {
              email: row.recipientEmail ?? null,
              name: row.recipientName ?? null,
              message: row.giftMessage ?? null,
            }
          : null,
      image:
        row.imageKey !== null
          ? {
              key: row.imageKey,
              alt: row.imageAlt ?? row.name,
              width: row.imageWidth ?? 960,
              height: row.imageHeight ?? 960,
              widths: JSON.parse(row.imageWidths ?? "[]") as number[],
            }
          : null,
    };
  });
  const cart = await db
    .selectFrom("carts")
    .select((eb) => [
      "couponCode",
      "estimateCountry",
      "estimateRegion",
      // the promotions this process keeps stand while the revision does (decision 033)
      eb.selectFrom("promotionRevision").select("revision").where("id", "=", 1).as("promotionRevision"),
    ])
    .where("id", "=", cartId)
    .executeTakeFirst();
  // the cart's code is a promotion's (issue 31: coupons are promotions with a code), read with the
  // automatic ones and decided by the engine
  const code = cart?.couponCode ?? null;
  const codes = code ? [code] : [];
  const revision = Number(cart?.promotionRevision ?? 0);
  const offers =
    cart && (codes.length > 0 || (await anyAutomaticLive(db, revision, now)))
      ? await cartOffers(db, shopper, now, codes, revision)
      : null;
  return {
    lines,
    code,
    chosen: { country: cart?.estimateCountry ?? null, region: cart?.estimateRegion ?? null },
    offers,
  };
}

/**
 * The lines a signed-in shopper's groups price lower (price lists, decision 037), by variant: the
 * list price, when it is below the regular price and below what the live catalogue sale would make
 * one unit (the shopper gets the lower of the two, never both: the line then takes no catalogue
 * promotion). Null for a guest, or when no line is listed.
 */
async function memberPricing(
  db: Database,
  shopper: Shopper,
  rows: readonly {
    variantId: number;
    productId: number;
    categoryId: string;
    brand: string;
    priceCents: number;
  }[],
  now: Date,
): Promise<Map<number, { listPrice: ListPrice; excludedPromotionIds: number[] }> | null> {
  if (!shopper.userId || rows.length === 0) return null;
  const listed = await memberListPrices(
    db,
    shopper.userId,
    rows.map((row) => row.variantId),
  );
  if (listed.size === 0) return null;
  const catalogue = await cataloguePromotions(db);
  const excluded = catalogue.map((promotion) => promotion.id);
  const priced = new Map<number, { listPrice: ListPrice; excludedPromotionIds: number[] }>();
  for (const row of rows) {
    const listPrice = listed.get(row.variantId);
    if (!listPrice) continue;
    const sale = salePrice(
      catalogue,
      {
        productId: row.productId,
        variantId: row.variantId,
        category: row.categoryId,
        brand: row.brand,
        priceCents: row.priceCents,
      },
      now,
    );
    if (memberPriceApplies(listPrice.priceCents, row.priceCents, sale?.priceCents ?? null)) {
      priced.set(row.variantId, { listPrice, excludedPromotionIds: excluded });
    }
  }
  return priced;
}

/** Who is buying, as far as the cart knows. */
export interface Shopper {
  userId?: string | null;
  email?: string | null;
}

/** The live promotions for this shopper, as plain data; null when there are none. */
async function cartOffers(
  db: Database,
  shopper: Shopper,
  now: Date,
  codes: string[],
  revision: number,
): Promise<CartOffers | null> {
  const customerKey =
    shopper.userId || shopper.email
      ? customerKeyOf({ userId: shopper.userId, email: shopper.email ?? "" })
      : null;
  const state = await readPromotionState(db, { now, codes, customerKey, revision });
  if (state.promotions.length === 0) return null;
  const asksFirstOrder = state.promotions.some((p) => p.conditions.some((c) => c.type === "first-order"));
  const asksGroups = state.promotions.some((p) => p.conditions.some((c) => c.type === "customer-group"));
  return {
    promotions: state.promotions,
    at: now.toISOString(),
    signedIn: Boolean(shopper.userId),
    groupIds: asksGroups && shopper.userId ? await customerGroupIds(db, shopper.userId) : [],
    firstOrder: asksFirstOrder && customerKey !== null && !(await hasOrdered(db, shopper)),
    codes,
    exhausted: [...state.exhausted],
    budgets: [...state.budgets],
  };
}

function priced(
  shop: CartShop,
  lines: CartLine[],
  code: string | null,
  chosen: { country: string | null; region: string | null },
  offers: CartOffers | null,
  /** an order's address and method: priced for them instead of the estimate */
  at?: { country: string; region: string; methodCode: string },
): { view: CartView; pricing: PricedCart } {
  const destination = at
    ? { country: at.country, region: at.region }
    : estimateDestination(shop.markets, chosen);
  const input = { lines, destination, offers, methodCode: at?.methodCode };
  const pricedOrder = priceCart(shop.markets, input);
  const { coupon, couponProblem } = code
    ? promotionCode(code, offers, pricedOrder.promotions, shop.currency)
    : { coupon: null, couponProblem: null };
  const method = pricedOrder.ok ? pricedOrder.shipping?.method : undefined;
  const estimate: CartEstimate = {
    country: destination.country,
    region: destination.region,
    methodName: method?.name ?? null,
    freeShippingThresholdCents: method?.freeOverCents ?? null,
  };
  const view: CartView = {
    lines,
    coupon,
    couponProblem,
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    totals: totalsFor(pricedOrder, input, ""),
    estimate,
    offers,
    promotions: (pricedOrder.promotions?.applied ?? [])
      // the code's promotion is the coupon row
      .filter(({ promotion }) => !(coupon && promotion.code === coupon.code))
      .map(({ promotion, kind, amountCents }) => ({ name: promotion.name, kind, amountCents })),
    hints: promotionHints(pricedOrder.promotions, lines, shop.currency),
  };
  return { view, pricing: pricedOrder };
}

/**
 * A promotion's code on the cart, as the coupon row shows it: applied (named and what it took), or
 * why not in the coupons' words — unknown when no promotion has it.
 */
function promotionCode(
  code: string,
  offers: CartOffers | null,
  result: PromotionResult | null,
  currency: Currency,
): Pick<CartView, "coupon" | "couponProblem"> {
  const known = offers?.promotions.some((promotion) => promotion.code === code) ?? false;
  if (!known) return { coupon: null, couponProblem: { code, message: COUPON_MESSAGES.notFound } };
  const applied = result?.applied.find(({ promotion }) => promotion.code === code);
  if (applied) {
    return {
      coupon: {
        code,
        label: codeLabel(applied.promotion, currency),
        discountCents: applied.kind === "shipping" ? 0 : applied.amountCents,
      },
      couponProblem: null,
    };
  }
  const refused = result?.refused.find(({ promotion }) => promotion.code === code);
  if (!refused) return { coupon: null, couponProblem: null }; // not priced (no zone holds the destination)
  const nameOf = (id: number) =>
    [...result!.applied, ...result!.refused].find(({ promotion }) => promotion.id === id)?.promotion.name ??
    "another promotion";
  return {
    coupon: null,
    couponProblem: { code, message: codeRefusalMessage(refused.refusal, currency, nameOf) },
  };
}

/**
 * The destination the cart estimates for, as the shopper chose it (the cart page's estimate form),
 * kept with the cart for the visit. A place no zone holds is refused with the checkout's message.
 */
export async function chooseCartEstimate(
  db: Database,
  cartId: string,
  markets: Markets,
  chosen: { country: string; region: string },
): Promise<Result<{ country: string; region: string }, { code: "not-shipped"; message: string }>> {
  const problem = destinationProblem(markets, chosen);
  const place = normalDestination(chosen);
  if (!place || (problem && problem.field === "country")) {
    return fail({ code: "not-shipped", message: problem?.message ?? "Choose a country from the list." });
  }
  // a state the zones cannot read is left out of the estimate (the checkout asks for it)
  const region = problem ? "" : place.region;
  await db
    .updateTable("carts")
    .set({ estimateCountry: place.country, estimateRegion: region || null })
    .where("id", "=", cartId)
    .execute();
  return ok({ country: place.country, region });
}

function lineStatus(quantity: number, stock: number, archivedAt: string | null): CartLineStatus {
  if (archivedAt !== null) return "unavailable";
  if (stock <= 0) return "out-of-stock";
  return quantity > stock ? "reduced" : "ok";
}

/**
 * The header badge: the cart's purchasable quantity (as getCart counts it) in one query.
 * Callers without a cart cookie should not call this at all.
 */
export async function getCartQuantity(db: Database, cartId: string): Promise<number> {
  const row = await db
    .selectFrom("cartItems")
    .innerJoin("productVariants", "productVariants.id", "cartItems.variantId")
    .innerJoin("products", "products.id", "cartItems.productId")
    .select((eb) =>
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when("cartItems.quantity", ">", eb.ref("productVariants.stock"))
            .then(eb.ref("productVariants.stock"))
            .else(eb.ref("cartItems.quantity"))
            .end(),
        )
        .as("quantity"),
    )
    .where("cartItems.cartId", "=", cartId)
    .where("products.archivedAt", "is", null)
    .where("productVariants.archivedAt", "is", null)
    .where("productVariants.stock", ">", 0)
    .executeTakeFirst();
  return Number(row?.quantity ?? 0);
}
