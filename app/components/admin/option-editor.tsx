import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import type { RemovedVariant } from "../../domain/catalog/admin/variant-editor.server.ts";
import { MAX_OPTIONS, type ProductOption } from "../../lib/variants.ts";
import { FormField } from "../checkout/form-field.tsx";
import { type AdminFeedback, AdminMessage } from "./admin-message.tsx";

const BUTTON =
  "rounded-lg px-4 py-2 font-semibold text-white bg-brand-700 hover:bg-brand-800 disabled:opacity-60";
const DANGER_BUTTON = "rounded-lg px-4 py-2 font-semibold text-white bg-red-700 hover:bg-red-800";
const KEEP_LINK = "rounded-lg border border-gray-400 bg-white px-4 py-2 font-semibold hover:bg-gray-100";

/** The answer of a refused options form: its messages, and the variants it would remove. */
export interface OptionsAnswer {
  result: SubmissionResult<string[]>;
  removing: RemovedVariant[];
}

type Row = { name?: unknown; values?: unknown };

/**
 * A product's options (issue 18): up to three rows of a name and its values, separated by
 * commas (intent `options`). Saving makes one variant per combination; when that removes
 * variants, the server answers with them listed and nothing saved, and this form asks again
 * with a "Yes, …" button that posts their ids (works without JavaScript).
 */
export function OptionEditor({
  productId,
  options,
  variantCount,
  answer,
  feedback,
  busy,
}: {
  productId: number;
  options: ProductOption[];
  variantCount: number;
  answer: OptionsAnswer | null;
  feedback: AdminFeedback | null;
  busy: boolean;
}) {
  const posted = answer?.result.initialValue as { options?: Row[] } | null | undefined;
  const error = (field: string) => answer?.result.error?.[field]?.[0];
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const removing = answer?.removing ?? [];
  return (
    <section aria-labelledby="options-heading" className="max-w-3xl">
      <h2 id="options-heading" className="text-xl font-bold">
        Options
      </h2>
      <p className="mt-1 text-gray-700">
        Up to {MAX_OPTIONS} options, such as Size or Colour. Saving makes one variant per combination of their
        values: combinations that exist keep their SKU, prices and stock; new ones start at the product's
        lowest price with no stock; the others are removed (archived when an order holds them). Without
        options the product is sold as one variant. Now: {variantCount}{" "}
        {variantCount === 1 ? "variant" : "variants"}.
      </p>
      {/* a new answer (or saved options) shows what was posted: keyed so the fields start again from it */}
      <Form
        method="post"
        noValidate
        className="mt-4 space-y-4"
        key={answer ? JSON.stringify(posted ?? null) : JSON.stringify(options)}
      >
        <input type="hidden" name="intent" value="options" />
        <AdminMessage feedback={feedback} />
        {Array.from({ length: MAX_OPTIONS }, (_, i) => {
          const current = options[i];
          const row = posted?.options?.[i];
          const name = answer ? text(row?.name) : current?.name;
          const values = answer ? text(row?.values) : current?.values.join(", ");
          return (
            <div
              key={`option-${i + 1}`}
              className="grid gap-3 rounded-lg border border-gray-300 p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]"
            >
              <FormField
                id={`option-${i + 1}-name`}
                name={`options[${i}].name`}
                label={`Option ${i + 1} name`}
                defaultValue={name ?? ""}
                maxLength={40}
                error={error(`options[${i}].name`)}
              />
              <FormField
                id={`option-${i + 1}-values`}
                name={`options[${i}].values`}
                label={`Option ${i + 1} values, separated by commas`}
                defaultValue={values ?? ""}
                hint={i === 0 ? "For example: S, M, L" : undefined}
                error={error(`options[${i}].values`)}
              />
            </div>
          );
        })}
        {/* first: Enter in a field saves (and asks again), never confirms a removal */}
        <button type="submit" disabled={busy} className={BUTTON}>
          Save options
        </button>
        {removing.length > 0 && (
          <div className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-gray-900">
            <p className="font-semibold">
              Saving these options removes {removing.length} {removing.length === 1 ? "variant" : "variants"}:
            </p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {removing.map((variant) => (
                <li key={variant.id} className="break-words">
                  {variant.title} (SKU {variant.sku}, {variant.stock} in stock) —{" "}
                  {variant.ordered ? "archived: its orders keep it" : "deleted"}
                </li>
              ))}
            </ul>
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="submit"
                name="removing"
                value={removing.map((v) => v.id).join(",")}
                disabled={busy}
                className={DANGER_BUTTON}
              >
                Yes, save and remove {removing.length} {removing.length === 1 ? "variant" : "variants"}
              </button>
              <Link to={`/admin/products/${productId}`} replace preventScrollReset className={KEEP_LINK}>
                Keep the options as they were
              </Link>
            </div>
          </div>
        )}
      </Form>
    </section>
  );
}
