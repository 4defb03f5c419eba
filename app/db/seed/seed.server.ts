import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { FileStore } from "../../adapters/files/file-store.ts";
import { IMAGE_WIDTHS, renderWebpVariants, variantKey } from "../../adapters/images/images.server.ts";
import { insertDefaultVariant } from "../../domain/catalog/admin/product-variants.server.ts";
import { type StockMovement, setStockLevels } from "../../domain/inventory/inventory.server.ts";
import { syncProductSummary } from "../../domain/inventory/product-summary.server.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import { productColumns, productInputOf, productInputSchema } from "../../lib/product-input.ts";
import { type Database, engineOf } from "../database.server.ts";
import { DEMO_PRODUCTS, type DemoProduct } from "./demo-catalog.ts";
import { seedDemoCoupons } from "./demo-coupons.ts";
import { seedDemoReviews } from "./demo-reviews.ts";
import { drawProductSvg } from "./product-art.ts";

const DAY_MS = 86_400_000;

/** The key of the seed's advisory lock on PostgreSQL: any number, the same in every process. */
const SEED_LOCK_KEY = 4_207_313_001;

/**
 * Runs `work` (check for an empty catalogue, seed) under a lock, so processes started together on
 * one empty PostgreSQL database take turns (an advisory lock) and the later ones find the demo data
 * there instead of inserting it twice. On SQLite one process owns the file: callers in this
 * process take turns.
 */
export async function withSeedLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (engineOf(db) !== "postgres") {
    const turn = inProcessTurn.then(work);
    inProcessTurn = turn.then(
      () => {},
      () => {},
    );
    return turn;
  }
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${SEED_LOCK_KEY})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${SEED_LOCK_KEY})`.execute(connection);
    }
  });
}
let inProcessTurn: Promise<void> = Promise.resolve();

/** Categories and subcategories; safe to run any number of times. */
export async function seedCategories(db: Database): Promise<void> {
  const rows = CATEGORY_TREE.flatMap((category, position) => [
    { id: category.id, name: category.name, parentId: null, position },
    ...category.subcategories.map((s, i) => ({
      id: s.id,
      name: s.name,
      parentId: category.id,
      position: i,
    })),
  ]);
  // Parents first so the self-reference holds.
  for (const row of rows) {
    await db
      .insertInto("categories")
      .values(row)
      .onConflict((oc) =>
        oc.column("id").doUpdateSet({ name: row.name, parentId: row.parentId, position: row.position }),
      )
      .execute();
  }
}

/**
 * The demo catalogue: categories, the products of DEMO_PRODUCTS (the spec's 8 samples first), their
 * generated pictures, a few written reviews each and the demo coupons. Idempotent: a product whose
 * slug exists is left as it is (an admin may have edited it); reviews are added only to a demo
 * product that has none. Each product's stock comes in as an opening balance when it appeared.
 */
export async function seedDemoCatalog(
  db: Database,
  files: FileStore,
  now: Date = new Date(),
): Promise<{ created: number }> {
  await seedCategories(db);
  let created = 0;
  for (const product of DEMO_PRODUCTS) {
    const existing = await db
      .selectFrom("products")
      .select("id")
      .where("slug", "=", product.slug)
      .executeTakeFirst();
    if (existing) continue;
    const images = await drawImages(product, files);
    await db.transaction().execute(async (trx) => {
      const row = toProductRow(product, now);
      const { id } = await trx.insertInto("products").values(row).returning("id").executeTakeFirstOrThrow();
      const opening = { ...OPENING, now: new Date(row.createdAt) };
      await insertDemoVariants(
        trx,
        id,
        product,
        { ...row, stock: product.stock, weightGrams: product.weightGrams },
        opening,
      );
      await trx
        .insertInto("productImages")
        .values(images.map((image, position) => ({ ...image, productId: id, position })))
        .execute();
    });
    created++;
  }
  // The latest written reviews of each demo product (only for products that have none yet).
  await seedDemoReviews(db, now);
  await seedDemoCoupons(db, now);
  return { created };
}

/** The demo's stock comes into the books as opening balances. */
const OPENING: StockMovement = { reason: "opening_balance", actor: "system" };

/**
 * A demo product's options and variants, or its one default variant, each starting empty with its
 * stock brought in by the inventory; the product's summary follows them. Each weighs what the
 * product says unless the variant says otherwise.
 */
async function insertDemoVariants(
  db: Database,
  productId: number,
  product: DemoProduct,
  row: { priceCents: number; originalPriceCents: number | null; stock: number; weightGrams: number },
  opening: StockMovement,
) {
  if (!product.options || !product.variants) {
    await insertDefaultVariant(db, productId, row, opening);
    return;
  }
  await db
    .insertInto("productOptions")
    .values(
      product.options.map((option, i) => ({
        productId,
        position: i + 1,
        name: option.name,
        optionValues: JSON.stringify(option.values),
      })),
    )
    .execute();
  const inserted = await db
    .insertInto("productVariants")
    .values(
      product.variants.map((variant, position) => ({
        productId,
        sku: variant.sku,
        option1: variant.values[0] ?? null,
        option2: variant.values[1] ?? null,
        option3: variant.values[2] ?? null,
        priceCents: variant.priceCents,
        originalPriceCents: variant.originalPriceCents,
        weightGrams: variant.weightGrams ?? product.weightGrams,
        stock: 0,
        position,
      })),
    )
    .returning(["id", "sku"])
    .execute();
  const stockOf = new Map(product.variants.map((variant) => [variant.sku, variant.stock]));
  const levels = inserted.map(({ id, sku }) => ({ variantId: id, level: stockOf.get(sku) ?? 0 }));
  await setStockLevels(db, levels, opening);
  await syncProductSummary(db, productId);
}

/** A demo product's row: its fields checked against the one product contract, as the admin form's are. */
function toProductRow(product: DemoProduct, now: Date) {
  const createdAt = new Date(now.getTime() - product.ageDays * DAY_MS).toISOString();
  return {
    slug: product.slug,
    ...productColumns(productInputSchema.parse(productInputOf(product))),
    // its variants' sum, brought in by the inventory with them
    stock: 0,
    rating: product.rating,
    reviewCount: product.reviewCount,
    createdAt,
    updatedAt: createdAt,
  } as const;
}

async function drawImages(product: DemoProduct, files: FileStore) {
  const views = ["front view", "angled view", "detail view"];
  return Promise.all(
    views.map(async (view, variant) => {
      const key = `products/${product.slug}-${variant + 1}-${randomUUID().slice(0, 8)}`;
      const variants = await renderWebpVariants(drawProductSvg(product.art, variant));
      await Promise.all(variants.map((v) => files.put(variantKey(key, v.width), v.bytes, "image/webp")));
      const largest = variants[variants.length - 1]!;
      return {
        key,
        alt: `${product.name}, ${view}`,
        width: largest.width,
        height: largest.height,
        widths: JSON.stringify(IMAGE_WIDTHS),
      };
    }),
  );
}

export async function isCatalogEmpty(db: Database): Promise<boolean> {
  const row = await db.selectFrom("products").select("id").limit(1).executeTakeFirst();
  return row === undefined;
}
