import type { AdminProductDetail } from "../../domain/catalog/admin/product-list.server.ts";
import { type AdminFeedback, AdminMessage } from "./admin-message.tsx";
import { ConfirmAction } from "./confirm-action.tsx";
import { StockBadge } from "./stock-badge.tsx";

/**
 * A product's variants on its edit page (decision 019), for removal only: each with its SKU and
 * stock, and Remove after a confirm step (intent `remove-variant`). Prices and stock are edited in
 * the variant grid (variant-grid.tsx), the one place for them.
 */
export function VariantList({
  product,
  feedback,
}: {
  product: Pick<AdminProductDetail, "id" | "options" | "variants">;
  feedback: AdminFeedback | null | undefined;
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
