import type { Transaction } from "kysely";
import type { Database } from "../../../db/database.server.ts";
import type { DB } from "../../../db/schema.ts";
import { parseOption } from "../../../lib/variants.ts";

/** ids, slugs or SKUs per `in (…)` lookup, well under either engine's parameter limit */
export const LOOKUP_CHUNK = 500;

export interface StoredVariants {
  options: { name: string; values: string[] }[];
  /** live, by position */
  variants: {
    sku: string;
    values: string[];
    priceCents: number;
    originalPriceCents: number | null;
    stock: number;
    barcode: string | null;
    weightGrams: number;
  }[];
}

/** The options and live variants of these products (the import compares with them, the export writes them). */
export async function storedVariants(
  trx: Database | Transaction<DB>,
  productIds: number[],
): Promise<Map<number, StoredVariants>> {
  const byProduct = new Map<number, StoredVariants>();
  const of = (id: number) => {
    const entry = byProduct.get(id) ?? { options: [], variants: [] };
    byProduct.set(id, entry);
    return entry;
  };
  for (let i = 0; i < productIds.length; i += LOOKUP_CHUNK) {
    const chunk = productIds.slice(i, i + LOOKUP_CHUNK);
    const options = await trx
      .selectFrom("productOptions")
      .select(["productId", "position", "name", "optionValues"])
      .where("productId", "in", chunk)
      .orderBy("productId")
      .orderBy("position")
      .execute();
    for (const row of options) {
      const { name, values } = parseOption(row);
      of(row.productId).options.push({ name, values });
    }
    const variants = await trx
      .selectFrom("productVariants")
      .select([
        "productId",
        "sku",
        "option1",
        "option2",
        "option3",
        "priceCents",
        "originalPriceCents",
        "stock",
        "barcode",
        "weightGrams",
      ])
      .where("productId", "in", chunk)
      .where("archivedAt", "is", null)
      .orderBy("productId")
      .orderBy("position")
      .orderBy("id")
      .execute();
    for (const { productId, option1, option2, option3, ...variant } of variants) {
      const values = [option1, option2, option3].filter((v): v is string => v !== null);
      of(productId).variants.push({ ...variant, values });
    }
  }
  return byProduct;
}
