import {
  BARCODE_TEXT,
  type ProductVariantsInput,
  productVariantsInputSchema,
  SKU_TEXT,
  VARIANT_LIMITS,
} from "../../../lib/variant-input.ts";
import { kgText } from "../../../lib/weight.ts";
import { dollars, readMoney, readStock, readWeight } from "./products-csv-cells.ts";

/**
 * The products CSV's variant columns (decision 019): one row per variant, the product's columns
 * repeated on each. Pure: reading a product's rows into its options and variants (the one
 * contract, productVariantsInputSchema) and writing a variant's cells.
 */
export const VARIANT_CSV_COLUMNS = [
  "option1_name",
  "option1_value",
  "option2_name",
  "option2_value",
  "option3_name",
  "option3_value",
  "sku",
  "variant_price",
  "variant_original_price",
  "variant_stock",
  "barcode",
] as const;
/**
 * A variant's weight in kg (issue 30), after the variant columns. Optional, and not one of the
 * columns that make a file's layout: left out or empty, an existing variant keeps its weight and a
 * new one weighs 0. In a file without the variant columns it is the one variant's weight, as the
 * price and stock are.
 */
export const VARIANT_WEIGHT_COLUMN = "variant_weight_kg";
export type VariantCsvColumn = (typeof VARIANT_CSV_COLUMNS)[number] | typeof VARIANT_WEIGHT_COLUMN;

const SLOTS = [1, 2, 3] as const;
const nameColumn = (slot: number) => `option${slot}_name` as VariantCsvColumn;
const valueColumn = (slot: number) => `option${slot}_value` as VariantCsvColumn;
const fold = (value: string) => value.toLowerCase();
const quoted = (value: string) => (value === "" ? "empty" : `"${value}"`);

export interface VariantRow {
  line: number;
  cells: Record<VariantCsvColumn, string>;
}

/** A product's options and variants as its rows give them, and each variant's line. */
export interface CsvVariants {
  /** each variant's weight is its row's, or 0 where `weights` has none (until the import plan looks) */
  input: ProductVariantsInput;
  lines: number[];
  /**
   * each variant's weight as its row gives it; null (empty, or no column): an existing variant
   * keeps its own, a new one weighs 0
   */
  weights: (number | null)[];
}

export interface LineProblem {
  line: number;
  message: string;
}

/**
 * One product's rows → its options (names from its rows, the same on each; values in the order
 * the rows first name them) and one variant per row, in row order. Every problem is reported with
 * the line of the row it is on; the result meets productVariantsInputSchema.
 */
