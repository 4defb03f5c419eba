import { describe, expect, it } from "vitest";
import { type CategoryIndex, PRODUCT_CSV_COLUMNS, readProductsCsv } from "./products-csv.ts";

const CATEGORIES: CategoryIndex = new Map([["clothing", new Set(["tops"])]]);
type Cells = Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>>;

const TEE: Cells = {
  id: "",
  slug: "plain-tee",
  name: "Plain Tee",
  description: "A cotton T-shirt.",
  brand: "Loom",
  category: "clothing",
  subcategory: "tops",
  price: "",
  originalPrice: "",
  stock: "",
  featured: "false",
  newArrival: "false",
  bestSeller: "false",
  specifications: "",
};
const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const csv = (rows: Cells[], columns: readonly string[] = PRODUCT_CSV_COLUMNS) =>
  `${columns.join(",")}\n${rows.map((r) => columns.map((c) => quote(r[c as keyof Cells] ?? "")).join(",")).join("\n")}\n`;
/** A T-shirt row in size × colour. */
const tee = (size: string, colour: string, cells: Cells = {}): Cells => ({
  ...TEE,
  option1_name: "Size",
  option1_value: size,
  option2_name: "Colour",
  option2_value: colour,
  sku: `TEE-${size}-${colour}`.toUpperCase(),
  variant_price: "19.00",
  variant_stock: "3",
  ...cells,
});
const problemsOf = (text: string) => {
  const result = readProductsCsv(text, CATEGORIES, "USD");
  if (result.ok) throw new Error("expected problems");
  return result.error.problems.map((p) => `${p.line}: ${p.message}`);
};

