import type { Database } from "../../../db/database.server.ts";
import { syncProductSummary } from "../../../db/variant-summary.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";

export interface VariantChange {
  productId: number;
  variantId: number;
  priceCents: number;
  originalPriceCents: number | null;
  /** added to the stock (negative takes away); 0 leaves it */
  stockDelta: number;
}

export type VariantChangeResult = Result<
  { sku: string; stockBefore: number; stockAfter: number },
  { code: "not-found" | "negative" }
>;

/**
 * Sets a variant's price and original price and changes its stock by a delta with a guarded
 * update (a sale at the same moment is never overwritten, stock never goes below 0); the product's
 * summary follows, and the audit log keeps before and after.
 */
export async function updateVariant(
  db: Database,
  change: VariantChange,
  actor: Actor,
  now: Date = new Date(),
): Promise<VariantChangeResult> {
  return db.transaction().execute(async (trx): Promise<VariantChangeResult> => {
    const before = await trx
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select([
        "productVariants.sku",
        "productVariants.priceCents",
        "productVariants.originalPriceCents",
        "productVariants.stock",
        "products.name",
      ])
      .where("productVariants.id", "=", change.variantId)
      .where("productVariants.productId", "=", change.productId)
      .where("productVariants.archivedAt", "is", null)
      .where("products.archivedAt", "is", null)
      .executeTakeFirst();
    if (!before) return fail({ code: "not-found" });
    if (before.stock + change.stockDelta < 0) return fail({ code: "negative" });
    const updated = await trx
      .updateTable("productVariants")
      .set((eb) => ({
        priceCents: change.priceCents,
        originalPriceCents: change.originalPriceCents,
        stock: eb("stock", "+", change.stockDelta),
      }))
      .where("id", "=", change.variantId)
      .where("stock", ">=", -change.stockDelta)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return fail({ code: "negative" });
    const stockAfter = before.stock + change.stockDelta;
    await trx
      .updateTable("products")
      .set({ updatedAt: now.toISOString() })
      .where("id", "=", change.productId)
      .execute();
    await syncProductSummary(trx, change.productId);
    await recordAudit(trx, {
      actor,
      action: "product.variant",
      entityType: "product",
      entityId: change.productId,
      summary: `Variant ${before.sku} of "${before.name}": price ${before.priceCents} → ${change.priceCents}, stock ${before.stock} → ${stockAfter}`,
      before: {
        sku: before.sku,
        priceCents: before.priceCents,
        originalPriceCents: before.originalPriceCents,
        stock: before.stock,
      },
      after: {
        sku: before.sku,
        priceCents: change.priceCents,
        originalPriceCents: change.originalPriceCents,
        stock: stockAfter,
      },
      now,
    });
    return ok({ sku: before.sku, stockBefore: before.stock, stockAfter });
  });
}

export type VariantRemovalResult = Result<
  { outcome: "deleted" | "archived"; sku: string },
  { code: "not-found" | "last-variant" }
>;

/**
 * Removes a variant from sale: deleted when no order line names it, else archived (its orders keep
 * showing what was bought; carts holding it show it as no longer available). A product keeps at
 * least one live variant. The product's summary follows; audited.
 */
export async function removeVariant(
  db: Database,
  { productId, variantId }: { productId: number; variantId: number },
  actor: Actor,
  now: Date = new Date(),
): Promise<VariantRemovalResult> {
  return db.transaction().execute(async (trx): Promise<VariantRemovalResult> => {
    const live = await trx
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select(["productVariants.id", "productVariants.sku", "products.name"])
      .where("productVariants.productId", "=", productId)
      .where("productVariants.archivedAt", "is", null)
      .where("products.archivedAt", "is", null)
      .execute();
    const variant = live.find((v) => v.id === variantId);
    if (!variant) return fail({ code: "not-found" });
    if (live.length <= 1) return fail({ code: "last-variant" });
    const ordered = await trx
      .selectFrom("orderItems")
      .select("id")
      .where("variantId", "=", variantId)
      .limit(1)
      .executeTakeFirst();
    const at = now.toISOString();
    if (ordered) {
      await trx.updateTable("productVariants").set({ archivedAt: at }).where("id", "=", variantId).execute();
    } else {
      await trx.deleteFrom("productVariants").where("id", "=", variantId).execute();
    }
    await trx.updateTable("products").set({ updatedAt: at }).where("id", "=", productId).execute();
    await syncProductSummary(trx, productId);
    const outcome = ordered ? "archived" : "deleted";
    await recordAudit(trx, {
      actor,
      action: "product.variant",
      entityType: "product",
      entityId: productId,
      summary: `Variant ${variant.sku} of "${variant.name}" ${outcome}`,
      before: { sku: variant.sku },
      after: { sku: variant.sku, outcome },
      now,
    });
    return ok({ outcome, sku: variant.sku });
  });
}