export function readVariantRows(
  rows: readonly VariantRow[],
): { ok: true; value: CsvVariants } | { ok: false; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const first = rows[0]!;
  const names = optionNames(first, problems);
  const values: { spelling: string; line: number }[][] = names.map(() => []);
  const combinations = new Map<string, number>();
  const variants: ProductVariantsInput["variants"] = [];
  const weights: (number | null)[] = [];

  for (const row of rows) {
    const at = (message: string) => problems.push({ line: row.line, message });
    const cell = (column: VariantCsvColumn) => row.cells[column].trim();
    const before = problems.length;
    if (row !== first) {
      for (const slot of SLOTS) {
        const name = cell(nameColumn(slot));
        const expected = names[slot - 1] ?? "";
        if (name !== expected)
          at(
            `${nameColumn(slot)} is ${quoted(name)} but ${quoted(expected)} on line ${first.line}: every row of a product names the same options`,
          );
      }
    }
    const rowValues: string[] = [];
    for (const slot of SLOTS) {
      const value = cell(valueColumn(slot));
      const named = cell(nameColumn(slot)) !== "";
      if (named && value === "") at(`${valueColumn(slot)} is required with ${nameColumn(slot)}`);
      else if (!named && value !== "") at(`${valueColumn(slot)} needs ${nameColumn(slot)}`);
      else if (value.length > VARIANT_LIMITS.optionValue)
        at(`${valueColumn(slot)} must be at most ${VARIANT_LIMITS.optionValue} characters`);
      else if (value !== "" && slot <= names.length) {
        const seen = values[slot - 1]!;
        const earlier = seen.find((v) => fold(v.spelling) === fold(value));
        if (earlier && earlier.spelling !== value)
          at(
            `${valueColumn(slot)} "${value}" is written "${earlier.spelling}" on line ${earlier.line}: write a value the same way on every row`,
          );
        else if (!earlier) {
          if (seen.length === VARIANT_LIMITS.valuesPerOption)
            at(`option ${names[slot - 1]} has more than ${VARIANT_LIMITS.valuesPerOption} values`);
          seen.push({ spelling: value, line: row.line });
        }
        rowValues.push(value);
      }
    }

    const sku = cell("sku");
    if (sku !== "" && !SKU_TEXT.test(sku))
      at(
        `sku must be letters, digits and . _ - / without spaces, starting with a letter or digit, at most ${VARIANT_LIMITS.sku} characters (got "${sku}")`,
      );
    const barcode = cell("barcode");
    if (barcode !== "" && !BARCODE_TEXT.test(barcode))
      at(
        `barcode must be letters, digits and hyphens, at most ${VARIANT_LIMITS.barcode} characters (got "${barcode}")`,
      );
    const messages: string[] = [];
    const priceCents = readMoney(cell("variant_price"), "variant_price", messages, true);
    const originalPriceCents = readMoney(
      cell("variant_original_price"),
      "variant_original_price",
      messages,
      false,
    );
    const stock = readStock(cell("variant_stock"), "variant_stock", messages);
    const weightGrams = readWeight(cell(VARIANT_WEIGHT_COLUMN), VARIANT_WEIGHT_COLUMN, messages);
    for (const message of messages) at(message);
    if (problems.length > before) continue;

    const combination = JSON.stringify(rowValues.map(fold));
    const also = combinations.get(combination);
    if (also !== undefined) {
      at(
        names.length === 0
          ? `a product without options has one row (its variant), and line ${also} is that row`
          : `the combination ${names.map((n, i) => `${n}: ${rowValues[i]}`).join(" · ")} is also on line ${also}`,
      );
      continue;
    }
    combinations.set(combination, row.line);
    if (variants.length === VARIANT_LIMITS.variants) {
      at(`a product has at most ${VARIANT_LIMITS.variants} variants (rows)`);
      continue;
    }
    variants.push({
      sku: sku === "" ? null : sku,
      values: rowValues,
      priceCents: priceCents!,
      originalPriceCents,
      stock,
      barcode: barcode === "" ? null : barcode,
      weightGrams: weightGrams ?? 0,
    });
    weights.push(weightGrams);
  }
  if (problems.length > 0) return { ok: false, problems };

  const lines = rows.map((row) => row.line);
  const input = {
    options: names.map((name, i) => ({ name, values: values[i]!.map((v) => v.spelling) })),
    variants,
  };
  // the contract the admin editor and the seed meet too; the checks above word its refusals
  const checked = productVariantsInputSchema.safeParse(input);
  if (!checked.success) {
    return {
      ok: false,
      // a SKU twice is the file's check (products-csv.ts), across products too
      problems: checked.error.issues
        .filter((issue) => issue.path.at(-1) !== "sku")
        .map((issue) => ({
          line: issue.path[0] === "variants" ? (lines[Number(issue.path[1])] ?? first.line) : first.line,
          message: `options and variants: ${issue.message}`,
        })),
    };
  }
  return { ok: true, value: { input: checked.data, lines, weights } };
}

/** The option names the product's first row gives (slots used in order, names distinct). */
function optionNames(row: VariantRow, problems: LineProblem[]): string[] {
  const names: string[] = [];
  for (const slot of SLOTS) {
    const name = row.cells[nameColumn(slot)].trim();
    if (name === "") continue;
    if (names.length !== slot - 1) {
      problems.push({
        line: row.line,
        message: `${nameColumn(slot)} is used without option${slot - 1}_name`,
      });
      continue;
    }
    if (name.length > VARIANT_LIMITS.optionName)
      problems.push({
        line: row.line,
        message: `${nameColumn(slot)} must be at most ${VARIANT_LIMITS.optionName} characters`,
      });
    if (names.some((n) => fold(n) === fold(name)))
      problems.push({ line: row.line, message: `option names must differ ("${name}" twice)` });
    names.push(name);
  }
  return names;
}

/** A live variant as the export writes it, with its product's option names (by position). */
export interface VariantCsvSource {
  sku: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  barcode: string | null;
  weightGrams: number;
}

/** A variant's cells, in VARIANT_CSV_COLUMNS order, then its weight (VARIANT_WEIGHT_COLUMN). */
export function variantCsvCells(optionNames: readonly string[], variant: VariantCsvSource): string[] {
  const values = [variant.option1, variant.option2, variant.option3];
  return [
    ...SLOTS.flatMap((slot) => {
      const name = optionNames[slot - 1];
      return name === undefined ? ["", ""] : [name, values[slot - 1] ?? ""];
    }),
    variant.sku,
    dollars(variant.priceCents),
    variant.originalPriceCents === null ? "" : dollars(variant.originalPriceCents),
    String(variant.stock),
    variant.barcode ?? "",
    kgText(variant.weightGrams),
  ];
}
