import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { fail, ok, type Result } from "../lib/result.ts";

/** A products CSV of 5 MB holds well over 10 000 products; larger files are refused unread. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

export type CsvUploadError = { code: "too-large" | "unreadable" | "no-file" | "not-text" };

/**
 * The CSV import form's file (field `file`), read as it streams in and cut off at MAX_CSV_BYTES,
 * as UTF-8 text, with the browser's file name (cleaned, for the audit log only).
 */
export async function readCsvUpload(
  request: Request,
): Promise<Result<{ filename: string; text: string }, CsvUploadError>> {
  let bytes: Uint8Array | null = null;
  let filename = "";
  try {
    await parseFormData(
      request,
      { maxFiles: 1, maxFileSize: MAX_CSV_BYTES, maxTotalSize: MAX_CSV_BYTES + 64 * 1024, maxParts: 10 },
      async (file) => {
        if (file.fieldName !== "file" || file.size === 0) return null;
        filename = file.name.replace(/[^\w. -]/g, "").slice(0, 100);
        bytes = new Uint8Array(await file.arrayBuffer());
        return null;
      },
    );
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return fail({ code: "too-large" });
    }
    if (
      error instanceof MaxFilesExceededError ||
      error instanceof MaxPartsExceededError ||
      error instanceof FormDataParseError ||
      error instanceof MultipartParseError ||
      error instanceof TypeError
    ) {
      return fail({ code: "unreadable" });
    }
    throw error;
  }
  if (!bytes) return fail({ code: "no-file" });
  try {
    return ok({ filename, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) });
  } catch {
    return fail({ code: "not-text" });
  }
}
