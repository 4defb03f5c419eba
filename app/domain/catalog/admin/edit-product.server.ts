import type { FileStore } from "../../../adapters/files/file-store.ts";
import { detectImageType } from "../../../adapters/images/image-upload.server.ts";
import type { Database } from "../../../db/database.server.ts";
import type { Actor } from "../../audit/audit-log.server.ts";
import {
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  type ProductFormValues,
  parseProductForm,
} from "./product-form.ts";
import { readProductRequest } from "./product-request.server.ts";
import { addImages, adjustStock, moveImage, removeImage, updateProduct } from "./products.server.ts";

export const EDIT_MESSAGES = {
  updated: "Product updated",
  stockUpdated: "Stock updated",
  stockInvalid: "Enter a whole number to add (or a negative one to remove), for example 5 or -2.",
  stockNegative: "Stock cannot go below 0.",
  imagesAdded: "Images added",
  imageMoved: "Image moved",
  imageRemoved: "Image removed",
  lastImage: "A product needs at least one image.",
  notFound: "This product no longer exists.",
  badRequest: "Unknown action.",
} as const;

export type EditIntent = "update" | "stock" | "add-images" | "move-image" | "remove-image";

export type EditOutcome =
  | { ok: true; message: string }
  | {
      ok: false;
      intent: EditIntent | null;
      status: 400 | 404 | 409 | 413 | 415 | 422 | 500;
      message: string;
      details?: string[];
      fieldErrors?: Partial<Record<ProductField | "images" | "delta", string>>;
      values?: ProductFormValues;
    };

const intOf = (value: FormDataEntryValue | null) =>
  typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : null;

/** The edit page's forms (one intent each): fields, stock, and the image gallery. */
export async function editProductFromRequest(
  deps: { db: Database; files: FileStore; log?: (message: string, detail: Record<string, unknown>) => void },
  request: Request,
  { productId, actor }: { productId: number; actor: Actor },
): Promise<EditOutcome> {
  const read = await readProductRequest(request);
  if (!read.ok) {
    return {
      ok: false,
      intent: "add-images",
      status: read.status,
      message: read.message,
      fieldErrors: { images: read.message },
    };
  }
  const { form, uploads } = read;
  const intent = form.get("intent");
  const { db } = deps;
  switch (intent) {
    case "update": {
      const fields = parseProductForm(form, { withStock: false });
      if (!fields.ok) {
        return {
          ok: false,
          intent,
          status: 400,
          message: fields.message,
          fieldErrors: fields.fieldErrors,
          values: fields.values,
        };
      }
      const result = await updateProduct(db, { id: productId, input: fields.value, actor });
      return result.ok
        ? { ok: true, message: EDIT_MESSAGES.updated }
        : { ok: false, intent, status: 404, message: EDIT_MESSAGES.notFound };
    }
    case "stock": {
      const raw = form.get("delta");
      const text = typeof raw === "string" ? raw.trim() : "";
      if (!/^[+-]?\d{1,7}$/.test(text) || Number(text) === 0) {
        return {
          ok: false,
          intent,
          status: 400,
          message: EDIT_MESSAGES.stockInvalid,
          fieldErrors: { delta: EDIT_MESSAGES.stockInvalid },
        };
      }
      const result = await adjustStock(db, { id: productId, delta: Number(text), actor });
      if (result.ok)
        return { ok: true, message: `${EDIT_MESSAGES.stockUpdated}: ${result.before} → ${result.after}` };
      return result.reason === "negative"
        ? {
            ok: false,
            intent,
            status: 409,
            message: EDIT_MESSAGES.stockNegative,
            fieldErrors: { delta: EDIT_MESSAGES.stockNegative },
          }
        : { ok: false, intent, status: 404, message: EDIT_MESSAGES.notFound };
    }
    case "add-images": {
      if (uploads.length === 0) {
        return {
          ok: false,
          intent,
          status: 400,
          message: PRODUCT_FORM_MESSAGES.noImages,
          fieldErrors: { images: PRODUCT_FORM_MESSAGES.noImages },
        };
      }
      const rejected = uploads.filter((upload) => detectImageType(upload.bytes) === null);
      if (rejected.length > 0) {
        return {
          ok: false,
          intent,
          status: 415,
          message: PRODUCT_FORM_MESSAGES.rejectedFiles,
          details: rejected.map((u) => `${u.filename} is not a JPG, PNG or GIF image`),
          fieldErrors: { images: PRODUCT_FORM_MESSAGES.rejectedFiles },
        };
      }
      const result = await addImages(deps, { id: productId, uploads, actor });
      if (result.ok) return { ok: true, message: EDIT_MESSAGES.imagesAdded };
      if (result.reason === "not-found")
        return { ok: false, intent, status: 404, message: EDIT_MESSAGES.notFound };
      const message =
        result.reason === "rejected-type"
          ? PRODUCT_FORM_MESSAGES.rejectedFiles
          : "Failed to upload images. Please try again.";
      return {
        ok: false,
        intent,
        status: result.reason === "failed" ? 500 : 422,
        message,
        details: result.detail ? [result.detail] : [],
        fieldErrors: { images: result.detail ?? message },
      };
    }
    case "move-image":
    case "remove-image": {
      const imageId = intOf(form.get("imageId"));
      const direction = form.get("direction");
      if (imageId === null || (intent === "move-image" && direction !== "up" && direction !== "down")) {
        return { ok: false, intent, status: 400, message: EDIT_MESSAGES.badRequest };
      }
      const result =
        intent === "move-image"
          ? await moveImage(db, { id: productId, imageId, direction: direction as "up" | "down", actor })
          : await removeImage(deps, { id: productId, imageId, actor });
      if (result.ok)
        return {
          ok: true,
          message: intent === "move-image" ? EDIT_MESSAGES.imageMoved : EDIT_MESSAGES.imageRemoved,
        };
      if (result.reason === "last-image")
        return { ok: false, intent, status: 409, message: EDIT_MESSAGES.lastImage };
      return { ok: false, intent, status: 404, message: EDIT_MESSAGES.notFound };
    }
    default:
      return { ok: false, intent: null, status: 400, message: EDIT_MESSAGES.badRequest };
  }
}
