import type { FileStore } from "../../../adapters/files/file-store.ts";
import { detectImageType } from "../../../adapters/images/image-upload.server.ts";
import type { Database } from "../../../db/database.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import type { Actor } from "../../audit/audit-log.server.ts";
import type { ProductInput } from "./product-form.ts";
import type { Upload } from "./product-images.server.ts";
import { createProduct } from "./product-write.server.ts";

/** Why images were refused: none, not JPG/PNG/GIF (one line per file), unusable, or not stored. */
export type ImagesRefusal =
  | { code: "no-images" }
  | { code: "rejected-files"; details: string[] }
  | { code: "upload-failed"; detail: string }
  | { code: "failed"; detail?: string };

/** Every upload a JPG, PNG or GIF by its content (not its name or the browser's type), or why not. */
export function checkImageUploads(uploads: Upload[]): Result<void, ImagesRefusal> {
  if (uploads.length === 0) return fail({ code: "no-images" });
  const rejected = uploads.filter((upload) => detectImageType(upload.bytes) === null);
  if (rejected.length > 0) {
    return fail({
      code: "rejected-files",
      details: rejected.map((upload) => `${upload.filename} is not a JPG, PNG or GIF image`),
    });
  }
  return ok(undefined);
}

/**
 * A new product with its images: the images are checked by content, then re-encoded and stored,
 * and only then are the rows written (all or nothing).
 */
export async function addProduct(
  deps: { db: Database; files: FileStore; log?: (message: string, detail: Record<string, unknown>) => void },
  { input, uploads, actor }: { input: ProductInput; uploads: Upload[]; actor: Actor },
): Promise<Result<{ id: number; slug: string }, ImagesRefusal>> {
  const checked = checkImageUploads(uploads);
  if (!checked.ok) return checked;
  const created = await createProduct(deps, { input, uploads, actor });
  if (created.ok) return created;
  const error = created.error;
  switch (error.code) {
    case "rejected-type":
      return fail({ code: "rejected-files", details: [error.detail] });
    case "upload-failed":
      return fail({ code: "upload-failed", detail: error.detail });
    case "failed":
      return fail({ code: "failed" });
  }
}
