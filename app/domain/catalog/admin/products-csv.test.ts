import { describe, expect, it } from "vitest";
import { type CategoryIndex, PRODUCT_FIELD_COLUMNS, readProductsCsv } from "./products-csv.ts";
import { type ProductCsvSource, productsCsvHeader, productsCsvRows } from "./products-csv-write.ts";

const CATEGORIES: CategoryIndex = new Map([
  ["electronics", new Set(["audio", "laptops"])],
  ["books", new Set<string>()],
]);

/** The old layout: the product columns only, one row per product. */
const HEADER = PRODUCT_FIELD_COLUMNS.join(",");
const row = (cells: Partial<Record<(typeof PRODUCT_FIELD_COLUMNS)[number], string>>) => {
  const values = {
    id: "",
    slug: "quiet-speaker",
    name: "Quiet Speaker",
    description: "A small speaker.",
    brand: "Aurora",
    category: "electronics",
    subcategory: "audio",
    price: "49.90",
    originalPrice: "",
    stock: "3",
    featured: "false",
    newArrival: "",
    bestSeller: "true",
    specifications: "",
    ...cells,
  };
  return PRODUCT_FIELD_COLUMNS.map((c) => {
    const v = values[c];
    return /[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
  }).join(",");
};

const problemsOf = (text: string) => {
  const result = readProductsCsv(text, CATEGORIES, "USD");
  if (result.ok) throw new Error("expected problems");
  return result.error.problems;
};

describe("readProductsCsv", () => {
  it("reads a valid row into cents, flags and specifications", () => {
    const result = readProductsCsv(
      `${HEADER}\n${row({ specifications: '{"Weight":"1 kg"}', originalPrice: "59", id: "12" })}\n`,
      CATEGORIES,
      "USD",
    );
    expect(result).toEqual({
      ok: true,
      value: [
        {
          line: 2,
          layout: "product",
          id: 12,
          slug: "quiet-speaker",
          name: "Quiet Speaker",
          description: "A small speaker.",
          brand: "Aurora",
          categoryId: "electronics",
          subcategoryId: "audio",
          priceCents: 4990,
          originalPriceCents: 5900,
          stock: 3,
          specifications: { Weight: "1 kg" },
          featured: false,
          newArrival: false,
          bestSeller: true,
          // no taxClass or variant_weight_kg column: the stored ones are kept
          taxClass: null,
          weightGrams: null,
        },
      ],
    });
  });

  it("accepts columns in any order, a BOM, CRLF line ends and blank lines", () => {
    const columns = [...PRODUCT_FIELD_COLUMNS].reverse();
    const values = row({}).split(",").reverse().join(",");
    const result = readProductsCsv(`\uFEFF${columns.join(",")}\r\n\r\n${values}\r\n`, CATEGORIES, "USD");
    expect(result.ok && result.value[0]).toMatchObject({
      line: 3,
      slug: "quiet-speaker",
      priceCents: 4990,
    });
  });

  it("reports every problem with the line its row starts on, multi-line fields included", () => {
    const text = [
      HEADER,
      row({ description: "two\nlines", slug: "fine-one" }), // lines 2-3, valid
      row({ name: "", price: "-1", stock: "1.5", slug: "Bad Slug" }), // line 4
      row({ category: "garden", slug: "x-1" }), // line 5
      row({ subcategory: "laptopz", featured: "maybe", slug: "x-2" }), // line 6
      row({ specifications: "[1,2]", originalPrice: "12.345", slug: "x-3" }), // line 7
      row({ id: "0", slug: "" }), // line 8
      row({ slug: "fine-one" }), // line 9: repeated slug
      row({ slug: "123" }), // line 10: only digits
      "a,b", // line 11: wrong field count
    ].join("\n");
    const problems = problemsOf(text);
    const at = (line: number) => problems.filter((p) => p.line === line).map((p) => p.message);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual([]);
    expect(at(4)).toEqual([
      expect.stringMatching(/^slug must be lower-case/),
      "name is required",
      expect.stringMatching(/^price must be an amount/),
      expect.stringMatching(/^stock must be a whole number/),
    ]);
    expect(at(5)).toEqual(['unknown category "garden"']);
    expect(at(6)).toEqual([
      'unknown subcategory "laptopz" for category "electronics"',
      'featured must be true or false (got "maybe")',
    ]);
    expect(at(7)).toEqual([
      expect.stringMatching(/^originalPrice must be an amount/),
      expect.stringMatching(/^specifications must be a JSON object/),
    ]);
    expect(at(8)).toEqual(['id must be a positive whole number (got "0")']);
    expect(at(9)).toEqual(['slug "fine-one" is also on line 2']);
    expect(at(10)).toEqual([expect.stringMatching(/not only digits/)]);
    expect(at(11)).toEqual(["expected 14 fields, found 2"]);
  });

  it("checks lengths and specification entries", () => {
    const problems = problemsOf(
      [
        HEADER,
        row({ name: "n".repeat(201), brand: "b".repeat(101), description: "d".repeat(5001) }),
        row({ slug: "s2", specifications: '{"Weight": 3}' }),
        row({ slug: "s3", specifications: '{"Weight": ""}' }),
        row({ slug: "s4", specifications: "not json" }),
        row({ slug: "s5", price: "1000000.01" }),
        row({ slug: "s6", category: "books", subcategory: "audio" }),
      ].join("\n"),
    ).map((p) => `${p.line}: ${p.message}`);
    expect(problems).toEqual([
      "2: name must be at most 200 characters (has 201)",
      "2: description must be at most 5000 characters (has 5001)",
      "2: brand must be at most 100 characters (has 101)",
      '3: specification "Weight" must be text',
      "4: every specification needs a name and a value",
      '5: specifications must be a JSON object such as {"Weight": "1.2 kg"}',
      '6: price must be an amount from 0 to 1000000 with at most 2 decimals (got "1000000.01")',
      '7: unknown subcategory "audio" for category "books"',
    ]);
  });

  it("refuses a header with unknown, repeated or missing columns", () => {
    expect(problemsOf("id,slug,colour,slug\n1,a,b,c\n")).toEqual([
      { line: 1, message: "unknown columns: colour" },
      { line: 1, message: "repeated columns: slug" },
      { line: 1, message: expect.stringMatching(/^missing columns: name, description, brand/) },
    ]);
  });

  it("refuses an empty file and a file with only the header", () => {
    expect(problemsOf("")).toEqual([{ line: 1, message: "the file is empty" }]);
    expect(problemsOf(`${HEADER}\n`)).toEqual([{ line: 1, message: "no product rows" }]);
  });

  it("reports malformed CSV (an unbalanced quote) clearly, with a line", () => {
    const problems = problemsOf(
      `${HEADER}\n${row({})}\n${row({}).replace("Quiet Speaker", '"Quiet Speaker')}\n`,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^malformed CSV: a quoted field is never closed/);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(3);
    expect(problemsOf(`${HEADER}\n1,a"b\n`)[0]!.message).toMatch(/^malformed CSV: a double quote inside/);
  });
});

const defaultVariant = (fields: Partial<ProductCsvSource["variants"][number]>) => ({
  sku: "CW-1",
  option1: null,
  option2: null,
  option3: null,
  priceCents: 100,
  originalPriceCents: null,
  stock: 1,
  barcode: null,
  weightGrams: 0,
  ...fields,
});

describe("productsCsvRows", () => {
  it("writes what readProductsCsv reads back (quotes, commas, newlines, JSON)", () => {
    const product: ProductCsvSource = {
      id: 7,
      slug: "odd-one",
      name: 'Odd, "quoted" name',
      description: "line one\nline two, with comma",
      brand: "Ünïcode",
      categoryId: "books",
      subcategoryId: null,
      priceCents: 100,
      originalPriceCents: 1999,
      stock: 0,
      specifications: '{"Size":"10\\" x 4\\""}',
      featured: 1,
      newArrival: 0,
      bestSeller: 1,
      taxClass: "reduced",
      optionNames: [],
      variants: [
        defaultVariant({
          sku: "CW-7",
          priceCents: 100,
          originalPriceCents: 1999,
          stock: 0,
          weightGrams: 1250,
        }),
      ],
    };
    const text = productsCsvHeader() + productsCsvRows([product], "USD");
    expect(text.split("\n")[1]).toMatch(/^7,odd-one,"Odd, ""quoted"" name",/);
    const result = readProductsCsv(text, CATEGORIES, "USD");
    expect(result.ok && result.value[0]).toEqual({
      line: 2,
      layout: "variants",
      variants: {
        input: {
          options: [],
          variants: [
            {
              sku: "CW-7",
              values: [],
              priceCents: 100,
              originalPriceCents: 1999,
              stock: 0,
              barcode: null,
              weightGrams: 1250,
            },
          ],
        },
        lines: [2],
        weights: [1250],
      },
      id: 7,
      slug: "odd-one",
      name: 'Odd, "quoted" name',
      description: "line one\nline two, with comma",
      brand: "Ünïcode",
      categoryId: "books",
      subcategoryId: null,
      specifications: { Size: '10" x 4"' },
      featured: true,
      newArrival: false,
      bestSeller: true,
      taxClass: "reduced",
    });
    expect(text).toContain(",reduced,");
    expect(text).toContain(",1.25,USD\n");

    // every row names the shop's currency; a shop in another one refuses the file, amounts unconverted
    const header = text.split("\n")[0]!.split(",");
    expect(header.at(-1)).toBe("currency");
    expect(text).toMatch(/,USD\n$/);
    expect(readProductsCsv(text, CATEGORIES, "EUR")).toEqual({
      ok: false,
      error: {
        code: "invalid",
        problems: [
          { line: 2, message: "amounts in USD: this shop sells in EUR (amounts are not converted)" },
        ],
      },
    });
    expect(readProductsCsv(text.replace(/,USD\n/, ",usd\n"), CATEGORIES, "USD").ok).toBe(true);
    expect(readProductsCsv(text.replace(/,USD\n/, ",\n"), CATEGORIES, "EUR").ok).toBe(true);
  });

  it("escapes cells a spreadsheet would run as formulas, and reads them back unchanged", () => {
    const product: ProductCsvSource = {
      id: 8,
      slug: "formula",
      name: '=HYPERLINK("http://evil.example","Click")',
      description: "-2+3 is not a formula here",
      brand: "@brand",
      categoryId: "books",
      subcategoryId: null,
      priceCents: 100,
      originalPriceCents: null,
      stock: 1,
      specifications: "{}",
      featured: 0,
      newArrival: 0,
      bestSeller: 0,
      taxClass: "standard",
      optionNames: ["=Size"],
      variants: [defaultVariant({ sku: "CW-8", option1: "-1" })],
    };
    const text = productsCsvHeader() + productsCsvRows([product], "USD");
    const cells = text.split("\n")[1]!;
    expect(cells).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(cells).toContain(",'-2+3 is not a formula here,'@brand,");
    const result = readProductsCsv(text, CATEGORIES, "USD");
    expect(result.ok && result.value[0]).toMatchObject({
      name: product.name,
      description: product.description,
      brand: product.brand,
      variants: { input: { options: [{ name: "=Size", values: ["-1"] }] } },
    });
  });
});
