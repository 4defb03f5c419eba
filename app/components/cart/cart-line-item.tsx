import { Minus, Plus, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import type { CartLine } from "../../domain/cart/cart-types.ts";
import { Price } from "../price.tsx";
import { ProductImage } from "../product-image.tsx";
import { useMoney } from "../shop-settings.ts";
import { useToast } from "../toasts.tsx";

const stepButton =
  "flex size-10 items-center justify-center rounded-lg border border-gray-400 bg-white hover:bg-gray-100 disabled:cursor-not-allowed disabled:border-gray-200 disabled:text-gray-400 disabled:hover:bg-white";

/**
 * One cart line. Each control is a small form posting to /cart, so it works without JavaScript;
 * with JavaScript the posts go through one fetcher per line and the quantity changes at once.
 */
export function CartLineItem({ line }: { line: CartLine }) {
  const money = useMoney();
  const fetcher = useFetcher<{ error?: string }>({ key: `cart-line-${line.variantId}` });
  const { showToast } = useToast();

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.error) showToast(fetcher.data.error, "error");
  }, [fetcher.state, fetcher.data, showToast]);

  // Optimistic quantity: what the pending post asks for, within 1…stock.
  const pendingIntent = fetcher.formData?.get("intent");
  const pendingQuantity = pendingIntent === "update" ? Number(fetcher.formData?.get("quantity")) : Number.NaN;
  const removing = pendingIntent === "remove" || (Number.isInteger(pendingQuantity) && pendingQuantity <= 0);
  if (removing) return null;
  const quantity = Number.isInteger(pendingQuantity) ? Math.min(pendingQuantity, line.stock) : line.quantity;
  const purchasable = line.status === "ok" || line.status === "reduced";
  const updateFormId = `cart-update-${line.variantId}`;
  const quantityInputId = `cart-quantity-${line.variantId}`;

  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={line.productId} />
      <input type="hidden" name="variantId" value={line.variantId} />
    </>
  );

  return (
    <li className="flex gap-4 p-4" aria-busy={fetcher.state !== "idle" || undefined}>
      {/* 4rem on a phone: with the quantity stepper beside it the line fits 320 px */}
      <div className="size-16 shrink-0 overflow-hidden rounded-lg bg-gray-100 sm:size-24">
        {line.image && (
          <ProductImage
            image={line.image}
            sizes="(min-width: 640px) 6rem, 4rem"
            className="size-full object-cover"
          />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap justify-between gap-2">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{line.brand}</p>
            <h3 className="font-semibold">
              {line.status === "unavailable" ? (
                line.name
              ) : (
                <Link to={`/products/${line.slug}`} className="hover:text-brand-700 hover:underline">
                  {line.name}
                </Link>
              )}
            </h3>
            {line.variantTitle && <p className="text-sm text-gray-700">{line.variantTitle}</p>}
            <p className="text-xs text-gray-600">SKU: {line.sku}</p>
            <Price cents={line.unitPriceCents} originalCents={line.originalPriceCents} />
          </div>
          {purchasable && (
            <p className="sm:text-right" data-testid="line-total">
              <span className="block text-xs text-gray-600">Item total</span>
              <span className="font-bold">{money(line.unitPriceCents * quantity)}</span>
            </p>
          )}
        </div>

        {line.status === "reduced" && (
          <p className="text-sm font-medium text-amber-800">
            Only {line.stock} available — the quantity was reduced.
          </p>
        )}
        {line.status === "out-of-stock" && <p className="text-sm font-medium text-red-700">Out of Stock</p>}
        {line.status === "unavailable" && (
          <p className="text-sm font-medium text-red-700">This product is no longer available.</p>
        )}

        <div className="flex flex-wrap items-end justify-between gap-3">
          {purchasable ? (
            <div>
              <label htmlFor={quantityInputId} className="block text-sm font-medium text-gray-800">
                Quantity<span className="sr-only"> of {line.name}</span>
              </label>
              {/* wraps on a phone: Update goes under the stepper instead of past the page's edge */}
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <fetcher.Form method="post" action="/cart" preventScrollReset>
                  {hidden("update")}
                  <input type="hidden" name="quantity" value={quantity - 1} />
                  <button
                    type="submit"
                    disabled={quantity <= 1}
                    className={stepButton}
                    aria-label={`Decrease quantity of ${line.name}`}
                  >
                    <Minus aria-hidden="true" className="size-4" />
                  </button>
                </fetcher.Form>
                <input
                  key={quantity}
                  id={quantityInputId}
                  form={updateFormId}
                  type="number"
                  name="quantity"
                  inputMode="numeric"
                  min={0}
                  max={line.stock}
                  step={1}
                  required
                  defaultValue={quantity}
                  className="h-10 w-16 rounded-lg border border-gray-400 bg-white px-2 text-center"
                />
                <fetcher.Form method="post" action="/cart" preventScrollReset>
                  {hidden("update")}
                  <input type="hidden" name="quantity" value={quantity + 1} />
                  <button
                    type="submit"
                    disabled={quantity >= line.stock}
                    className={stepButton}
                    aria-label={`Increase quantity of ${line.name}`}
                  >
                    <Plus aria-hidden="true" className="size-4" />
                  </button>
                </fetcher.Form>
                <button
                  type="submit"
                  form={updateFormId}
                  className="h-10 rounded-lg border border-brand-700 px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Update<span className="sr-only"> quantity of {line.name}</span>
                </button>
                <fetcher.Form id={updateFormId} method="post" action="/cart" preventScrollReset>
                  {hidden("update")}
                </fetcher.Form>
              </div>
            </div>
          ) : (
            <span />
          )}
          <fetcher.Form method="post" action="/cart" preventScrollReset>
            {hidden("remove")}
            <button
              type="submit"
              className="flex items-center gap-1 rounded-lg px-2 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Remove<span className="sr-only"> {line.name}</span>
            </button>
          </fetcher.Form>
        </div>
      </div>
    </li>
  );
}
