import { describe, expect, it } from "vitest";
import {
  type ProductOption,
  selectVariant,
  type VariantOffer,
  valueChoices,
  variantTitle,
} from "./variants.ts";

const OPTIONS: ProductOption[] = [
  { position: 1, name: "Size", values: ["S", "M", "L"] },
  { position: 2, name: "Colour", values: ["Black", "White"] },
];
const variant = (id: number, size: string, colour: string, stock: number): VariantOffer => ({
  id,
  sku: `TEE-${size}-${colour}`,
  values: [size, colour, null],
  priceCents: 2000 + id,
  originalPriceCents: null,
  stock,
  imageIndex: null,
});
// no L/White at all; S/Black sold out
const VARIANTS = [
  variant(1, "S", "Black", 0),
  variant(2, "S", "White", 3),
  variant(3, "M", "Black", 5),
  variant(4, "M", "White", 0),
  variant(5, "L", "Black", 2),
];

describe("variantTitle", () => {
  it("names each option's value in the options' order, and nothing for a product without options", () => {
    expect(variantTitle(OPTIONS, ["M", "Black", null])).toBe("Size: M · Colour: Black");
    expect(variantTitle([...OPTIONS].reverse(), ["M", "Black", null])).toBe("Size: M · Colour: Black");
    expect(variantTitle([], [null, null, null])).toBe("");
  });
});

describe("selectVariant", () => {
  it("takes the named variant, else the chosen values, else the first in stock", () => {
    expect(selectVariant(VARIANTS, { variantId: 4 })?.id).toBe(4);
    expect(selectVariant(VARIANTS, { variantId: 99, values: ["L", "Black", null] })?.id).toBe(5);
    expect(selectVariant(VARIANTS, { values: ["L", "White", null] })?.id).toBe(2);
    expect(selectVariant(VARIANTS, {})?.id).toBe(2);
    expect(selectVariant([], {})).toBeNull();
  });
});

describe("valueChoices", () => {
  it("marks combinations that do not exist or are sold out, and where each choice leads", () => {
    const choices = valueChoices(OPTIONS, VARIANTS, VARIANTS[2]!); // M / Black
    expect(choices[0]).toEqual([
      { value: "S", variantId: 1, exists: true, inStock: false },
      { value: "M", variantId: 3, exists: true, inStock: true },
      { value: "L", variantId: 5, exists: true, inStock: true },
    ]);
    expect(choices[1]).toEqual([
      { value: "Black", variantId: 3, exists: true, inStock: true },
      { value: "White", variantId: 4, exists: true, inStock: false },
    ]);
    // from L / Black, White does not exist: it leads to the first white one in stock (S / White)
    const fromLarge = valueChoices(OPTIONS, VARIANTS, VARIANTS[4]!);
    expect(fromLarge[1]![1]).toEqual({ value: "White", variantId: 2, exists: false, inStock: false });
  });
});
