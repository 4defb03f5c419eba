import { deleteStoredImages } from "../../../adapters/images/image-upload.server.ts";
import { logger } from "../../../adapters/logger.server.ts";
import type { Database } from "../../../db/database.server.ts";
import {
  productInputOf as auditSnapshot,
  type ProductInput,
  productColumns,
} from "../../../lib/product-input.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { actorCan } from "../../../lib/staff-roles.ts";
import { type Actor, recordAudit, type StaffActor } from "../../audit/audit-log.server.ts";
import { recordProductEvent } from "../../integrations/webhook-outbox.server.ts";
import { adjustStockLevel, setStockLevels } from "../../inventory/inventory.server.ts";
import { syncProductSummary } from "../../inventory/product-summary.server.ts";
import { slugify } from "./product-form.ts";
import {
  type ProductDeps as Deps,
  processUploads,
  type Upload,
  type UploadRefusal,
} from "./product-images.server.ts";
import { getAdminProduct } from "./product-list.server.ts";
import { insertDefaultVariant } from "./product-variants.server.ts";

/**
 * Adding a product (with its images) and saving its fields; stock changes by a guarded delta
 * through the inventory area. Every change runs in one transaction together with its audit entry.
 * The catalogue's search index and facet/price-band tables follow through their triggers
 * (migrations 0200, 0310, 0320), so the storefront reflects every change at once.
 */

