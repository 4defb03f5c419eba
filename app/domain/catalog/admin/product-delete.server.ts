import { z } from "zod";
import { CONFIRM_VALUE } from "../../../lib/confirm.ts";
import { productInputOf as auditSnapshot } from "../../../lib/product-input.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { type ProductDeps as Deps, deleteUnreferencedFiles } from "./product-images.server.ts";
import { getAdminProduct } from "./product-list.server.ts";

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
      return "archived" as const;
    }
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
