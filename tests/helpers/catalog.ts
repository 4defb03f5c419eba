import type { Database } from "../../app/db/database.server.ts";
import type { NewProduct } from "../../app/db/schema.ts";

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

/** Inserts a valid product (category "electronics" / "audio" unless overridden) and returns its id. */
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
  const { id } = await db.insertInto("products").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
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