describe("readProductsCsv with variant columns", () => {
  it("reads one product from its rows: options from the rows, values in first-seen order, a variant per row", () => {
    const text = csv([
      tee("M", "Black", {
        variant_original_price: "25",
        barcode: "4006381333931",
        price: "whatever",
        variant_weight_kg: "0.2",
      }),
      tee("S", "Black", { variant_price: "18.50", variant_stock: "0" }),
      tee("M", "White", { sku: "", variant_weight_kg: "0.215" }),
      {
        ...TEE,
        slug: "gift-card",
        name: "Gift Card",
        variant_price: "10",
        variant_stock: "100",
        sku: "GIFT",
      },
    ]);
    const result = readProductsCsv(text, CATEGORIES, "USD");
    expect(result.ok).toBe(true);
    const [shirt, card] = result.ok ? result.value : [];
    expect(shirt).toMatchObject({ layout: "variants", line: 2, slug: "plain-tee", name: "Plain Tee" });
    expect(shirt).not.toHaveProperty("priceCents"); // the summary column is not read beside variants
    expect(shirt!.layout === "variants" && shirt!.variants).toEqual({
      input: {
        options: [
          { name: "Size", values: ["M", "S"] },
          { name: "Colour", values: ["Black", "White"] },
        ],
        variants: [
          {
            sku: "TEE-M-BLACK",
            values: ["M", "Black"],
            priceCents: 1900,
            originalPriceCents: 2500,
            stock: 3,
            barcode: "4006381333931",
            weightGrams: 200,
          },
          {
            sku: "TEE-S-BLACK",
            values: ["S", "Black"],
            priceCents: 1850,
            originalPriceCents: null,
            stock: 0,
            barcode: null,
            weightGrams: 0,
          },
          {
            sku: null,
            values: ["M", "White"],
            priceCents: 1900,
            originalPriceCents: null,
            stock: 3,
            barcode: null,
            weightGrams: 215,
          },
        ],
      },
      lines: [2, 3, 4],
      // an empty weight: the stored variant's is kept (the import's plan looks it up)
      weights: [200, null, 215],
    });
    expect(card!.layout === "variants" && card!.variants).toEqual({
      input: {
        options: [],
        variants: [
          {
            sku: "GIFT",
            values: [],
            priceCents: 1000,
            originalPriceCents: null,
            stock: 100,
            barcode: null,
            weightGrams: 0,
          },
        ],
      },
      lines: [5],
      weights: [null],
    });
    expect([shirt!.taxClass, card!.taxClass]).toEqual([null, null]);
  });

  it("needs no price, originalPrice or stock column beside the variant columns, but all the variant columns", () => {
    const columns = PRODUCT_CSV_COLUMNS.filter((c) => !["price", "originalPrice", "stock"].includes(c));
    expect(readProductsCsv(csv([tee("M", "Black")], columns), CATEGORIES, "USD").ok).toBe(true);
    const partial = PRODUCT_CSV_COLUMNS.filter((c) => c !== "barcode" && c !== "option3_name");
    expect(problemsOf(csv([tee("M", "Black")], partial))).toEqual([
      "1: missing columns: option3_name, barcode (a file with variant columns has all of them)",
    ]);
  });

  it("reports each problem of a product's rows with its line", () => {
    const text = csv([
      tee("M", "Black"), // 2
      tee("M", "black", { sku: "TEE-M-BLACK-2" }), // 3: same combination, another spelling
      tee("S", "Black", { option2_name: "Color" }), // 4: option named otherwise
      tee("L", "Black", { variant_price: "1.999", variant_stock: "-1", sku: "has space" }), // 5
      tee("M", "White", { name: "Plain T-shirt" }), // 6: product cell differs
      tee("S", "White", { option2_value: "" }), // 7
      tee("XL", "White", { sku: "TEE-M-BLACK" }), // 8: SKU already on line 2
      { ...TEE, slug: "gift-card", variant_price: "10", variant_stock: "1" }, // 9
      { ...TEE, slug: "gift-card", variant_price: "20", variant_stock: "1" }, // 10: no options, a 2nd row
      tee("XS", "Red"), // 11: plain-tee again, not next to its rows
      {
        ...TEE,
        slug: "odd-options",
        option2_name: "Colour",
        option2_value: "Red",
        variant_price: "1",
        variant_stock: "1",
      }, // 12
      {
        ...TEE,
        slug: "odd-options-2",
        option1_value: "Red",
        variant_price: "1",
        variant_stock: "1",
        barcode: "12 34",
      }, // 13
    ]);
    expect(problemsOf(text)).toEqual([
      '3: option2_value "black" is written "Black" on line 2: write a value the same way on every row',
      '4: option2_name is "Color" but "Colour" on line 2: every row of a product names the same options',
      '5: sku must be letters, digits and . _ - / without spaces, starting with a letter or digit, at most 64 characters (got "has space")',
      '5: variant_price must be an amount from 0 to 1000000 with at most 2 decimals (got "1.999")',
      '5: variant_stock must be a whole number from 0 to 1000000 (got "-1")',
      "6: name differs from line 2: every row of a product repeats its columns",
      "7: option2_value is required with option2_name",
      '8: sku "TEE-M-BLACK" is also on line 2',
      "10: a product without options has one row (its variant), and line 9 is that row",
      '11: the rows of the product with slug "plain-tee" must be consecutive (it starts on line 2)',
      "12: option2_name is used without option1_name",
      "13: option1_value needs option1_name",
      '13: barcode must be letters, digits and hyphens, at most 64 characters (got "12 34")',
    ]);
  });

  it("a combination twice is refused at its second row", () => {
    expect(problemsOf(csv([tee("M", "Black"), tee("M", "Black", { sku: "OTHER" })]))).toEqual([
      "3: the combination Size: M · Colour: Black is also on line 2",
    ]);
  });

  it("groups rows by id when they have one (a renamed slug on every row is one product)", () => {
    const rows = [
      tee("M", "Black", { id: "7", slug: "new-tee" }),
      tee("S", "Black", { id: "7", slug: "new-tee" }),
    ];
    const result = readProductsCsv(csv(rows), CATEGORIES, "USD");
    expect(result.ok && result.value.map((r) => [r.id, r.slug, r.line])).toEqual([[7, "new-tee", 2]]);
  });

  it("reads the optional taxClass and variant_weight_kg columns, and refuses a bad one at its row", () => {
    const text = csv([
      tee("M", "Black", { taxClass: "Reduced", variant_weight_kg: "1.6" }), // 2
      tee("S", "Black", { taxClass: "Reduced", variant_weight_kg: " 0.25 " }), // 3
      { ...TEE, slug: "gift-card", variant_price: "10", variant_stock: "1", taxClass: "zero" }, // 4
    ]);
    const result = readProductsCsv(text, CATEGORIES, "USD");
    const [shirt, card] = result.ok ? result.value : [];
    expect(shirt).toMatchObject({ taxClass: "reduced" });
    expect(shirt!.layout === "variants" && shirt!.variants.weights).toEqual([1600, 250]);
    expect(card).toMatchObject({ taxClass: "zero" });

    expect(
      problemsOf(
        csv([
          tee("M", "Black", { taxClass: "luxury" }), // 2
          tee("S", "Black", { taxClass: "luxury", variant_weight_kg: "1,5" }), // 3
          { ...TEE, slug: "a", variant_price: "1", variant_stock: "1", variant_weight_kg: "-1" }, // 4
          { ...TEE, slug: "b", variant_price: "1", variant_stock: "1", variant_weight_kg: "0.0001" }, // 5
          { ...TEE, slug: "c", variant_price: "1", variant_stock: "1", variant_weight_kg: "2 kg" }, // 6
          { ...TEE, slug: "d", variant_price: "1", variant_stock: "1", variant_weight_kg: "1000.5" }, // 7
          tee("M", "Black", { slug: "e", sku: "E-M", taxClass: "standard" }), // 8
          tee("S", "Black", { slug: "e", sku: "E-S", taxClass: "reduced" }), // 9: its product's class differs
        ]),
      ),
    ).toEqual([
      '2: taxClass must be one of standard, reduced, zero, exempt (got "luxury")',
      '3: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "1,5")',
      '4: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "-1")',
      '5: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "0.0001")',
      '6: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "2 kg")',
      '7: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "1000.5")',
      "9: taxClass differs from line 8: every row of a product repeats its columns",
    ]);
  });

  it("without the variant columns, variant_weight_kg is the one variant's weight (as price and stock are)", () => {
    const columns = [
      ...PRODUCT_CSV_COLUMNS.filter((c) => !c.startsWith("option") && !c.startsWith("variant_")),
      "variant_weight_kg",
    ].filter((c) => c !== "sku" && c !== "barcode");
    const old = { ...TEE, price: "5", stock: "2" };
    const result = readProductsCsv(
      csv(
        [
          { ...old, variant_weight_kg: "0.75", taxClass: "exempt" },
          { ...old, slug: "tea" },
        ],
        columns,
      ),
      CATEGORIES,
      "USD",
    );
    expect(result.ok && result.value).toMatchObject([
      { layout: "product", priceCents: 500, stock: 2, weightGrams: 750, taxClass: "exempt" },
      { layout: "product", slug: "tea", weightGrams: null, taxClass: null },
    ]);
    expect(problemsOf(csv([{ ...old, variant_weight_kg: "heavy" }], columns))).toEqual([
      '2: variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "heavy")',
    ]);
  });
});
