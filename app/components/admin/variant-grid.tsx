import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { AdminProductDetail } from "../../domain/catalog/admin/product-list.server.ts";
import { kgText } from "../../lib/weight.ts";
import { FormField } from "../checkout/form-field.tsx";
import { TableScroll } from "../table-scroll.tsx";
import { type AdminFeedback, AdminMessage } from "./admin-message.tsx";

const BUTTON =
  "rounded-lg px-4 py-2 font-semibold text-white bg-brand-700 hover:bg-brand-800 disabled:opacity-60";
const CELL_INPUT = "block w-full rounded-lg border px-2 py-1.5 text-gray-900";

const money = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

type PostedRow = Record<string, unknown>;

/**
 * Every variant of a product in one table (issue 18): SKU, price, original price, stock, weight
 * (kg), barcode and picture, saved together (intent `variants`); and a Select box per row for the
 * bulk form under it (intent `bulk-variants`: one price, stock level and/or weight for the selected variants; the
 * boxes belong to that form through their `form` attribute, so no script is needed). Each field
 * is labelled with its column and its variant ("Price for Size: M · Colour: Black"); the table
 * scrolls sideways inside its own focusable region, never the page.
 */
export function VariantGrid({
  product,
  answer,
  bulkAnswer,
  feedback,
  bulkFeedback,
  busy,
}: {
  product: Pick<AdminProductDetail, "id" | "variants" | "images" | "updatedAt">;
  answer: SubmissionResult<string[]> | null;
  bulkAnswer: SubmissionResult<string[]> | null;
  feedback: AdminFeedback | null;
  bulkFeedback: AdminFeedback | null;
  busy: boolean;
}) {
  const posted = (answer?.initialValue as { variants?: PostedRow[] } | null | undefined)?.variants ?? [];
  const error = (i: number, field: string) => answer?.error?.[`variants[${i}].${field}`]?.[0];
  const bulkPosted = (bulkAnswer?.initialValue ?? {}) as PostedRow;
  const chosen = new Set([bulkPosted.selected].flat().filter((v): v is string => typeof v === "string"));
  return (
    <section aria-labelledby="grid-heading" className="min-w-0 max-w-full">
      <h2 id="grid-heading" className="text-xl font-bold">
        Variant grid
      </h2>
      <p id="grid-hint" className="mt-1 max-w-3xl text-gray-700">
        Stock is the number in stock. If units sell while you edit, saving applies your change to what is left
        (typing 10 where it said 8 adds 2). An empty original price means no sale price. Weights are in kg
        with up to 3 decimals (0.25 is 250 g); weight-based shipping adds them up.{" "}
        <Link
          to={`/admin/products/${product.id}/stock`}
          className="font-semibold text-brand-700 hover:underline"
        >
          Stock history of each variant
        </Link>
      </p>
      <Form
        method="post"
        noValidate
        className="mt-4 space-y-4"
        id="variant-grid"
        key={answer ? JSON.stringify(posted) : product.updatedAt}
      >
        <input type="hidden" name="intent" value="variants" />
        <AdminMessage feedback={feedback} />
        <TableScroll
          label="Variant table, scrolls sideways"
          className="max-w-full rounded-lg border border-gray-200 focus:outline-2 focus:outline-brand-700"
        >
          <table className="min-w-[66rem] text-left text-sm">
            <thead className="bg-gray-50">
              <tr>
                {[
                  "Variant",
                  "SKU",
                  "Price",
                  "Original price",
                  "Stock",
                  "Weight (kg)",
                  "Barcode",
                  "Image",
                  "Select",
                ].map((column) => (
                  <th key={column} scope="col" className="px-2 py-2 font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {product.variants.map((variant, i) => {
                const row = posted.find((r) => r.id === String(variant.id));
                const value = (field: string, fallback: string) =>
                  row && typeof row[field] === "string" ? (row[field] as string) : fallback;
                const title = variant.title || "Default";
                const cell = (field: string, label: string, input: ReactNode) => (
                  <td className="px-2 py-2 align-top">
                    <label htmlFor={`grid-${variant.id}-${field}`} className="sr-only">
                      {label} for {title}
                    </label>
                    {input}
                    {error(i, field) && (
                      <p
                        id={`grid-${variant.id}-${field}-error`}
                        className="mt-1 text-xs font-medium text-red-700"
                      >
                        {error(i, field)}
                      </p>
                    )}
                  </td>
                );
                const text = (field: string, label: string, fallback: string, extra: object = {}) =>
                  cell(
                    field,
                    label,
                    <input
                      id={`grid-${variant.id}-${field}`}
                      name={`variants[${i}].${field}`}
                      defaultValue={value(field, fallback)}
                      aria-invalid={error(i, field) ? true : undefined}
                      aria-describedby={error(i, field) ? `grid-${variant.id}-${field}-error` : undefined}
                      className={`${CELL_INPUT} ${error(i, field) ? "border-red-700 bg-red-50" : "border-gray-400"}`}
                      {...extra}
                    />,
                  );
                return (
                  <tr key={variant.id}>
                    <th scope="row" className="px-2 py-2 align-top font-semibold">
                      <input type="hidden" name={`variants[${i}].id`} value={variant.id} />
                      <input type="hidden" name={`variants[${i}].shownStock`} value={variant.stock} />
                      {title}
                    </th>
                    {text("sku", "SKU", variant.sku, { maxLength: 64 })}
                    {text("price", "Price", money(variant.priceCents), { inputMode: "decimal" })}
                    {text("originalPrice", "Original price", money(variant.originalPriceCents), {
                      inputMode: "decimal",
                    })}
                    {text("stock", "Stock", String(variant.stock), { inputMode: "numeric" })}
                    {text("weight", "Weight (kg)", kgText(variant.weightGrams), { inputMode: "decimal" })}
                    {text("barcode", "Barcode", variant.barcode ?? "", { maxLength: 64 })}
                    {cell(
                      "image",
                      "Image",
                      <select
                        id={`grid-${variant.id}-image`}
                        name={`variants[${i}].image`}
                        defaultValue={value("image", variant.imageId === null ? "" : String(variant.imageId))}
                        aria-invalid={error(i, "image") ? true : undefined}
                        aria-describedby={error(i, "image") ? `grid-${variant.id}-image-error` : undefined}
                        className={`${CELL_INPUT} border-gray-400 bg-white`}
                      >
                        <option value="">Product's images</option>
                        {product.images.map((image, n) => (
                          <option key={image.id} value={image.id}>
                            Image {n + 1}
                          </option>
                        ))}
                      </select>,
                    )}
                    <td className="px-2 py-2 text-center align-top">
                      <label htmlFor={`grid-${variant.id}-select`} className="sr-only">
                        Select {title}
                      </label>
                      <input
                        id={`grid-${variant.id}-select`}
                        type="checkbox"
                        name="selected"
                        value={variant.id}
                        form="variant-bulk"
                        defaultChecked={chosen.has(String(variant.id))}
                        className="size-5"
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
        <button type="submit" disabled={busy} className={BUTTON}>
          Save variant grid
        </button>
      </Form>
      <Form
        method="post"
        noValidate
        id="variant-bulk"
        className="mt-6 max-w-3xl"
        key={bulkAnswer ? JSON.stringify(bulkPosted) : `${product.updatedAt}-bulk`}
      >
        <input type="hidden" name="intent" value="bulk-variants" />
        <fieldset className="rounded-lg border border-gray-300 p-3">
          <legend className="px-1 font-semibold">Change the selected variants</legend>
          <p className="text-sm text-gray-700">
            Tick Select in the rows above, then set a price, a stock level, a weight or more than one for all
            of them.
          </p>
          <div className="mt-3">
            <AdminMessage feedback={bulkFeedback} />
            {bulkAnswer?.error?.selected?.[0] && (
              <p className="mt-1 text-sm font-medium text-red-700">{bulkAnswer.error.selected[0]}</p>
            )}
          </div>
          <div className="mt-3 flex flex-wrap items-start gap-3">
            <FormField
              id="bulk-price"
              name="price"
              label="Set price to"
              inputMode="decimal"
              className="w-40"
              defaultValue={typeof bulkPosted.price === "string" ? bulkPosted.price : ""}
              error={bulkAnswer?.error?.price?.[0]}
            />
            <FormField
              id="bulk-stock"
              name="stock"
              label="Set stock to"
              inputMode="numeric"
              className="w-40"
              defaultValue={typeof bulkPosted.stock === "string" ? bulkPosted.stock : ""}
              error={bulkAnswer?.error?.stock?.[0]}
            />
            <FormField
              id="bulk-weight"
              name="weight"
              label="Set weight (kg) to"
              inputMode="decimal"
              className="w-40"
              defaultValue={typeof bulkPosted.weight === "string" ? bulkPosted.weight : ""}
              error={bulkAnswer?.error?.weight?.[0]}
            />
            <button type="submit" disabled={busy} className={`${BUTTON} mt-6`}>
              Apply to selected
            </button>
          </div>
        </fieldset>
      </Form>
    </section>
  );
}
