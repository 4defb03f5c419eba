import { Form } from "react-router";
import type { AdminProductDetail } from "../../domain/catalog/admin/product-list.server.ts";
import { FormField } from "../checkout/form-field.tsx";
import { type AdminFeedback, AdminMessage } from "./admin-message.tsx";
import { ConfirmAction } from "./confirm-action.tsx";
import { StockBadge } from "./stock-badge.tsx";

const SMALL_BUTTON =
  "rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:opacity-50";

/**
 * A product's variants on its edit page (decision 019): each with its price, original price and a
 * stock change (intent `variant`), and removal after a confirm step (intent `remove-variant`).
 */
export function VariantList({
  product,
  feedback,
  busy,
}: {
  product: Pick<AdminProductDetail, "id" | "options" | "variants">;
  feedback: AdminFeedback | null | undefined;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="variants-heading" className="max-w-4xl">
      <h2 id="variants-heading" className="text-xl font-bold">
        Variants
      </h2>
      <p className="mt-1 text-gray-700">
        {product.options.map((option) => `${option.name}: ${option.values.join(", ")}`).join(" · ")}
      </p>
      <div className="mt-3">
        <AdminMessage feedback={feedback} />
      </div>
      <ul className="mt-4 divide-y divide-gray-200">
        {product.variants.map((variant) => (
          <li key={variant.id} className="py-4">
            <p className="flex flex-wrap items-center gap-3">
              <span className="font-semibold">{variant.title}</span>
              <span className="text-sm text-gray-700">SKU: {variant.sku}</span>
              <StockBadge stock={variant.stock} />
            </p>
            <Form method="post" noValidate className="mt-2 flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="variant" />
              <input type="hidden" name="variantId" value={variant.id} />
              <FormField
                id={`variant-${variant.id}-price`}
                name="price"
                label={`Price of ${variant.title}`}
                inputMode="decimal"
                defaultValue={(variant.priceCents / 100).toFixed(2)}
                className="w-36"
              />
              <FormField
                id={`variant-${variant.id}-original`}
                name="originalPrice"
                label="Original price"
                inputMode="decimal"
                defaultValue={
                  variant.originalPriceCents === null ? "" : (variant.originalPriceCents / 100).toFixed(2)
                }
                className="w-36"
              />
              <FormField
                id={`variant-${variant.id}-delta`}
                name="delta"
                label="Change stock by"
                type="number"
                step={1}
                inputMode="numeric"
                className="w-36"
              />
              <button type="submit" disabled={busy} className={SMALL_BUTTON}>
                Save<span className="sr-only"> {variant.title}</span>
              </button>
            </Form>
            {product.variants.length > 1 && (
              <div className="mt-2">
                <ConfirmAction
                  size="sm"
                  label={
                    <>
                      Remove<span className="sr-only"> {variant.title}</span>
                    </>
                  }
                  question={`Remove ${variant.title} (${variant.sku})? It is deleted, or archived if an order holds it; it can no longer be bought.`}
                  confirmLabel="Yes, remove variant"
                  keepLabel="Keep variant"
                  keepTo={`/admin/products/${product.id}`}
                  fields={{ intent: "remove-variant", variantId: variant.id }}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
