import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from "../../../adapters/images/image-upload.server.ts";
import { PRODUCT_FORM_MESSAGES } from "./product-form.ts";
import type { Upload } from "./products.server.ts";

/** Text fields of a product form are small; 1 MB for all of them together is plenty. */
const TEXT_BUDGET = 1024 * 1024;
/** Every file at its maximum plus the text fields: what the server reads before cutting off. */
export const MAX_PRODUCT_FORM_BYTES = MAX_UPLOAD_FILES * MAX_UPLOAD_BYTES + TEXT_BUDGET;

export type ProductRequest =
  | { ok: true; form: FormData; uploads: Upload[] }
  | { ok: false; status: 400 | 413; message: string };

/**
 * Reads an admin form (multipart or url-encoded) as it streams in: each file is cut off at
 * 10 MB and the whole body at MAX_PRODUCT_FORM_BYTES, so an oversized upload is refused without
 * being buffered whole. Files arrive as bytes with the name the browser gave (used only in
 * messages and logs); empty file inputs are dropped.
 */
export async function readProductRequest(request: Request): Promise<ProductRequest> {
  const uploads: Upload[] = [];
  try {
    const form = await parseFormData(
      request,
      {
        maxFiles: MAX_UPLOAD_FILES,
        maxFileSize: MAX_UPLOAD_BYTES,
        maxTotalSize: MAX_PRODUCT_FORM_BYTES,
        maxParts: 200,
      },
      async (file) => {
        if (file.size === 0) return null; // an empty file input (or an empty file): nothing chosen
        uploads.push({ filename: cleanFilename(file.name), bytes: new Uint8Array(await file.arrayBuffer()) });
        return null;
      },
    );
    return { ok: true, form, uploads };
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return { ok: false, status: 413, message: PRODUCT_FORM_MESSAGES.fileTooLarge };
    }
    if (error instanceof MaxFilesExceededError) {
      return { ok: false, status: 413, message: PRODUCT_FORM_MESSAGES.tooManyFiles };
    }
    if (error instanceof MaxHeaderSizeExceededError || error instanceof MaxPartsExceededError) {
      return { ok: false, status: 413, message: "The form is too large." };
    }
    if (
      error instanceof FormDataParseError ||
      error instanceof MultipartParseError ||
      error instanceof TypeError
    ) {
      return { ok: false, status: 400, message: "The form could not be read. Please try again." };
    }
    throw error;
  }
}

/** The browser's file name, for messages only: no path, no control characters, bounded. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters on purpose
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 120);
  return clean || "image";
}