async function uniqueSlug(db: Database, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (
      await db
        .selectFrom("products")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export type CreateProductResult = Result<{ id: number; slug: string }, UploadRefusal | { code: "failed" }>;

/** Adds a product with its images (rating 0, reviews 0, createdAt now), or nothing at all. */
export async function createProduct(
  deps: Deps,
  {
    input,
    uploads,
    actor,
    now = new Date(),
  }: { input: ProductInput; uploads: Upload[]; actor: Actor; now?: Date },
): Promise<CreateProductResult> {
  const { db, files } = deps;
  const processed = await processUploads(deps, uploads);
  if (!processed.ok) return processed;
  const images = { stored: processed.value };
  try {
    const at = now.toISOString();
    const result = await db.transaction().execute(async (trx) => {
      const slug = await uniqueSlug(trx, input.name);
      const { id } = await trx
        .insertInto("products")
        .values({
          ...productColumns(input),
          // its one variant's, brought in by the inventory below
          stock: 0,
          slug,
          rating: 0,
          reviewCount: 0,
          createdAt: at,
          updatedAt: at,
          archivedAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await insertDefaultVariant(
        trx,
        id,
        { ...input, weightGrams: input.weightGrams ?? 0 },
        { reason: "admin_set", actor: actor.id, now },
      );
      await trx
        .insertInto("productImages")
        .values(
          images.stored.map((image, position) => ({
            productId: id,
            position,
            key: image.key,
            alt: `${input.name}, image ${position + 1}`,
            width: image.width,
            height: image.height,
            widths: JSON.stringify(image.widths),
          })),
        )
        .execute();
      await recordAudit(trx, {
        actor,
        action: "product.create",
        entityType: "product",
        entityId: id,
        summary: `Added product "${input.name}"`,
        after: {
          ...auditSnapshot(input),
          weightGrams: input.weightGrams ?? 0,
          slug,
          images: images.stored.map((i) => i.key),
        },
        now,
      });
      await recordProductEvent(trx, "product.created", { productId: id, at: now });
      return { id, slug };
    });
    return ok(result);
  } catch (error) {
    logger.error({ err: error }, "product insert failed");
    await deleteStoredImages(files, images.stored);
    return fail({ code: "failed" });
  }
}

export type UpdateResult = Result<void, { code: "not-found" | "priced-per-variant" | "weighed-per-variant" }>;

/**
 * Saves every editable field; the audit entry carries the fields before and after. The price and
 * the weight given are the one variant's of a product without options; a product sold in several
 * variants keeps theirs (a changed price, or any weight, is refused: they are set per variant).
 */
export async function updateProduct(
  db: Database,
  { id, input, actor, now = new Date() }: { id: number; input: ProductInput; actor: Actor; now?: Date },
): Promise<UpdateResult> {
  const before = await getAdminProduct(db, id);
  if (!before || before.archivedAt) return fail({ code: "not-found" });
  // a product sold in variants shows its cheapest variant's price: changing it here would be ignored
  if (
    before.variants.length > 1 &&
    (input.priceCents !== before.priceCents || input.originalPriceCents !== before.originalPriceCents)
  ) {
    return fail({ code: "priced-per-variant" });
  }
  if (before.variants.length > 1 && input.weightGrams !== null) return fail({ code: "weighed-per-variant" });
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("products")
      .set({ ...productColumns(input), updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    // the form's price is the one variant's of a product without options; a product with
    // options keeps its variants' prices (the summary is theirs)
    const variants = await liveVariants(trx, id);
    if (variants.length === 1) {
      await trx
        .updateTable("productVariants")
        .set({
          priceCents: input.priceCents,
          originalPriceCents: input.originalPriceCents,
          ...(input.weightGrams === null ? {} : { weightGrams: input.weightGrams }),
        })
        .where("id", "=", variants[0]!.id)
        .execute();
    }
    await syncProductSummary(trx, id);
    const { stock: _stockBefore, ...beforeFields } = auditSnapshot(before);
    const { stock: _stockAfter, ...afterFields } = auditSnapshot(input);
    await recordAudit(trx, {
      actor,
      action: "product.update",
      entityType: "product",
      entityId: id,
      summary: `Edited product "${input.name}"`,
      before: beforeFields,
      // a weight not given is the one kept
      after: { ...afterFields, weightGrams: input.weightGrams ?? before.weightGrams },
      now,
    });
    await recordProductEvent(trx, "product.updated", { productId: id, at: now });
  });
  return ok(undefined);
}

export type StockResult = Result<
  { before: number; after: number },
  { code: "forbidden" | "not-found" | "negative" | "choose-variant" }
>;

/** A product's live variants, in their order. */
async function liveVariants(db: Database, productId: number) {
  return db
    .selectFrom("productVariants")
    .select(["id", "stock"])
    .where("productId", "=", productId)
    .where("archivedAt", "is", null)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/**
 * Changes a variant's stock by `delta` (negative to take away) with a guarded update, so a sale
 * happening at the same moment is never overwritten and stock never goes below 0. Without a
 * variant named, the product's only one (a product with several: `choose-variant`). The actor
 * needs the `products` permission (a staff role, or an API key's products:write).
 */
export async function adjustStock(
  db: Database,
  {
    id,
    variantId,
    delta,
    actor,
    now = new Date(),
  }: { id: number; variantId?: number; delta: number; actor: StaffActor; now?: Date },
): Promise<StockResult> {
  if (!actorCan(actor, "products")) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx): Promise<StockResult> => {
    const product = await trx
      .selectFrom("products")
      .select(["name"])
      .where("id", "=", id)
      .where("archivedAt", "is", null)
      .executeTakeFirst();
    if (!product) return fail({ code: "not-found" });
    const variants = await liveVariants(trx, id);
    const variant =
      variantId === undefined
        ? variants.length === 1
          ? variants[0]
          : null
        : variants.find((v) => v.id === variantId);
    if (variant === null) return fail({ code: "choose-variant" });
    if (!variant) return fail({ code: "not-found" });
    const moved = await adjustStockLevel(
      trx,
      { variantId: variant.id, delta },
      { reason: "admin_adjust", actor: actor.id, now },
    );
    if (!moved.ok) return fail({ code: "negative" });
    const row = { name: product.name, stock: moved.value.before };
    const after = moved.value.after;
    await recordAudit(trx, {
      actor,
      action: "product.stock",
      entityType: "product",
      entityId: id,
      summary: `Stock of "${row.name}" ${delta >= 0 ? "+" : ""}${delta} (${row.stock} → ${after})`,
      before: { stock: row.stock },
      after: { stock: after },
      now,
    });
    return ok({ before: row.stock, after });
  });
}

export type StockLevelsResult = Result<
  { changed: { sku: string; before: number; after: number }[]; unchanged: string[] },
  { code: "forbidden" } | { code: "unknown-skus"; skus: string[] }
>;

/**
 * Sets live variants' stock to the levels counted (a warehouse's count, by SKU): every level read
 * under its row lock and written in one transaction with an audit entry per variant changed — all
 * or nothing: an SKU the shop does not sell refuses the whole count. The actor needs the
 * `products` permission.
 */
export async function setStockBySku(
  db: Database,
  {
    levels,
    actor,
    now = new Date(),
  }: { levels: readonly { sku: string; stock: number }[]; actor: StaffActor; now?: Date },
): Promise<StockLevelsResult> {
  if (!actorCan(actor, "products")) return fail({ code: "forbidden" });
  const wanted = new Map(levels.map((level) => [level.sku, level.stock]));
  if (wanted.size === 0) return ok({ changed: [], unchanged: [] });
  return db.transaction().execute(async (trx): Promise<StockLevelsResult> => {
    const rows = await trx
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select(["productVariants.id", "productVariants.sku", "products.name"])
      .where("productVariants.sku", "in", [...wanted.keys()])
      .where("productVariants.archivedAt", "is", null)
      .where("products.archivedAt", "is", null)
      .execute();
    const found = new Map(rows.map((row) => [row.sku, row]));
    const unknown = [...wanted.keys()].filter((sku) => !found.has(sku));
    if (unknown.length > 0) return fail({ code: "unknown-skus", skus: unknown });
    const changes = await setStockLevels(
      trx,
      rows.map((row) => ({ variantId: row.id, level: wanted.get(row.sku)! })),
      { reason: "admin_set", actor: actor.id, now },
    );
    const byVariant = new Map(rows.map((row) => [row.id, row]));
    for (const change of changes) {
      const row = byVariant.get(change.variantId)!;
      await recordAudit(trx, {
        actor,
        action: "product.stock",
        entityType: "product",
        entityId: change.productId,
        summary: `Stock of "${row.name}" (${row.sku}) set to ${change.after} (was ${change.before})`,
        before: { sku: row.sku, stock: change.before },
        after: { sku: row.sku, stock: change.after },
        now,
      });
    }
    const changedIds = new Set(changes.map((change) => change.variantId));
    return ok({
      changed: changes.map((change) => ({
        sku: byVariant.get(change.variantId)!.sku,
        before: change.before,
        after: change.after,
      })),
      unchanged: rows.filter((row) => !changedIds.has(row.id)).map((row) => row.sku),
    });
  });
}
