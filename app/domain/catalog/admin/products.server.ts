import { sql } from "kysely";
import type { FileStore } from "../../../adapters/files/file-store.ts";
import {
  deleteStoredImages,
  renderUpload,
  type StoredImage,
  storeRenderedUpload,
} from "../../../adapters/images/image-upload.server.ts";
import { logger } from "../../../adapters/logger.server.ts";
import type { Database } from "../../../db/database.server.ts";
import {
  productInputOf as auditSnapshot,
  type ProductInput,
  productColumns,
} from "../../../lib/product-input.ts";
import { LOW_STOCK_THRESHOLD } from "../../../lib/stock.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { slugify } from "./product-form.ts";

/**
 * Product management. Every change runs in one transaction together with its audit entry; image
 * files are written before the transaction and removed again if it fails (files cannot take part
 * in a database transaction), and removed only after it commits when rows are deleted.
 * The catalogue's search index and facet/price-band tables follow through their triggers
 * (migrations 0200, 0310, 0320), so the storefront reflects every change at once.
 */

export const ADMIN_PAGE_SIZE = 20;

export interface Upload {
  filename: string;
  bytes: Uint8Array;
}

interface Deps {
  db: Database;
  files: FileStore;
  /** where 'Failed to upload image: {filename}' goes (the app's logger unless a test listens) */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

const defaultLog = (message: string, detail: Record<string, unknown>) => logger.error(detail, message);

export interface AdminProductRow {
  id: number;
  slug: string;
  name: string;
  brand: string;
  categoryId: string;
  priceCents: number;
  stock: number;
  image: { key: string; widths: number[]; alt: string } | null;
}

function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Live products, newest first, optionally filtered by a substring of name, brand, slug or category. */
export async function listAdminProducts(
  db: Database,
  {
    search = "",
    page = 1,
    pageSize = ADMIN_PAGE_SIZE,
  }: { search?: string; page?: number; pageSize?: number } = {},
): Promise<{ products: AdminProductRow[]; total: number; page: number; pageCount: number }> {
  const term = search.trim().slice(0, 100);
  let query = db.selectFrom("products").where("archivedAt", "is", null);
  if (term) {
    const pattern = likePattern(term);
    const numeric = /^\d{1,9}$/.test(term) ? Number(term) : null;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(brand)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(slug)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(category_id)`, "like", sql`${pattern} escape '\\'`),
        ...(numeric === null ? [] : [eb("id", "=", numeric)]),
      ]),
    );
  }
  const { count } = await query
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const rows = await query
    .select(["id", "slug", "name", "brand", "categoryId", "priceCents", "stock"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(pageSize)
    .offset((Math.max(1, page) - 1) * pageSize)
    .execute();
  const images = await firstImages(
    db,
    rows.map((r) => r.id),
  );
  return {
    products: rows.map((row) => ({ ...row, image: images.get(row.id) ?? null })),
    total,
    page,
    pageCount,
  };
}

async function firstImages(db: Database, productIds: number[]) {
  const map = new Map<number, { key: string; widths: number[]; alt: string }>();
  if (productIds.length === 0) return map;
  const rows = await db
    .selectFrom("productImages")
    .select(["productId", "key", "widths", "alt", "position"])
    .where("productId", "in", productIds)
    .orderBy("productId")
    .orderBy("position")
    .execute();
  for (const row of rows) {
    if (!map.has(row.productId))
      map.set(row.productId, { key: row.key, widths: JSON.parse(row.widths) as number[], alt: row.alt });
  }
  return map;
}

/** Live products with stock ≤ 10, fewest first. */
export async function listLowStockProducts(db: Database, limit = 200) {
  return db
    .selectFrom("products")
    .select(["id", "slug", "name", "brand", "stock"])
    .where("archivedAt", "is", null)
    .where("stock", "<=", LOW_STOCK_THRESHOLD)
    .orderBy("stock")
    .orderBy("name")
    .limit(limit)
    .execute();
}

export interface AdminProductDetail {
  id: number;
  slug: string;
  name: string;
  description: string;
  brand: string;
  categoryId: string;
  subcategoryId: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  specifications: Record<string, string>;
  featured: boolean;
  newArrival: boolean;
  bestSeller: boolean;
  rating: number;
  reviewCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  images: { id: number; key: string; alt: string; width: number; height: number; widths: number[] }[];
}

export async function getAdminProduct(db: Database, id: number): Promise<AdminProductDetail | null> {
  const row = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const images = await db
    .selectFrom("productImages")
    .select(["id", "key", "alt", "width", "height", "widths"])
    .where("productId", "=", id)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    brand: row.brand,
    categoryId: row.categoryId,
    subcategoryId: row.subcategoryId,
    priceCents: row.priceCents,
    originalPriceCents: row.originalPriceCents,
    stock: row.stock,
    specifications: parseSpecifications(row.specifications),
    featured: row.featured === 1,
    newArrival: row.newArrival === 1,
    bestSeller: row.bestSeller === 1,
    rating: row.rating,
    reviewCount: row.reviewCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    images: images.map((image) => ({ ...image, widths: JSON.parse(image.widths) as number[] })),
  };
}

function parseSpecifications(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // fall through
  }
  return {};
}

/** Stock changes only through adjustStock (a guarded delta), never by overwriting the number. */
function withoutStock<T extends { stock: number }>(columns: T): Omit<T, "stock"> {
  const { stock: _stock, ...rest } = columns;
  return rest;
}

export type ImagesResult =
  | { ok: true; stored: StoredImage[] }
  | { ok: false; reason: "rejected-type" | "upload-failed"; filename: string; detail: string };

const UPLOAD_FAILURE_DETAIL = {
  "not-an-image": "is not a JPG, PNG or GIF image",
  "too-many-pixels": "has too many pixels (at most 40 megapixels)",
  unreadable: "could not be read as an image",
} as const;

/**
 * Checks, re-encodes and stores every upload, or none: on the first failure the files already
 * written are removed and 'Failed to upload image: {filename}' is logged.
 */
export async function processUploads({ files, log = defaultLog }: Omit<Deps, "db">, uploads: Upload[]) {
  const stored: StoredImage[] = [];
  for (const upload of uploads) {
    const failed = async (reason: ImagesResult & { ok: false }) => {
      await deleteStoredImages(files, stored);
      log(`Failed to upload image: ${upload.filename}`, { filename: upload.filename, reason: reason.detail });
      return reason;
    };
    const rendered = await renderUpload(upload.bytes);
    if (!rendered.ok) {
      return failed({
        ok: false,
        reason: rendered.reason === "not-an-image" ? "rejected-type" : "upload-failed",
        filename: upload.filename,
        detail: `${upload.filename} ${UPLOAD_FAILURE_DETAIL[rendered.reason]}`,
      });
    }
    try {
      stored.push(await storeRenderedUpload(files, rendered.image));
    } catch (error) {
      log(`Failed to upload image: ${upload.filename}`, { filename: upload.filename, err: error });
      await deleteStoredImages(files, stored);
      return {
        ok: false,
        reason: "upload-failed",
        filename: upload.filename,
        detail: `${upload.filename} could not be stored`,
      } as const;
    }
  }
  return { ok: true, stored } as const;
}

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

export type CreateProductResult =
  | { ok: true; id: number; slug: string }
  | { ok: false; reason: "rejected-type" | "upload-failed" | "failed"; filename?: string; detail?: string };

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
  const images = await processUploads(deps, uploads);
  if (!images.ok) return images;
  try {
    const at = now.toISOString();
    const result = await db.transaction().execute(async (trx) => {
      const slug = await uniqueSlug(trx, input.name);
      const { id } = await trx
        .insertInto("products")
        .values({
          ...productColumns(input),
          slug,
          rating: 0,
          reviewCount: 0,
          createdAt: at,
          updatedAt: at,
          archivedAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
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
        after: { ...auditSnapshot(input), slug, images: images.stored.map((i) => i.key) },
        now,
      });
      return { id, slug };
    });
    return { ok: true, ...result };
  } catch (error) {
    logger.error({ err: error }, "product insert failed");
    await deleteStoredImages(files, images.stored);
    return { ok: false, reason: "failed" };
  }
}

export type UpdateResult = { ok: true } | { ok: false; reason: "not-found" | "failed" };

/** Saves every editable field; the audit entry carries the fields before and after. */
export async function updateProduct(
  db: Database,
  { id, input, actor, now = new Date() }: { id: number; input: ProductInput; actor: Actor; now?: Date },
): Promise<UpdateResult> {
  const before = await getAdminProduct(db, id);
  if (!before || before.archivedAt) return { ok: false, reason: "not-found" };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("products")
      .set({ ...withoutStock(productColumns(input)), updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    const { stock: _stockBefore, ...beforeFields } = auditSnapshot(before);
    const { stock: _stockAfter, ...afterFields } = auditSnapshot(input);
    await recordAudit(trx, {
      actor,
      action: "product.update",
      entityType: "product",
      entityId: id,
      summary: `Edited product "${input.name}"`,
      before: beforeFields,
      after: afterFields,
      now,
    });
  });
  return { ok: true };
}

export type StockResult =
  | { ok: true; before: number; after: number }
  | { ok: false; reason: "not-found" | "negative" };

/**
 * Changes stock by `delta` (negative to take away) with a guarded update, so a sale happening
 * at the same moment is never overwritten and stock never goes below 0.
 */
export async function adjustStock(
  db: Database,
  { id, delta, actor, now = new Date() }: { id: number; delta: number; actor: Actor; now?: Date },
): Promise<StockResult> {
  return db.transaction().execute(async (trx): Promise<StockResult> => {
    const row = await trx
      .selectFrom("products")
      .select(["stock", "name"])
      .where("id", "=", id)
      .where("archivedAt", "is", null)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: "not-found" };
    if (row.stock + delta < 0) return { ok: false, reason: "negative" };
    const updated = await trx
      .updateTable("products")
      .set((eb) => ({ stock: eb("stock", "+", delta), updatedAt: now.toISOString() }))
      .where("id", "=", id)
      .where("stock", ">=", -delta)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { ok: false, reason: "negative" };
    const after = row.stock + delta;
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
    return { ok: true, before: row.stock, after };
  });
}

export type ImageChangeResult =
  | { ok: true }
  | {
      ok: false;
      reason: "not-found" | "last-image" | "rejected-type" | "upload-failed" | "failed";
      detail?: string;
    };

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
): Promise<ImageChangeResult> {
  return db.transaction().execute(async (trx): Promise<ImageChangeResult> => {
    const images = await imageKeys(trx, id);
    const index = images.findIndex((image) => image.id === imageId);
    if (index < 0) return { ok: false, reason: "not-found" };
    const target = direction === "up" ? index - 1 : index + 1;
    if (target < 0 || target >= images.length) return { ok: true };
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
    return { ok: true };
  });
}

/** Removes one image (a product keeps at least one); its files go unless an order still shows them. */
export async function removeImage(
  { db, files }: Deps,
  { id, imageId, actor }: { id: number; imageId: number; actor: Actor },
): Promise<ImageChangeResult> {
  const removed = await db.transaction().execute(async (trx) => {
    const images = await imageKeys(trx, id);
    const image = images.find((i) => i.id === imageId);
    if (!image) return { ok: false, reason: "not-found" } as const;
    if (images.length === 1) return { ok: false, reason: "last-image" } as const;
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
    return { ok: true, image: { key: row.key, widths: JSON.parse(row.widths) as number[] } } as const;
  });
  if (!removed.ok) return removed;
  await deleteUnreferencedFiles(db, files, [removed.image]);
  return { ok: true };
}

/** Adds images at the end of a product's gallery. */
export async function addImages(
  deps: Deps,
  { id, uploads, actor }: { id: number; uploads: Upload[]; actor: Actor },
): Promise<ImageChangeResult> {
  const { db, files } = deps;
  const product = await db
    .selectFrom("products")
    .select(["name"])
    .where("id", "=", id)
    .where("archivedAt", "is", null)
    .executeTakeFirst();
  if (!product) return { ok: false, reason: "not-found" };
  const images = await processUploads(deps, uploads);
  if (!images.ok) return { ok: false, reason: images.reason, detail: images.detail };
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
    return { ok: true };
  } catch (error) {
    logger.error({ err: error }, "adding product images failed");
    await deleteStoredImages(files, images.stored);
    return { ok: false, reason: "failed" };
  }
}

/** Deletes image files unless an order line still shows that picture (order history keeps it). */
async function deleteUnreferencedFiles(
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

export type DeleteResult = { ok: true; outcome: "deleted" | "archived" } | { ok: false; reason: "not-found" };

/**
 * Deletes a product — or, when any order contains it, archives it: the order keeps its snapshot,
 * the storefront and carts stop offering it. Image files go only after the delete has committed.
 */
export async function deleteProduct(
  { db, files }: Deps,
  { id, actor, now = new Date() }: { id: number; actor: Actor; now?: Date },
): Promise<DeleteResult> {
  const before = await getAdminProduct(db, id);
  if (!before || before.archivedAt) return { ok: false, reason: "not-found" };
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
  return { ok: true, outcome };
}
