import type { Database } from "../../db/database.server.ts";
import { type Destination, destinationProblem, type Markets, type Totals } from "../../lib/markets.ts";
import type { AppliedPromotion, Promotion, Refusal } from "../../lib/promotions/engine.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type PricingLine, priceCart, totalsFor } from "../cart/cart-pricing.ts";
import { customerGroupIds } from "../customer-groups/customer-groups.server.ts";
import { customerKeyOf, hasOrdered, readPromotionState } from "./promotions.server.ts";

/**
 * The admin's simulator (Admin → Promotions → Simulate, issue 31): a cart built from SKUs and
 * quantities, for a customer (by e-mail: their account, their earlier orders, their uses) or a new
 * guest, to a destination, at a moment — priced by the same engine and calculator as a real cart,
 * with every promotion that was considered: applied (and what it took) or not (and why). Nothing is
 * written: no cart, no order, no use.
 */

export interface SimulationInput {
  lines: { sku: string; quantity: number }[];
  /** the customer, by e-mail; null: a new guest */
  email: string | null;
  destination: Destination;
  /** a shipping method's code; null: the zone's first that can carry the cart */
  methodCode: string | null;
  /** promotion codes entered, upper-case */
  codes: string[];
  at: Date;
}

export interface Simulation {
  lines: { sku: string; name: string; quantity: number; unitPriceCents: number }[];
  /** `groups`: the names of the customer groups the account is in (their customer-group conditions) */
  customer: { signedIn: boolean; firstOrder: boolean; groups: string[] };
  totals: Totals;
  shippingMethod: string | null;
  applied: { promotion: Promotion; kind: AppliedPromotion["kind"]; amountCents: number }[];
  refused: { promotion: Promotion; refusal: Refusal }[];
}

export type SimulationError =
  | { code: "unknown-skus"; skus: string[] }
  | { code: "destination"; field: "country" | "state"; message: string };

export async function simulatePromotions(
  db: Database,
  markets: Markets,
  input: SimulationInput,
): Promise<Result<Simulation, SimulationError>> {
  const problem = destinationProblem(markets, input.destination);
  if (problem) return fail({ code: "destination", field: problem.field, message: problem.message });
  const skus = [...new Set(input.lines.map((line) => line.sku.toLowerCase()))];
  const rows =
    skus.length === 0
      ? []
      : await db
          .selectFrom("productVariants")
          .innerJoin("products", "products.id", "productVariants.productId")
          .select([
            "productVariants.id as variantId",
            "productVariants.productId",
            "productVariants.sku",
            "productVariants.priceCents",
            "productVariants.weightGrams",
            "products.name",
            "products.brand",
            "products.categoryId",
            "products.taxClass",
          ])
          .where((eb) => eb(eb.fn("lower", ["productVariants.sku"]), "in", skus))
          .execute();
  const bySku = new Map(rows.map((row) => [row.sku.toLowerCase(), row]));
  const unknown = input.lines.filter((line) => !bySku.has(line.sku.toLowerCase())).map((line) => line.sku);
  if (unknown.length > 0) return fail({ code: "unknown-skus", skus: [...new Set(unknown)] });

  // one line per variant, as a cart holds it
  const quantities = new Map<number, number>();
  for (const line of input.lines) {
    const variantId = Number(bySku.get(line.sku.toLowerCase())!.variantId);
    quantities.set(variantId, (quantities.get(variantId) ?? 0) + line.quantity);
  }
  const variants = new Map(rows.map((row) => [Number(row.variantId), row]));
  const lines: PricingLine[] = [...quantities].map(([variantId, quantity]) => {
    const row = variants.get(variantId)!;
    return {
      productId: Number(row.productId),
      variantId,
      brand: row.brand,
      category: row.categoryId,
      unitPriceCents: Number(row.priceCents),
      quantity,
      taxClass: row.taxClass,
      weightGrams: Number(row.weightGrams),
    };
  });

  const email = input.email?.trim().toLowerCase() || null;
  const account = email
    ? await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()
    : undefined;
  const shopper = { userId: account?.id ?? null, email };
  const customerKey = email ? customerKeyOf({ userId: shopper.userId, email }) : null;
  const state = await readPromotionState(db, {
    now: input.at,
    codes: input.codes,
    customerKey,
    anyWindow: true,
  });
  const firstOrder = !(await hasOrdered(db, shopper));
  // as the cart reads them for a signed-in member: the account's groups (a guest is in none)
  const groupIds = account ? await customerGroupIds(db, account.id) : [];
  const groups =
    groupIds.length === 0
      ? []
      : await db
          .selectFrom("customerGroups")
          .select("name")
          .where("id", "in", groupIds)
          .orderBy("name")
          .execute();
  const pricing = {
    lines,
    discountCents: 0,
    destination: input.destination,
    methodCode: input.methodCode,
    offers: {
      promotions: state.promotions,
      at: input.at.toISOString(),
      signedIn: Boolean(account),
      groupIds,
      firstOrder,
      codes: input.codes,
      exhausted: [...state.exhausted],
      budgets: [...state.budgets],
    },
  };
  const priced = priceCart(markets, pricing);
  return ok({
    lines: [...quantities].map(([variantId, quantity]) => {
      const row = variants.get(variantId)!;
      return { sku: row.sku, name: row.name, quantity, unitPriceCents: Number(row.priceCents) };
    }),
    customer: { signedIn: Boolean(account), firstOrder, groups: groups.map((group) => group.name) },
    totals: totalsFor(priced, pricing, ""),
    shippingMethod: priced.ok ? (priced.shipping?.method.name ?? null) : null,
    applied: priced.promotions?.applied ?? [],
    refused: priced.promotions?.refused ?? [],
  });
}
