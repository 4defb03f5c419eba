import type { Selectable } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { VariantOptionValuesTable } from "../../db/schema.ts";
import { discountPercent } from "../../lib/money.ts";
import { optionFacetKey, optionValueKey } from "../../lib/variants.ts";

/**
 * The product row's summary of its variants (decision 019), kept like the catalogue's counts are
 * kept by triggers — a rule of the data, not of one screen: whoever writes a variant's price,
 * original price or archived state calls `syncProductSummary` in the same transaction (stock is
 * written only by the inventory area, inventory.server.ts, which calls it itself).
 * The listing, its facets, the price bands and the search index read the summary:
 * - price and original price: the cheapest live variant's ("from $X" when the variants differ);
 * - discount: the best one among the live variants (the card's badge);
 * - stock: the live variants' summed stock (0: "Out of Stock" everywhere).
 */
export async function syncProductSummary(db: Database, productId: number): Promise<void> {
  const [variants, options] = await Promise.all([
    db
      .selectFrom("productVariants")
      .select(["id", "priceCents", "originalPriceCents", "stock", "option1", "option2", "option3"])
      .where("productId", "=", productId)
      .where("archivedAt", "is", null)
      .orderBy("priceCents")
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("productOptions")
      .select(["position", "name"])
      .where("productId", "=", productId)
      .orderBy("position")
      .execute(),
  ]);
  const cheapest = variants[0];
  if (!cheapest) return; // a product always keeps one live variant; nothing to summarise otherwise
  const discounts = variants
    .map((v) => discountPercent(v.priceCents, v.originalPriceCents))
    .filter((d): d is number => d !== null);
  const facets = optionFacets(options, variants);
  const summary = {
    priceCents: cheapest.priceCents,
    originalPriceCents: cheapest.originalPriceCents,
    discountPercentage: discounts.length > 0 ? Math.max(...discounts) : null,
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
    optionText: facets.optionText,
    variantFacets: facets.variantFacets,
  };
  await db
    .updateTable("products")
    .set(summary)
    .where("id", "=", productId)
    .where((eb) =>
      eb.or([
        eb("priceCents", "!=", summary.priceCents),
        eb("stock", "!=", summary.stock),
        eb("optionText", "!=", summary.optionText),
        eb("variantFacets", "!=", summary.variantFacets),
        summary.originalPriceCents === null
          ? eb("originalPriceCents", "is not", null)
          : eb.or([
              eb("originalPriceCents", "is", null),
              eb("originalPriceCents", "!=", summary.originalPriceCents),
            ]),
        summary.discountPercentage === null
          ? eb("discountPercentage", "is not", null)
          : eb.or([
              eb("discountPercentage", "is", null),
              eb("discountPercentage", "!=", summary.discountPercentage),
            ]),
      ]),
    )
    .execute();
  await syncOptionValues(db, productId, facets.rows);
}

type OptionValueRow = Selectable<VariantOptionValuesTable>;

/**
 * What the listing's option facets and the search read of a product's live variants: a row per
 * variant and option (variant_option_values), the distinct values as searchable text, and the
 * live variants as lines of "cents\tname\u001fvalue…" for the search index ("!cents" when out of
 * stock; nothing for a product without options; migration 1300).
 */
export function optionFacets(
  options: readonly { position: number; name: string }[],
  variants: readonly {
    id: number;
    priceCents: number;
    stock: number;
    option1: string | null;
    option2: string | null;
    option3: string | null;
  }[],
): { rows: OptionValueRow[]; optionText: string; variantFacets: string } {
  const rows: OptionValueRow[] = [];
  const words = new Set<string>();
  const lines: string[] = [];
  for (const variant of [...variants].sort((a, b) => a.id - b.id)) {
    const pairs: string[] = [];
    for (const option of options) {
      const value = [variant.option1, variant.option2, variant.option3][option.position - 1];
      if (!value) continue;
      words.add(value);
      // every option (the index searches the values of those that are not facets too)
      pairs.push(`${facetText(option.name)}\u001f${facetText(value)}`);
      const key = optionFacetKey(option.name);
      if (key === null) continue;
      rows.push({
        variantId: variant.id,
        productId: 0,
        optionKey: key,
        valueKey: optionValueKey(value),
        optionName: option.name,
        optionValue: value,
      });
    }
    if (options.length > 0) {
      lines.push([`${variant.stock > 0 ? "" : "!"}${variant.priceCents}`, ...pairs].join("\t"));
    }
  }
  return { rows, optionText: [...words].join(" "), variantFacets: lines.join("\n") };
}

/** An option's name or value inside a variant_facets line: no tab, line break or unit separator. */
const facetText = (text: string) =>
  text.replaceAll("\t", " ").replaceAll("\n", " ").replaceAll("\u001f", " ");

const rowKey = (r: OptionValueRow) =>
  [r.variantId, r.optionKey, r.valueKey, r.optionName, r.optionValue].join("\u0000");

/** The product's variant_option_values made `rows`, writing only when they differ. */
async function syncOptionValues(db: Database, productId: number, rows: OptionValueRow[]) {
  const stored = await db
    .selectFrom("variantOptionValues")
    .selectAll()
    .where("productId", "=", productId)
    .execute();
  const want = new Set(rows.map(rowKey));
  if (stored.length === rows.length && stored.every((r) => want.has(rowKey(r)))) return;
  await db.deleteFrom("variantOptionValues").where("productId", "=", productId).execute();
  if (rows.length > 0) {
    await db
      .insertInto("variantOptionValues")
      .values(rows.map((r) => ({ ...r, productId })))
      .execute();
  }
}
