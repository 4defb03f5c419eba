import type { Database } from "../../app/db/database.server.ts";
import type { NewProduct } from "../../app/db/schema.ts";
import { insertDefaultVariant } from "../../app/domain/catalog/admin/product-variants.server.ts";
import { type StockMovement, setStockLevels } from "../../app/domain/inventory/inventory.server.ts";
import { syncProductSummary } from "../../app/domain/inventory/product-summary.server.ts";

/** A test's stock comes in like the shop's own: through the inventory, as opening balances. */
const OPENING: StockMovement = { reason: "opening_balance", actor: "system" };

let sequence = 0;

/** A category and (optionally) a subcategory under it; safe to call repeatedly. */
export async function ensureCategory(
  db: Database,
  id: string,
  parentId: string | null = null,
): Promise<void> {
  await db
    .insertInto("categories")
    .values({ id, name: id, parentId, position: 0 })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/**
 * Inserts a valid product (category "electronics" / "audio" unless overridden) with its one
 * default variant carrying the price and stock (brought in by the inventory: the stock ledger
 * balances), and returns its id.
 */
export async function insertProduct(db: Database, overrides: Partial<NewProduct> = {}): Promise<number> {
  sequence++;
  await ensureCategory(db, "electronics");
  await ensureCategory(db, "audio", "electronics");
  const now = new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString();
  const row: NewProduct = {
    slug: `test-product-${sequence}-${Math.random().toString(36).slice(2, 8)}`,
    name: `Test Product ${sequence}`,
    description: "A plain test product.",
    brand: "Testbrand",
    categoryId: "electronics",
    subcategoryId: "audio",
    priceCents: 1000,
    originalPriceCents: null,
    discountPercentage: null,
    rating: 4,
    reviewCount: 1,
    stock: 5,
    specifications: "{}",
    featured: 0,
    newArrival: 0,
    bestSeller: 0,
    createdAt: now,
    updatedAt: now,
    archivedAt: null,
    ...overrides,
  };
  const { id } = await db
    .insertInto("products")
    .values({ ...row, stock: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  await insertDefaultVariant(
    db,
    id,
    { priceCents: row.priceCents, originalPriceCents: row.originalPriceCents ?? null, stock: row.stock ?? 0 },
    // at the product's own time, so its updated_at stays what the test gave it
    { ...OPENING, now: new Date(row.updatedAt) },
  );
  return id;
}

/**
 * Sets what a test product's default variant sells for or has in stock (as the admin would: the
 * stock through the inventory), and the product's summary with it.
 */
export async function setVariantFields(
  db: Database,
  productId: number,
  { stock, ...prices }: { stock?: number; priceCents?: number; originalPriceCents?: number | null },
): Promise<void> {
  if (Object.keys(prices).length > 0) {
    await db.updateTable("productVariants").set(prices).where("productId", "=", productId).execute();
  }
  if (stock !== undefined) {
    const variants = await db
      .selectFrom("productVariants")
      .select("id")
      .where("productId", "=", productId)
      .execute();
    await setStockLevels(
      db,
      variants.map((v) => ({ variantId: v.id, level: stock })),
      { reason: "admin_set", actor: "system" },
    );
  }
  await syncProductSummary(db, productId);
}

export async function insertImage(
  db: Database,
  productId: number,
  position: number,
  key = `products/p${productId}-${position}`,
): Promise<string> {
  await db
    .insertInto("productImages")
    .values({
      productId,
      position,
      key,
      alt: `image ${position} of ${productId}`,
      width: 960,
      height: 960,
      widths: "[320,640,960]",
    })
    .execute();
  return key;
}

/** A test product's (first) variant id. */
export async function defaultVariantOf(db: Database, productId: number): Promise<number> {
  const row = await db
    .selectFrom("productVariants")
    .select("id")
    .where("productId", "=", productId)
    .orderBy("position")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Inserts a product with options (e.g. Size: S, M) and one variant per given combination, its
 * summary written as the shop writes it; returns the product id and the variant ids in order.
 */
export async function insertProductWithVariants(
  db: Database,
  {
    options,
    variants,
    ...overrides
  }: Partial<NewProduct> & {
    options: { name: string; values: string[] }[];
    variants: {
      values: string[];
      sku: string;
      priceCents: number;
      originalPriceCents?: number | null;
      stock: number;
    }[];
  },
): Promise<{ productId: number; variantIds: number[] }> {
  const productId = await insertProduct(db, { ...overrides, stock: 0 });
  await db.deleteFrom("productVariants").where("productId", "=", productId).execute();
  await db
    .insertInto("productOptions")
    .values(
      options.map((option, i) => ({
        productId,
        position: i + 1,
        name: option.name,
        optionValues: JSON.stringify(option.values),
      })),
    )
    .execute();
  const variantIds: number[] = [];
  for (const [position, variant] of variants.entries()) {
    const { id } = await db
      .insertInto("productVariants")
      .values({
        productId,
        sku: variant.sku,
        option1: variant.values[0] ?? null,
        option2: variant.values[1] ?? null,
        option3: variant.values[2] ?? null,
        priceCents: variant.priceCents,
        originalPriceCents: variant.originalPriceCents ?? null,
        stock: 0,
        position,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    variantIds.push(id);
  }
  await setStockLevels(
    db,
    variants.map((variant, i) => ({ variantId: variantIds[i]!, level: variant.stock })),
    OPENING,
  );
  await syncProductSummary(db, productId);
  return { productId, variantIds };
}

/**
 * Deletes test products as if they had never been: their variants' stock movements go with them,
 * so the shop's stock ledger still balances (the shop itself archives, never deletes, a product).
 */
export async function deleteProducts(db: Database, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("stockMovements").where("productId", "in", productIds).execute();
    await trx.deleteFrom("products").where("id", "in", productIds).execute();
  });
}
