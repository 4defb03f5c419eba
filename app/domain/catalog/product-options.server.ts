import type { Database } from "../../db/database.server.ts";
import { type ProductOption, parseOption } from "../../lib/variants.ts";

/** The options of these products, each product's in position order (none: a product without options). */
export async function optionsOfProducts(
  db: Database,
  productIds: readonly number[],
): Promise<Map<number, ProductOption[]>> {
  const byProduct = new Map<number, ProductOption[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .selectFrom("productOptions")
    .select(["productId", "position", "name", "optionValues"])
    .where("productId", "in", [...new Set(productIds)])
    .orderBy("productId")
    .orderBy("position")
    .execute();
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push(parseOption(row));
    byProduct.set(row.productId, list);
  }
  return byProduct;
}
