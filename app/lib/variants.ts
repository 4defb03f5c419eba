/**
 * Products in sizes and colours (decision 019): pure rules shared by the server and the UI.
 * A product has up to three options (name + ordered values); each variant holds one value per
 * option (option1..option3, in the options' order).
 */

export const MAX_OPTIONS = 3;

export interface ProductOption {
  /** 1..3: which of a variant's option1..option3 holds this option's value */
  position: number;
  name: string;
  values: string[];
}

/** A variant's values, in its product's options' order (null where the product has fewer). */
export type OptionValues = [string | null, string | null, string | null];

/** "Size: M · Colour: Black"; "" for the one variant of a product without options. */
export function variantTitle(
  options: readonly Pick<ProductOption, "name" | "position">[],
  values: OptionValues,
): string {
  return [...options]
    .sort((a, b) => a.position - b.position)
    .flatMap((option) => {
      const value = values[option.position - 1];
      return value ? [`${option.name}: ${value}`] : [];
    })
    .join(" · ");
}

/** Reads a stored option row (its values are a JSON array). */
export function parseOption(row: { position: number; name: string; optionValues: string }): ProductOption {
  const parsed: unknown = JSON.parse(row.optionValues);
  const values = Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
  return { position: row.position, name: row.name, values };
}

/** One variant as the product page offers it. */
export interface VariantOffer {
  id: number;
  sku: string;
  values: OptionValues;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  /** its own picture's index among the product's images, else null (the product's first) */
  imageIndex: number | null;
  /** the price is the signed-in shopper's member price (decision 037) */
  memberPrice?: boolean;
}

const sameValues = (a: OptionValues, b: OptionValues) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * The variant a product page shows: the one named (`?variant=`), else the one whose values were
 * chosen (the picker's form without JavaScript), else the first in stock, else the first.
 * Null only for a product without variants (none is ever stored so).
 */
export function selectVariant<V extends VariantOffer>(
  variants: readonly V[],
  { variantId, values }: { variantId?: number | null; values?: OptionValues | null },
): V | null {
  if (variantId != null) {
    const named = variants.find((v) => v.id === variantId);
    if (named) return named;
  }
  if (values) {
    const chosen = variants.find((v) => sameValues(v.values, values));
    if (chosen) return chosen;
  }
  return variants.find((v) => v.stock > 0) ?? variants[0] ?? null;
}

/** A value of an option as the picker shows it, with the current choice of the other options. */
export interface ValueChoice {
  value: string;
  /** the variant choosing this value leads to (same other values where that combination exists) */
  variantId: number | null;
  /** false: no variant has this value with the other values chosen (the picker says unavailable) */
  exists: boolean;
  /** that combination exists and has stock */
  inStock: boolean;
}

/**
 * Every value of every option against the selected variant: where each choice leads, and whether
 * that combination exists and is in stock. A value whose combination with the other choices does
 * not exist leads to the first variant with that value (in stock first), as real shops do.
 */
export function valueChoices(
  options: readonly ProductOption[],
  variants: readonly VariantOffer[],
  selected: VariantOffer | null,
): ValueChoice[][] {
  return options.map((option) => {
    const slot = option.position - 1;
    return option.values.map((value) => {
      const wanted = [...(selected?.values ?? [null, null, null])] as OptionValues;
      wanted[slot] = value;
      const exact = variants.find((v) => sameValues(v.values, wanted));
      const fallback =
        exact ??
        variants.find((v) => v.values[slot] === value && v.stock > 0) ??
        variants.find((v) => v.values[slot] === value);
      return {
        value,
        variantId: fallback?.id ?? null,
        exists: exact !== undefined,
        inStock: exact !== undefined && exact.stock > 0,
      };
    });
  });
}

/** The price range of the variants (the card and page say "from $X" when it is not one price). */
export function priceRange(variants: readonly Pick<VariantOffer, "priceCents">[]): {
  min: number;
  max: number;
} {
  const prices = variants.map((v) => v.priceCents);
  return { min: Math.min(...prices), max: Math.max(...prices) };
}

/**
 * The listing's URL parameters: an option whose key is one of them is never a facet (the listing's
 * own filters win). Lower case, as option keys are.
 */
export const LISTING_PARAM_KEYS: ReadonlySet<string> = new Set([
  "category",
  "subcategory",
  "search",
  "brand",
  "minprice",
  "maxprice",
  "rating",
  "sort",
  "page",
  "featured",
  "new",
  "bestseller",
]);

/**
 * An option's facet key in the listing's URL: "Colour" → `colour`, "Case size" → `case-size`;
 * null when nothing is left or it is one of the listing's own parameters (migration 1300 fills
 * existing rows by the same rule).
 */
export function optionFacetKey(name: string): string | null {
  const key = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return key === "" || LISTING_PARAM_KEYS.has(key) ? null : key;
}

/** A value's key: its lower case, trimmed (the URL's `size=m`). */
export const optionValueKey = (value: string): string => value.trim().toLowerCase();
