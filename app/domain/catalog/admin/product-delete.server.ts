import { z } from "zod";
import { CONFIRM_VALUE } from "../../../lib/confirm.ts";
import { productInputOf as auditSnapshot } from "../../../lib/product-input.ts";
import { PRODUCT_LIMITS, STOCK_TEXT } from "../../../lib/product-limits.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { recordProductEvent } from "../../integrations/webhook-outbox.server.ts";
import { setStockLevels } from "../../inventory/inventory.server.ts";
import { type ProductDeps as Deps, deleteUnreferencedFiles } from "./product-images.server.ts";
import { getAdminProduct } from "./product-list.server.ts";
import { PRODUCT_BULK_ACTIONS } from "./product-list-query.ts";

/**
 * Deleting a product, or archiving one that orders contain; its files go after the commit.
 * Every change runs in one transaction together with its audit entry. The catalogue's search
 * index and facet/price-band tables follow through their triggers (migrations 0200, 0310, 0320),
 * so the storefront reflects every change at once.
 */

export type DeleteResult = Result<"deleted" | "archived", { code: "not-found" }>;

/** The delete form (the confirm step's, or the browser dialog's): only a confirmed post deletes. */
export const deleteProductSchema = z.object({ confirm: z.literal(CONFIRM_VALUE) });

/**
 * Deletes a product — or, when any order contains it, archives it: the order keeps its snapshot,
 * the storefront and carts stop offering it. Image files go only after the delete has committed.
 */
export async function deleteProduct(
  { db, files }: Deps,
  { id, actor, now = new Date() }: { id: number; actor: Actor; now?: Date },
): Promise<DeleteResult> {
  const before = await getAdminProduct(db, id);
  if (!before || before.archivedAt) return fail({ code: "not-found" });
  const outcome = await db.transaction().execute(async (trx) => {
    const ordered = await trx
      .selectFrom("orderItems")
      .select("id")
      .where("productId", "=", id)
      .limit(1)
      .executeTakeFirst();
    const snapshot = { ...auditSnapshot(before), slug: before.slug, images: before.images.map((i) => i.key) };
    if (ordered) {
      await trx
        .updateTable("products")
        .set({ archivedAt: now.toISOString(), updatedAt: now.toISOString() })
        .where("id", "=", id)
        .execute();
      await recordAudit(trx, {
        actor,
        action: "product.archive",
        entityType: "product",
        entityId: id,
        summary: `Archived product "${before.name}" (it appears in orders)`,
        before: snapshot,
        after: { archivedAt: now.toISOString() },
        now,
      });
      await recordProductEvent(trx, "product.deleted", { productId: id, at: now });
      return "archived" as const;
    }
    // the stock its variants hold leaves the books with them
    const variants = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("productId", "=", id)
      .execute();
    await setStockLevels(
      trx,
      variants.map((v) => ({ variantId: v.id, level: 0 })),
      { reason: "variant_removed", actor: actor.id, now },
    );
    // its event read from its row before the row goes
    await recordProductEvent(trx, "product.deleted", { productId: id, deleted: true, at: now });
    await trx.deleteFrom("products").where("id", "=", id).execute();
    await recordAudit(trx, {
      actor,
      action: "product.delete",
      entityType: "product",
      entityId: id,
      summary: `Deleted product "${before.name}"`,
      before: snapshot,
      now,
    });
    return "deleted" as const;
  });
  if (outcome === "deleted") await deleteUnreferencedFiles(db, files, before.images);
  return ok(outcome);
}

/** The product list's bulk form: archive, unarchive or set the stock of the selected products. */
export const bulkProductsSchema = z.object({
  intent: z.enum(PRODUCT_BULK_ACTIONS),
  /** set-stock's level: a whole number from 0 (checked by the route for that intent) */
  stock: z
    .string()
    .trim()
    .regex(STOCK_TEXT)
    .transform(Number)
    .pipe(z.number().max(PRODUCT_LIMITS.stock))
    .optional()
    // a wrong level is the route's to answer beside the field, not a refused selection
    .catch(undefined),
  // one checked box posts one value, several post an array
  id: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.coerce.number().int().positive()).min(1).max(200),
  ),
});

/**
 * Archives the selected live products (the storefront and carts stop offering them; orders keep
 * their snapshots) or puts archived ones back on sale, one transaction with an audit entry per
 * product. Returns how many changed (ids already in that state, or unknown, are skipped).
 */
export async function setProductsArchived(
  db: Deps["db"],
  {
    ids,
    archived,
    actor,
    now = new Date(),
  }: { ids: readonly number[]; archived: boolean; actor: Actor; now?: Date },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("products")
      .select(["id", "name"])
      .where("id", "in", [...new Set(ids)])
      .where("archivedAt", archived ? "is" : "is not", null)
      .orderBy("id")
      .execute();
    if (rows.length === 0) return 0;
    await trx
      .updateTable("products")
      .set({ archivedAt: archived ? now.toISOString() : null, updatedAt: now.toISOString() })
      .where(
        "id",
        "in",
        rows.map((row) => row.id),
      )
      .execute();
    for (const row of rows) {
      await recordAudit(trx, {
        actor,
        action: archived ? "product.archive" : "product.unarchive",
        entityType: "product",
        entityId: row.id,
        summary: `${archived ? "Archived" : "Put back on sale"} product "${row.name}" (bulk)`,
        after: { archivedAt: archived ? now.toISOString() : null },
        now,
      });
      // archived: gone from the shop (product.deleted, status archived); back on sale: updated
      await recordProductEvent(trx, archived ? "product.deleted" : "product.updated", {
        productId: row.id,
        at: now,
      });
    }
    return rows.length;
  });
}

/**
 * Sets the stock of the selected live products sold without options (one variant) to `stock`,
 * one transaction with an audit entry per product whose level changed. A product sold in
 * variants is left alone: its stock is set per variant. Returns what changed and what was skipped.
 */
export async function setProductsStock(
  db: Deps["db"],
  {
    ids,
    stock,
    actor,
    now = new Date(),
  }: { ids: readonly number[]; stock: number; actor: Actor; now?: Date },
): Promise<{ changed: number; inVariants: number }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("products")
      .innerJoin("productVariants", "productVariants.productId", "products.id")
      .select(["products.id", "products.name", "productVariants.id as variantId"])
      .where("products.id", "in", [...new Set(ids)])
      .where("products.archivedAt", "is", null)
      .where("productVariants.archivedAt", "is", null)
      .orderBy("products.id")
      .execute();
    const variantsOf = new Map<number, typeof rows>();
    for (const row of rows) variantsOf.set(row.id, [...(variantsOf.get(row.id) ?? []), row]);
    let inVariants = 0;
    const levels: { variantId: number; level: number }[] = [];
    const nameOf = new Map<number, string>();
    for (const variants of variantsOf.values()) {
      const [only] = variants;
      if (variants.length !== 1 || !only) {
        inVariants++;
        continue;
      }
      levels.push({ variantId: only.variantId, level: stock });
      nameOf.set(only.id, only.name);
    }
    // one call: every variant locked before any product (the inventory's lock order)
    const changes = await setStockLevels(trx, levels, { reason: "bulk_set", actor: actor.id, now });
    for (const change of changes) {
      await recordAudit(trx, {
        actor,
        action: "product.stock",
        entityType: "product",
        entityId: change.productId,
        summary: `Stock of "${nameOf.get(change.productId)}" set to ${stock} (was ${change.before})`,
        before: { stock: change.before },
        after: { stock },
        now,
      });
    }
    const changed = changes.length;
    return { changed, inVariants };
  });
}
