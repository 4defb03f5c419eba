import type { Database } from "../../../db/database.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import type { Actor } from "../../audit/audit-log.server.ts";
import { EDIT_MESSAGES } from "./edit-product.server.ts";
import {
  bulkSetVariants,
  type RemovedVariant,
  saveProductOptions,
  saveVariantGrid,
} from "./variant-editor.server.ts";
import { VARIANT_EDITOR_MESSAGES as M, type VariantEditorForm } from "./variant-editor-form.server.ts";

export type VariantEditorRefusal = {
  code: "not-found" | "stale" | "invalid" | "confirm";
  /** the form's message */
  message: string;
  /** messages beside fields, by the form's field names (`variants[2].sku`) */
  fields: Record<string, string>;
  /** `confirm`: the variants saving the options would remove */
  removing: RemovedVariant[];
};

const refused = (
  code: VariantEditorRefusal["code"],
  message: string,
  more: Partial<Pick<VariantEditorRefusal, "fields" | "removing">> = {},
) => fail({ code, message, fields: more.fields ?? {}, removing: more.removing ?? [] });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The options editor's three forms, parsed (variant-editor-form.server.ts), carried out: the
 * message to show after it, or the refusal with the messages beside the fields they concern.
 */
export async function applyVariantEditorForm(
  db: Database,
  productId: number,
  form: VariantEditorForm,
  actor: Actor,
): Promise<Result<{ message: string }, VariantEditorRefusal>> {
  switch (form.intent) {
    case "options": {
      const result = await saveProductOptions(
        db,
        { productId, options: form.options, confirmedRemoval: form.removing },
        actor,
      );
      if (!result.ok) {
        return result.error.code === "confirm"
          ? refused("confirm", M.confirmRemoval, { removing: result.error.removing })
          : refused("not-found", EDIT_MESSAGES.notFound);
      }
      const { added, deleted, archived, variants, unchanged } = result.value;
      if (unchanged) return ok({ message: M.noChange });
      const removed = deleted + archived;
      return ok({
        message: `${M.optionsSaved}: ${plural(variants, "variant")} (${added} added, ${removed} removed${
          archived > 0 ? `, of which ${archived} archived: their orders keep them` : ""
        })`,
      });
    }
    case "variants": {
      const result = await saveVariantGrid(db, { productId, rows: form.variants }, actor);
      if (result.ok) {
        const { changed } = result.value;
        return ok({
          message: changed === 0 ? M.noChange : `${M.variantsSaved}: ${plural(changed, "variant")} changed`,
        });
      }
      switch (result.error.code) {
        case "not-found":
          return refused("not-found", EDIT_MESSAGES.notFound);
        case "stale":
          return refused("stale", M.stale);
        case "invalid":
          return refused("invalid", M.variantsInvalid, {
            fields: Object.fromEntries(
              result.error.fields.map(({ row, field, message }) => [`variants[${row}].${field}`, message]),
            ),
          });
      }
      break;
    }
    case "bulk-variants": {
      const result = await bulkSetVariants(
        db,
        {
          productId,
          variantIds: form.selected,
          priceCents: form.price,
          stock: form.stock,
          weightGrams: form.weight,
        },
        actor,
      );
      if (result.ok) return ok({ message: `${M.bulkSaved}: ${plural(result.value.count, "variant")}` });
      return result.error.code === "stale"
        ? refused("stale", M.stale)
        : refused("not-found", EDIT_MESSAGES.notFound);
    }
  }
  throw new Error("unknown variant editor form");
}
