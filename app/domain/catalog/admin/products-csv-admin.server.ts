import type { Database } from "../../../db/database.server.ts";
import type { Currency } from "../../../lib/money.ts";
import { ok, type Result } from "../../../lib/result.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { importProductsCsv } from "./products-csv.server.ts";
import type { CsvProblem } from "./products-csv.ts";

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

/**
 * An uploaded products CSV imported all-or-nothing by an admin, who is recorded in the audit
 * log with what changed (nothing is recorded when nothing changed).
 */
export async function importProductsCsvAsAdmin(
  db: Database,
  { text, filename, actor, currency }: { text: string; filename: string; actor: Actor; currency: Currency },
): Promise<
  Result<{ created: number; updated: number; unchanged: number }, { code: "invalid"; problems: CsvProblem[] }>
> {
  const result = await importProductsCsv(db, { currency, actor: actor.id }, text);
  if (!result.ok) return result;
  const { created, updated, unchanged } = result.value;
  if (created + updated > 0) {
    await recordAudit(db, {
      actor,
      action: "product.import",
      entityType: "product",
      entityId: "csv",
      summary: `Imported ${filename || "a CSV file"}: ${created} created, ${updated} updated`,
      after: { created, updated, unchanged },
    });
  }
  return ok({ created, updated, unchanged });
}
