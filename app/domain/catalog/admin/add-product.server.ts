import type { FileStore } from "../../../adapters/files/file-store.ts";
import { detectImageType } from "../../../adapters/images/image-upload.server.ts";
import type { Database } from "../../../db/database.server.ts";
import type { Actor } from "../../audit/audit-log.server.ts";
import {
  EMPTY_PRODUCT_FORM,
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  type ProductFormValues,
  parseProductForm,
  readProductFormValues,
} from "./product-form.ts";
import { readProductRequest } from "./product-request.server.ts";
import { createProduct } from "./products.server.ts";

export type AddProductOutcome =
  | { ok: true; id: number; slug: string }
  | {
      ok: false;
      status: 400 | 413 | 415 | 422 | 500;
      message: string;
      details: string[];
      fieldErrors: Partial<Record<ProductField | "images", string>>;
      values: ProductFormValues;
    };

/**
 * POST /admin/products/new, from the raw request to a stored product: the form is streamed in
 * (10 MB per file), then checked in the spec's order — images present, required fields, file
 * types by content — and only then are images re-encoded and stored and the rows written.
 */
export async function addProductFromRequest(
  deps: { db: Database; files: FileStore; log?: (message: string, detail: Record<string, unknown>) => void },
  request: Request,
  actor: Actor,
): Promise<AddProductOutcome> {
  const read = await readProductRequest(request);
  if (!read.ok) {
    return {
      ok: false,
      status: read.status,
      message: read.message,
      details: [],
      fieldErrors: { images: read.message },
      values: EMPTY_PRODUCT_FORM,
    };
  }
  const { form, uploads } = read;
  const values = readProductFormValues(form);
  const fail = (
    status: 400 | 415 | 422 | 500,
    message: string,
    fieldErrors: AddProductOutcome & { ok: false } extends { fieldErrors: infer F } ? F : never,
    details: string[] = [],
  ) => ({ ok: false, status, message, details, fieldErrors, values }) as const;

  if (uploads.length === 0) {
    return fail(400, PRODUCT_FORM_MESSAGES.noImages, { images: PRODUCT_FORM_MESSAGES.noImages });
  }
  const fields = parseProductForm(form);
  if (!fields.ok) return fail(400, fields.message, fields.fieldErrors);
  const rejected = uploads.filter((upload) => detectImageType(upload.bytes) === null);
  if (rejected.length > 0) {
    return fail(
      415,
      PRODUCT_FORM_MESSAGES.rejectedFiles,
      { images: PRODUCT_FORM_MESSAGES.rejectedFiles },
      rejected.map((upload) => `${upload.filename} is not a JPG, PNG or GIF image`),
    );
  }
  const created = await createProduct(deps, { input: fields.value, uploads, actor });
  if (created.ok) return created;
  if (created.reason === "rejected-type") {
    return fail(415, PRODUCT_FORM_MESSAGES.rejectedFiles, { images: PRODUCT_FORM_MESSAGES.rejectedFiles }, [
      created.detail ?? "",
    ]);
  }
  if (created.reason === "upload-failed") {
    return fail(422, PRODUCT_FORM_MESSAGES.addFailed, { images: created.detail }, [created.detail ?? ""]);
  }
  return fail(500, PRODUCT_FORM_MESSAGES.addFailed, {});
}
