import { discountPercent } from "../lib/money.ts";
import type { Database } from "./database.server.ts";

/**
 * The product row's summary of its variants (decision 019), kept like the catalogue's counts are
 * kept by triggers — a rule of the data, not of one screen: whoever writes a variant's price,
 * original price, stock or archived state calls `syncProductSummary` in the same transaction.
 * The listing, its facets, the price bands and the search index read the summary:
 * - price and original price: the cheapest live variant's ("from $X" when the variants differ);
 * - discount: the best one among the live variants (the card's badge);
 * - stock: the live variants' summed stock (0: "Out of Stock" everywhere).
 */
export async function syncProductSummary(db: Database, productId: number): Promise<void> {
  const variants = await db
    .selectFrom("productVariants")
    .select(["priceCents", "originalPriceCents", "stock"])
    .where("productId", "=", productId)
    .where("archivedAt", "is", null)
    .orderBy("priceCents")
    .orderBy("position")
    .orderBy("id")
    .execute();
  const cheapest = variants[0];
  if (!cheapest) return; // a product always keeps one live variant; nothing to summarise otherwise
  const discounts = variants
    .map((v) => discountPercent(v.priceCents, v.originalPriceCents))
    .filter((d): d is number => d !== null);
  const summary = {
    priceCents: cheapest.priceCents,
    originalPriceCents: cheapest.originalPriceCents,
    discountPercentage: discounts.length > 0 ? Math.max(...discounts) : null,
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
  };
  await db
    .updateTable("products")
    .set(summary)
    .where("id", "=", productId)
    .where((eb) =>
      eb.or([
        eb("priceCents", "!=", summary.priceCents),
        eb("stock", "!=", summary.stock),
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
}

/** The SKU a product's default variant gets unless one is given: unique, since product ids are. */
export function defaultSku(productId: number): string {
  return `CW-${productId}`;
}

/**
 * The one variant of a product without options, carrying the price and stock the product row
 * was written with (its summary is then already right).
 */
export async function insertDefaultVariant(
  db: Database,
  productId: number,
  {
    priceCents,
    originalPriceCents,
    stock,
    sku = defaultSku(productId),
  }: { priceCents: number; originalPriceCents: number | null; stock: number; sku?: string },
): Promise<number> {
  const { id } = await db
    .insertInto("productVariants")
    .values({
      productId,
      sku,
      option1: null,
      option2: null,
      option3: null,
      priceCents,
      originalPriceCents,
      stock,
      barcode: null,
      imageId: null,
      position: 0,
      archivedAt: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}
