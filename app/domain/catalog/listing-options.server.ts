import type { Database, Engine } from "../../db/database.server.ts";
import type { OptionFacet } from "../../lib/catalog-types.ts";
import { type ListingQuery, PRICE_MAX, PRICE_MIN } from "../../lib/listing-query.ts";
import { compareOptionValues } from "../../lib/option-order.ts";
import { filterConditions, variantMatches, variantPrice } from "./listing-filters.server.ts";

/**
 * The listing's option filters and option facets by SQL (decision 019): a product matches
 * `size=m&colour=black` when one of its live, in-stock variants has one of the wanted values of
 * every option key (variant_option_values, migration 1300); its price for the price filter and
 * the price sorts is then the cheapest such variant's. The search index answers the same
 * (catalog-index.ts) while it is fresh.
 */

/** The option keys of the query the catalogue has (an unknown parameter is not a filter). */
export async function withKnownOptions(db: Database, query: ListingQuery): Promise<ListingQuery> {
  const keys = Object.keys(query.options);
  if (keys.length === 0) return query;
  const known = await Promise.all(
    keys.map((key) =>
      db
        .selectFrom("variantOptionValues")
        .select("optionKey")
        .where("optionKey", "=", key)
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  const options = Object.fromEntries(
    keys.filter((_, i) => known[i]).map((key) => [key, query.options[key]!]),
  );
  return { ...query, options };
}

export interface OptionCountRow {
  optionKey: string;
  valueKey: string;
  optionName: string;
  optionValue: string;
  count: number;
}

/**
 * The option facets of the current result set: per option key, each value with the number of
 * listed products that have an in-stock variant with that value (and the other keys' chosen
 * values) whose price — the cheapest such — is in the price range. A key's own choice is left out
 * of its counts, as the brand facet ignores the brand filter.
 */
export async function optionCountRowsBySql(
  db: Database,
  query: ListingQuery,
  engine: Engine,
): Promise<OptionCountRow[]> {
  const chosen = Object.keys(query.options);
  const withoutOptions: ListingQuery = { ...query, options: {}, minPrice: PRICE_MIN, maxPrice: PRICE_MAX };
  const count = (except: string | null): Promise<OptionCountRow[]> =>
    db
      .selectFrom((qb) =>
        qb
          .selectFrom("variantOptionValues as vo")
          .innerJoin("productVariants as pv", "pv.id", "vo.variantId")
          .innerJoin("products", "products.id", "pv.productId")
          .select([
            "vo.optionKey",
            "vo.valueKey",
            (eb) => eb.fn.min("vo.optionName").as("optionName"),
            (eb) => eb.fn.min("vo.optionValue").as("optionValue"),
            (eb) => eb.fn.min(variantPrice(query)).as("price"),
          ])
          .where(variantMatches(query.options, except))
          .where((eb) => eb.and(filterConditions(eb as never, withoutOptions, engine, null)))
          .$if(except !== null, (q) => q.where("vo.optionKey", "=", except!))
          .groupBy(["vo.optionKey", "vo.valueKey", "pv.productId"])
          .as("matches"),
      )
      .select([
        "optionKey",
        "valueKey",
        (eb) => eb.fn.min("optionName").as("optionName"),
        (eb) => eb.fn.min("optionValue").as("optionValue"),
        (eb) => eb.fn.countAll<number>().as("count"),
      ])
      .$if(query.minPrice > PRICE_MIN, (q) => q.where("price", ">=", query.minPrice * 100))
      .$if(query.maxPrice < PRICE_MAX, (q) => q.where("price", "<=", query.maxPrice * 100))
      .groupBy(["optionKey", "valueKey"])
      .execute() as Promise<OptionCountRow[]>;
  const [free, ...own] = await Promise.all([count(null), ...chosen.map((key) => count(key))]);
  const rows = [...free!.filter((row) => !chosen.includes(row.optionKey)), ...own.flat()];
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/**
 * Facets from counted (key, value) rows: keys by label, values in the shop's order (sizes from
 * small to large, numbers by size, else alphabetically); a chosen value stays listed at 0.
 */
export function toOptionFacets(
  rows: { optionKey: string; valueKey: string; optionName: string; optionValue: string; count: number }[],
  chosen: ListingQuery["options"],
): OptionFacet[] {
  const byKey = new Map<string, OptionFacet>();
  for (const row of rows) {
    let facet = byKey.get(row.optionKey);
    if (!facet) {
      facet = { key: row.optionKey, label: row.optionName, values: [] };
      byKey.set(row.optionKey, facet);
    }
    facet.values.push({ value: row.valueKey, label: row.optionValue, count: row.count });
  }
  for (const [key, values] of Object.entries(chosen)) {
    const facet = byKey.get(key) ?? { key, label: key, values: [] };
    byKey.set(key, facet);
    for (const value of values) {
      if (!facet.values.some((v) => v.value === value)) facet.values.push({ value, label: value, count: 0 });
    }
  }
  return [...byKey.values()]
    .map((facet) => ({
      ...facet,
      values: facet.values.sort((a, b) => compareOptionValues(a.value, b.value)),
    }))
    .sort((a, b) => a.label.localeCompare(b.label, "en") || (a.key < b.key ? -1 : 1));
}
