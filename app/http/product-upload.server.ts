import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
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
import type { ZodType } from "zod";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from "../adapters/images/image-upload.server.ts";

/** A file as the browser sent it: its name (for messages and logs only) and its bytes. */
export interface Upload {
  filename: string;
  bytes: Uint8Array;
}

/** Text fields of a product form are small; 1 MB for all of them together is plenty. */
const TEXT_BUDGET = 1024 * 1024;
/** Every file at its maximum plus the text fields: what the server reads before cutting off. */
export const MAX_PRODUCT_FORM_BYTES = MAX_UPLOAD_FILES * MAX_UPLOAD_BYTES + TEXT_BUDGET;

/** Why a form could not be read: a file or the whole body over its limit, too many parts, garbage. */
export type ProductRequestError = {
  code: "file-too-large" | "too-many-files" | "too-many-parts" | "unreadable";
};

export type ProductRequest =
  | { ok: true; form: FormData; uploads: Upload[] }
  | { ok: false; error: ProductRequestError };

/**
 * The admin product forms' reader (the streamed counterpart of parseForm, decision 017): reads an
 * admin form (multipart or url-encoded) as it streams in: each file is cut off at
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
        // the edit page's variant grid posts 9 fields for each of up to 100 variants
        maxParts: 1000,
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
      return { ok: false, error: { code: "file-too-large" } };
    }
    if (error instanceof MaxFilesExceededError) {
      return { ok: false, error: { code: "too-many-files" } };
    }
    if (error instanceof MaxHeaderSizeExceededError || error instanceof MaxPartsExceededError) {
      return { ok: false, error: { code: "too-many-parts" } };
    }
    if (
      error instanceof FormDataParseError ||
      error instanceof MultipartParseError ||
      error instanceof TypeError
    ) {
      return { ok: false, error: { code: "unreadable" } };
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

/** A form read by readProductRequest, parsed with its zod schema by Conform (as parseForm does). */
export function parseProductFields<Schema extends ZodType>(form: FormData, schema: Schema) {
  return parseWithZod(form, { schema, disableAutoCoercion: true });
}

/**
 * The submission result of a form that could not be parsed at all (unreadable, over a limit, an
 * unknown intent): the form's message, and the fields' messages, as `submission.reply` gives them.
 */
export function refusedForm(
  message: string,
  fieldErrors: Record<string, string> = {},
): SubmissionResult<string[]> {
  const error: Record<string, string[]> = { "": [message] };
  for (const [field, text] of Object.entries(fieldErrors)) error[field] = [text];
  return { status: "error", initialValue: {}, error };
}
