import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Promotion } from "../../lib/promotions/engine.ts";

/**
 * A listing's price as a shopper pays it now (decision 035): the regular price `price` (SQL, of
 * the product row `products` in scope) under the live catalogue promotions `sale` (by precedence),
 * exactly as `salePrice` (lib/promotions/catalogue-sale.ts) and the cart's engine give it.
 *
 * The engine's stacking is a walk with three states — nothing applied yet; only promotions that
 * combine applied; one that does not combine applied (then nothing more) — and each percentage
 * leaves ⌊(p × (10 000 − bp) + 4 999) / 10 000⌋ of p (`leftAfterPercent`). While nothing applied,
 * promotion k applies when its target matches and it takes something (p × bp ≥ 5 000, half a cent);
 * once a combining one applied, every later combining one whose target matches applies (one that
 * takes nothing leaves the price as it is, so no test is needed) and the rest are blocked. The
 * expression references `price` O(n) times for n live promotions (never exponentially), so it is
 * built on a column (a product's or a variant's price), and a minimum over variants is taken of it.
 */
export function salePriceSql(price: Expression<number> | RawBuilder<number>, sale: readonly Promotion[]) {
  return nothingApplied(sql<number>`${price}`, sale, 0);
}

const BIG = sql.raw("bigint");

/** ⌊(p × (10 000 − bp·m) + 4 999·m) / 10 000⌋ with m 1 when `matched` holds (always when null), else 0. */
function step(price: RawBuilder<number>, basisPoints: number, matched: RawBuilder<SqlBool> | null) {
  if (matched === null) {
    return sql<number>`((cast(${price} as ${BIG}) * ${sql.lit(10_000 - basisPoints)} + 4999) / 10000)`;
  }
  const m = sql`(case when ${matched} then 1 else 0 end)`;
  return sql<number>`((cast(${price} as ${BIG}) * (10000 - ${sql.lit(basisPoints)} * ${m}) + 4999 * ${m}) / 10000)`;
}

/** SQL true when the product row matches the target; null: the target names nothing (all match). */
function targetSql(promotion: Promotion): RawBuilder<SqlBool> | null {
  const action = promotion.action;
  if (action.type !== "items-percent") return sql<SqlBool>`1 = 0`;
  const { productIds = [], categories = [], brands = [] } = action.target;
  const parts: RawBuilder<SqlBool>[] = [];
  if (productIds.length > 0)
    parts.push(sql`products.id in (${sql.join(productIds.map((id) => sql.lit(id)))})`);
  if (categories.length > 0) parts.push(sql`products.category_id in (${sql.join(categories)})`);
  if (brands.length > 0) parts.push(sql`products.brand in (${sql.join(brands)})`);
  return parts.length === 0 ? null : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

function basisPointsOf(promotion: Promotion): number {
  return promotion.action.type === "items-percent" ? promotion.action.basisPoints : 0;
}

/** From promotion `k` on, nothing applied yet. */
function nothingApplied(
  price: RawBuilder<number>,
  sale: readonly Promotion[],
  k: number,
): RawBuilder<number> {
  const promotion = sale[k];
  if (!promotion) return price;
  const basisPoints = basisPointsOf(promotion);
  const taken = step(price, basisPoints, null);
  const applied = promotion.combines ? combiningOnly(taken, sale, k + 1) : taken;
  const matched = targetSql(promotion);
  const takes = sql<SqlBool>`cast(${price} as ${BIG}) * ${sql.lit(basisPoints)} >= 5000`;
  const when = matched === null ? takes : sql<SqlBool>`${matched} and ${takes}`;
  return sql<number>`(case when ${when} then ${applied} else ${nothingApplied(price, sale, k + 1)} end)`;
}

/** From promotion `k` on, only combining ones applied so far: the combining ones that match apply. */
function combiningOnly(price: RawBuilder<number>, sale: readonly Promotion[], k: number): RawBuilder<number> {
  let result = price;
  for (const promotion of sale.slice(k)) {
    if (promotion.combines) result = step(result, basisPointsOf(promotion), targetSql(promotion));
  }
  return result;
}

/**
 * The highest regular price whose sale price can be at most `cents` under `sale`, or null when any
 * can (a 100 % promotion). Every stack leaves at least the product of the (1 − percentage)s of
 * the promotions, less half a cent per step: sale ≥ p × factor − n, so sale ≤ c ⇒ p ≤ (c + n) /
 * factor. With sale ≤ p it bounds a listing's regular prices to a range the products' price
 * indexes can scan (decision 035: a price bound or sort then reads a slice, not the category).
 */
export function regularCeiling(sale: readonly Promotion[], cents: number): number | null {
  let factor = 1;
  for (const promotion of sale) factor *= (10_000 - basisPointsOf(promotion)) / 10_000;
  if (factor <= 0) return null;
  return Math.ceil((cents + sale.length + 1) / factor);
}
