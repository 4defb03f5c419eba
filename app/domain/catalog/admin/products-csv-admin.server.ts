import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import type { Database } from "../../../db/database.server.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { importProductsCsv } from "./products-csv.server.ts";

/** A products CSV of 5 MB holds well over 10 000 products; larger files are refused unread. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

export const CSV_IMPORT_MESSAGES = {
  noFile: "Please choose a CSV file to import.",
  tooLarge: "The file is too large: at most 5 MB.",
  unreadable: "The file could not be read. Please try again.",
  notText: "The file is not a UTF-8 text (CSV) file.",
  invalid: (count: number) =>
    `Nothing was imported: ${count} ${count === 1 ? "problem" : "problems"} in the file.`,
  imported: (created: number, updated: number, unchanged: number) =>
    `Import complete: ${created} created, ${updated} updated, ${unchanged} unchanged.`,
} as const;

export type CsvImportOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 413; message: string; problems: { line: number; message: string }[] };

/**
 * Reads the uploaded CSV as it streams in (cut off at MAX_CSV_BYTES), imports it all-or-nothing
 * and records who imported what in the audit log.
 */
export async function importProductsCsvUpload(
  db: Database,
  request: Request,
  actor: Actor,
): Promise<CsvImportOutcome> {
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
      return refused(413, CSV_IMPORT_MESSAGES.tooLarge);
    }
    if (
      error instanceof MaxFilesExceededError ||
      error instanceof MaxPartsExceededError ||
      error instanceof FormDataParseError ||
      error instanceof MultipartParseError ||
      error instanceof TypeError
    ) {
      return refused(400, CSV_IMPORT_MESSAGES.unreadable);
    }
    throw error;
  }
  if (!bytes) return refused(400, CSV_IMPORT_MESSAGES.noFile);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refused(400, CSV_IMPORT_MESSAGES.notText);
  }
  const result = await importProductsCsv(db, text);
  if (!result.ok) {
    return {
      ok: false,
      status: 400,
      message: CSV_IMPORT_MESSAGES.invalid(result.problems.length),
      problems: result.problems,
    };
  }
  const message = CSV_IMPORT_MESSAGES.imported(result.created, result.updated, result.unchanged);
  if (result.created + result.updated > 0) {
    await recordAudit(db, {
      actor,
      action: "product.import",
      entityType: "product",
      entityId: "csv",
      summary: `Imported ${filename || "a CSV file"}: ${result.created} created, ${result.updated} updated`,
      after: { created: result.created, updated: result.updated, unchanged: result.unchanged },
    });
  }
  return { ok: true, message };
}

function refused(status: 400 | 413, message: string): CsvImportOutcome {
  return { ok: false, status, message, problems: [] };
}
