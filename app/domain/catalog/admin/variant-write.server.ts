import type { Database } from "../../../db/database.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { recordProductEvent } from "../../integrations/webhook-outbox.server.ts";
import { setStockLevels } from "../../inventory/inventory.server.ts";
import { syncProductSummary } from "../../inventory/product-summary.server.ts";

export type VariantRemovalResult = Result<
  { outcome: "deleted" | "archived"; sku: string },
  { code: "not-found" | "last-variant" }
>;

/**
 * Removes a variant from sale: deleted when no order line names it, else archived (its orders keep
 * showing what was bought; carts holding it show it as no longer available). A product keeps at
 * least one live variant. Its stock leaves with it (through the inventory); the product's summary
 * follows; audited.
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
    // what it holds leaves the books with it
    await setStockLevels(trx, [{ variantId, level: 0 }], { reason: "variant_removed", actor: actor.id, now });
    if (ordered) {
      await trx.updateTable("productVariants").set({ archivedAt: at }).where("id", "=", variantId).execute();
    } else {
      await trx.deleteFrom("productVariants").where("id", "=", variantId).execute();
    }
    await trx.updateTable("products").set({ updatedAt: at }).where("id", "=", productId).execute();
    await syncProductSummary(trx, productId);
    await recordProductEvent(trx, "product.updated", { productId, at });
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
