import type { FileStore } from "../../../adapters/files/file-store.ts";
import {
  deleteStoredImages,
  renderUpload,
  type StoredImage,
  storeRenderedUpload,
} from "../../../adapters/images/image-upload.server.ts";
import { logger } from "../../../adapters/logger.server.ts";
import type { Database } from "../../../db/database.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";

/**
 * A product's images: uploads checked, re-encoded and stored (before the transaction, removed
 * again if it fails: files cannot take part in a database transaction), reordered, added and
 * removed; files go only when no order line still shows them.
 */

export interface Upload {
  filename: string;
  bytes: Uint8Array;
}

export interface ProductDeps {
  db: Database;
  files: FileStore;
  /** where 'Failed to upload image: {filename}' goes (the app's logger unless a test listens) */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const defaultLog = (message: string, detail: Record<string, unknown>) => logger.error(detail, message);

/** An upload that is not an image its decoder accepts, or that could not be stored. */
export type UploadRefusal = { code: "rejected-type" | "upload-failed"; filename: string; detail: string };

const UPLOAD_FAILURE_DETAIL = {
  "not-an-image": "is not a JPG, PNG or GIF image",
  "too-many-pixels": "has too many pixels (at most 40 megapixels)",
  unreadable: "could not be read as an image",
} as const;

/**
 * Checks, re-encodes and stores every upload, or none: on the first failure the files already
 * written are removed and 'Failed to upload image: {filename}' is logged.
 */
export async function processUploads(
  { files, log = defaultLog }: Omit<ProductDeps, "db">,
  uploads: Upload[],
): Promise<Result<StoredImage[], UploadRefusal>> {
  const stored: StoredImage[] = [];
  for (const upload of uploads) {
    const rendered = await renderUpload(upload.bytes);
    if (!rendered.ok) {
      const detail = `${upload.filename} ${UPLOAD_FAILURE_DETAIL[rendered.error.code]}`;
      await deleteStoredImages(files, stored);
      log(`Failed to upload image: ${upload.filename}`, { filename: upload.filename, reason: detail });
      return fail({
        code: rendered.error.code === "not-an-image" ? "rejected-type" : "upload-failed",
        filename: upload.filename,
        detail,
      });
    }
    try {
      stored.push(await storeRenderedUpload(files, rendered.value));
    } catch (error) {
      log(`Failed to upload image: ${upload.filename}`, { filename: upload.filename, err: error });
      await deleteStoredImages(files, stored);
      return fail({
        code: "upload-failed",
        filename: upload.filename,
        detail: `${upload.filename} could not be stored`,
      });
    }
  }
  return ok(stored);
}

/** Moving or removing an image: done, or the image is not the product's, or it is its last. */
export type ImageMoveResult = Result<void, { code: "not-found" | "last-image" }>;

/** Adding images: done, or the product is gone, an upload was refused, or the write failed. */
export type ImageAddResult = Result<void, { code: "not-found" } | UploadRefusal | { code: "failed" }>;

async function imageKeys(db: Database, id: number) {
  return (
    await db
      .selectFrom("productImages")
      .select(["id", "key"])
      .where("productId", "=", id)
      .orderBy("position")
      .orderBy("id")
      .execute()
  ).map((r) => ({ id: r.id, key: r.key }));
}

/** Rewrites positions 0..n-1 in the given order (inside the caller's transaction). */
async function writeOrder(trx: Database, ids: number[]) {
  for (const [position, imageId] of ids.entries()) {
    await trx.updateTable("productImages").set({ position }).where("id", "=", imageId).execute();
  }
}

/** Moves one image a place earlier or later. */
export async function moveImage(
  db: Database,
  { id, imageId, direction, actor }: { id: number; imageId: number; direction: "up" | "down"; actor: Actor },
): Promise<ImageMoveResult> {
  return db.transaction().execute(async (trx): Promise<ImageMoveResult> => {
    const images = await imageKeys(trx, id);
    const index = images.findIndex((image) => image.id === imageId);
    if (index < 0) return fail({ code: "not-found" });
    const target = direction === "up" ? index - 1 : index + 1;
    if (target < 0 || target >= images.length) return ok(undefined);
    const order = images.map((image) => image.id);
    [order[index], order[target]] = [order[target]!, order[index]!];
    await writeOrder(trx, order);
    await recordAudit(trx, {
      actor,
      action: "product.images",
      entityType: "product",
      entityId: id,
      summary: `Moved image ${index + 1} ${direction === "up" ? "earlier" : "later"}`,
      before: { images: images.map((i) => i.key) },
      after: { images: order.map((imageIdInOrder) => images.find((i) => i.id === imageIdInOrder)!.key) },
    });
    return ok(undefined);
  });
}

/** Removes one image (a product keeps at least one); its files go unless an order still shows them. */
export async function removeImage(
  { db, files }: ProductDeps,
  { id, imageId, actor }: { id: number; imageId: number; actor: Actor },
): Promise<ImageMoveResult> {
  const removed = await db.transaction().execute(async (trx) => {
    const images = await imageKeys(trx, id);
    const image = images.find((i) => i.id === imageId);
    if (!image) return fail({ code: "not-found" } as const);
    if (images.length === 1) return fail({ code: "last-image" } as const);
    const row = await trx
      .selectFrom("productImages")
      .select(["key", "widths"])
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom("productImages").where("id", "=", imageId).execute();
    const remaining = images.filter((i) => i.id !== imageId);
    await writeOrder(
      trx,
      remaining.map((i) => i.id),
    );
    await recordAudit(trx, {
      actor,
      action: "product.images",
      entityType: "product",
      entityId: id,
      summary: "Removed an image",
      before: { images: images.map((i) => i.key) },
      after: { images: remaining.map((i) => i.key) },
    });
    return ok({ key: row.key, widths: JSON.parse(row.widths) as number[] });
  });
  if (!removed.ok) return removed;
  await deleteUnreferencedFiles(db, files, [removed.value]);
  return ok(undefined);
}

/** Adds images at the end of a product's gallery. */
export async function addImages(
  deps: ProductDeps,
  { id, uploads, actor }: { id: number; uploads: Upload[]; actor: Actor },
): Promise<ImageAddResult> {
  const { db, files } = deps;
  const product = await db
    .selectFrom("products")
    .select(["name"])
    .where("id", "=", id)
    .where("archivedAt", "is", null)
    .executeTakeFirst();
  if (!product) return fail({ code: "not-found" });
  const processed = await processUploads(deps, uploads);
  if (!processed.ok) return processed;
  const images = { stored: processed.value };
  try {
    await db.transaction().execute(async (trx) => {
      const before = await imageKeys(trx, id);
      await trx
        .insertInto("productImages")
        .values(
          images.stored.map((image, i) => ({
            productId: id,
            position: before.length + i,
            key: image.key,
            alt: `${product.name}, image ${before.length + i + 1}`,
            width: image.width,
            height: image.height,
            widths: JSON.stringify(image.widths),
          })),
        )
        .execute();
      await recordAudit(trx, {
        actor,
        action: "product.images",
        entityType: "product",
        entityId: id,
        summary: `Added ${images.stored.length} image${images.stored.length === 1 ? "" : "s"}`,
        before: { images: before.map((i) => i.key) },
        after: { images: [...before.map((i) => i.key), ...images.stored.map((i) => i.key)] },
      });
    });
    return ok(undefined);
  } catch (error) {
    logger.error({ err: error }, "adding product images failed");
    await deleteStoredImages(files, images.stored);
    return fail({ code: "failed" });
  }
}

/** Deletes image files unless an order line still shows that picture (order history keeps it). */
export async function deleteUnreferencedFiles(
  db: Database,
  files: FileStore,
  images: { key: string; widths: number[] }[],
) {
  if (images.length === 0) return;
  const referenced = new Set(
    (
      await db
        .selectFrom("orderItems")
        .select("imageKey")
        .where(
          "imageKey",
          "in",
          images.map((i) => i.key),
        )
        .execute()
    ).map((r) => r.imageKey),
  );
  await deleteStoredImages(
    files,
    images.filter((i) => !referenced.has(i.key)),
  );
}
