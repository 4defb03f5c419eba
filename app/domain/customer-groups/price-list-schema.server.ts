import { z } from "zod";
import { toCents } from "../../lib/money.ts";
import { postedText as text } from "../../lib/posted-values.ts";
import { SKU_TEXT } from "../../lib/variant-input.ts";
import { PRICE_LIST_LIMITS as LIMITS, PRICE_LIST_MESSAGES as M } from "./price-list-form.ts";

/**
 * The price list form's zod schema (parsed by the route through Conform, decision 017) and the
 * price a form or a CSV line types. Server only, like the other forms' schemas.
 */

/** "19", "$18.50", "1,299.00" → cents; null unless above 0 and at most the largest amount. */
export function listPriceCents(typed: string): number | null {
  const amount = typed
    .trim()
    .replace(/^[$€£]\s*/, "")
    .replaceAll(",", "");
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(amount)) return null;
  const cents = toCents(amount);
  return cents > 0 && cents <= LIMITS.amount * 100 ? cents : null;
}

/** A SKU as typed (trimmed), or null when no variant could have it. */
export function typedSku(typed: string): string | null {
  const sku = typed.trim();
  return SKU_TEXT.test(sku) ? sku : null;
}

/** The price list page's forms, told apart by `intent`: `set` (a SKU and its price), `remove` (a variant). */
export const priceListSchema = z.looseObject({}).transform((form, ctx) => {
  const intent = text(form.intent);
  const refuse = (refusals: [string, string][]) => {
    for (const [field, message] of refusals) ctx.addIssue({ code: "custom", path: [field], message });
    return z.NEVER;
  };
  switch (intent) {
    case "set": {
      const sku = typedSku(text(form.sku));
      const priceCents = listPriceCents(text(form.price));
      const refusals: [string, string][] = [];
      if (sku === null) refusals.push(["sku", M.sku]);
      if (priceCents === null) refusals.push(["price", M.price]);
      if (sku === null || priceCents === null) return refuse(refusals);
      return { intent, sku, priceCents } as const;
    }
    case "remove": {
      const variantId = text(form.variantId);
      return /^[1-9]\d{0,9}$/.test(variantId)
        ? ({ intent, variantId: Number(variantId) } as const)
        : refuse([["", "Unknown price."]]);
    }
    default:
      return refuse([["", "Unknown action."]]);
  }
});
