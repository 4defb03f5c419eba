import { CsvError, parse } from "csv-parse/sync";
import type { TaxClass } from "../../../lib/markets.ts";
import type { Currency } from "../../../lib/money.ts";
import { PRODUCT_LIMITS, type ProductInput, productInputSchema } from "../../../lib/product-input.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { readMoney, readStock, readTaxClass, readWeight } from "./products-csv-cells.ts";
import {
  type CsvVariants,
  readVariantRows,
  VARIANT_CSV_COLUMNS,
  VARIANT_WEIGHT_COLUMN,
} from "./products-csv-variants.ts";

/**
 * The products CSV: its columns, and reading and writing its rows. Pure: the database side
 * (which rows exist, the transaction) is in products-csv.server.ts.
 *
 * Two layouts. The product columns alone (the old layout): one row per product, its price and
 * stock those of its one variant. With the variant columns (products-csv-variants.ts, what the
 * export writes): one row per variant, the product's columns repeated on each of its rows, which
 * are consecutive; price, originalPrice and stock then only show the product's summary (the
 * export writes it, the import ignores it: the variant columns are the truth).
 *
 * Two optional columns (issue 30), read in either layout: the product's `taxClass` and a variant's
 * `variant_weight_kg` (in the old layout, the one variant's, as its price and stock are). A file
 * without them — or a row leaving them empty — keeps what is stored (a new product: standard, 0 kg).
 */
export const PRODUCT_FIELD_COLUMNS = [
  "id",
  "slug",
  "name",
  "description",
  "brand",
  "category",
  "subcategory",
  "price",
  "originalPrice",
  "stock",
  "featured",
  "newArrival",
  "bestSeller",
  "specifications",
] as const;
export type ProductFieldColumn = (typeof PRODUCT_FIELD_COLUMNS)[number];
/**
 * The currency the row's amounts are in (the shop's, as the export writes it). Optional on
 * import: a row naming another currency is refused, since amounts are never converted.
 */
export const CURRENCY_COLUMN = "currency";
/** The product's tax class (standard, reduced, zero, exempt): optional on import. */
export const TAX_CLASS_COLUMN = "taxClass";
/**
 * The columns the export writes: the product's (its tax class last), then its variant's (its weight
 * last), then the currency.
 */
export const PRODUCT_CSV_COLUMNS = [
  ...PRODUCT_FIELD_COLUMNS,
  TAX_CLASS_COLUMN,
  ...VARIANT_CSV_COLUMNS,
  VARIANT_WEIGHT_COLUMN,
  CURRENCY_COLUMN,
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
/** The summary columns: read in the old layout, ignored beside the variant columns. */
const SUMMARY_COLUMNS = new Set<string>(["price", "originalPrice", "stock"]);

export const PRODUCT_CSV_LIMITS = {
  ...PRODUCT_LIMITS,
  slug: 200,
  /** the largest id an `integer` column holds on both engines */
  id: 2_147_483_647,
  /** rows per file (one per product, or per variant) */
  rows: 100_000,
} as const;

/** Lower-case words joined by single hyphens; never only digits (those are ids in URLs). */
export const SLUG_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type SummaryField = "priceCents" | "originalPriceCents" | "stock" | "weightGrams";
/** A product's own fields as its row(s) give them, and where it goes. */
interface ProductCsvTarget extends Omit<ProductInput, SummaryField | "taxClass"> {
  /** the file's line where the (first) row starts (the header is line 1) */
  line: number;
  id: number | null;
  /** null: keep the existing product's slug (only allowed with an id) */
  slug: string | null;
  /** null (empty, or no column): keep the existing product's class (a new one: standard) */
  taxClass: TaxClass | null;
}
/**
 * A product as the CSV describes it, after validation: with its price, stock and weight (old
 * layout, one row; a weight of null keeps the stored one), or with its options and variants
 * (variant layout, one row per variant).
 */
export type ProductCsvRecord =
  | (ProductCsvTarget & { layout: "product" } & Pick<ProductInput, SummaryField>)
  | (ProductCsvTarget & { layout: "variants"; variants: CsvVariants });

export interface CsvProblem {
  line: number;
  message: string;
}

/** A file that cannot be imported as it is: every problem, each with its line. */
export type CsvRefusal = { code: "invalid"; problems: CsvProblem[] };

export type ReadProductsCsvResult = Result<ProductCsvRecord[], CsvRefusal>;

const refused = (problems: CsvProblem[]) => fail({ code: "invalid" as const, problems });

/** Known categories: each top-level category id with the ids of its subcategories. */
export type CategoryIndex = ReadonlyMap<string, ReadonlySet<string>>;

const FLAG_VALUES: Record<string, boolean> = {
  "": false,
  true: true,
  false: false,
  yes: true,
  no: false,
  "1": true,
  "0": false,
};

/**
 * Parses and validates a products CSV. Every row is checked and every problem reported with
 * its line, so one pass shows all that needs fixing; a malformed file (an unbalanced quote, say)
 * is one problem at the line where the parser stopped.
 */
export function readProductsCsv(
  text: string,
  categories: CategoryIndex,
  currency: Currency,
): ReadProductsCsvResult {
  let parsed: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    // with `info`, each record comes with where it ends (csv-parse's types omit that overload)
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 1;
      return refused([{ line, message: `malformed CSV: ${describeCsvError(error)}` }]);
    }
    throw error;
  }
  if (parsed.length === 0) return refused([{ line: 1, message: "the file is empty" }]);

  // A record's first line: the line after the previous record, plus any empty lines skipped.
  let previousEnd = 0;
  let previousEmpty = 0;
  const rows = parsed.map(({ record, info }) => {
    const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
    previousEnd = info.lines;
    previousEmpty = info.empty_lines;
    return { line, record };
  });

  const [header, ...body] = rows;
  const columns = header!.record.map((name) => name.trim());
  const { problems: headerProblems, withVariants } = checkHeader(columns);
  if (headerProblems.length > 0) {
    return refused(headerProblems.map((message) => ({ line: header!.line, message })));
  }
  if (body.length === 0) return refused([{ line: header!.line, message: "no product rows" }]);
  if (body.length > PRODUCT_CSV_LIMITS.rows) {
    return refused([{ line: 1, message: `at most ${PRODUCT_CSV_LIMITS.rows} rows per file` }]);
  }

  const problems: CsvProblem[] = [];
  const cellRows: CellRow[] = [];
  for (const { line, record } of body) {
    if (record.length !== columns.length) {
      problems.push({ line, message: `expected ${columns.length} fields, found ${record.length}` });
      continue;
    }
    const cells = Object.fromEntries(columns.map((name, i) => [name, unescapeFormula(record[i] ?? "")]));
    for (const column of PRODUCT_CSV_COLUMNS) cells[column] ??= "";
    const rowCurrency = (cells[CURRENCY_COLUMN] ?? "").trim().toUpperCase();
    if (rowCurrency !== "" && rowCurrency !== currency) {
      problems.push({
        line,
        message: `amounts in ${rowCurrency.slice(0, 10)}: this shop sells in ${currency} (amounts are not converted)`,
      });
    }
    cellRows.push({ line, cells: cells as Record<ProductCsvColumn, string> });
  }

  const records: ProductCsvRecord[] = [];
  const seenIds = new Map<number, number>();
  const seenSlugs = new Map<string, number>();
  const groups = withVariants ? productGroups(cellRows, problems) : cellRows.map((row) => [row]);
  for (const group of groups) {
    const [first] = group;
    const { line, cells } = first!;
    const result = readRow(cells, categories, !withVariants);
    const rowProblems = result.ok ? [] : result.error.problems;
    problems.push(...rowProblems.map((message) => ({ line, message })));
    if (withVariants) {
      problems.push(...repeatedCellProblems(group));
      const variants = readVariantRows(group);
      if (!variants.ok) problems.push(...variants.problems);
      else if (result.ok) {
        const {
          priceCents: _p,
          originalPriceCents: _o,
          stock: _s,
          weightGrams: _w,
          ...product
        } = result.value;
        records.push({ ...product, line, layout: "variants", variants: variants.value });
      }
    } else if (result.ok) {
      records.push({
        ...result.value,
        line,
        layout: "product",
        priceCents: result.value.priceCents!,
        originalPriceCents: result.value.originalPriceCents,
        stock: result.value.stock!,
        weightGrams: result.value.weightGrams,
      });
    }
    if (!result.ok) continue;
    const { id, slug } = result.value;
    if (id !== null) {
      const also = seenIds.get(id);
      if (also) problems.push({ line, message: `id ${id} is also on line ${also}` });
      else seenIds.set(id, line);
    }
    if (slug !== null) {
      const also = seenSlugs.get(slug);
      if (also) problems.push({ line, message: `slug "${slug}" is also on line ${also}` });
      else seenSlugs.set(slug, line);
    }
  }
  if (withVariants) problems.push(...repeatedSkuProblems(cellRows));
  problems.sort((a, b) => a.line - b.line);
  return problems.length > 0 ? refused(problems) : ok(records);
}

interface CellRow {
  line: number;
  cells: Record<ProductCsvColumn, string>;
}

/**
 * The variant layout's rows gathered per product: consecutive rows with the same id (or, without
 * an id, the same slug). A product whose rows are not together is a problem at each stray row.
 */
function productGroups(rows: CellRow[], problems: CsvProblem[]): CellRow[][] {
  const groups: CellRow[][] = [];
  const firstLines = new Map<string, number>();
  let previous: string | null = null;
  for (const row of rows) {
    const id = row.cells.id.trim();
    const slug = row.cells.slug.trim();
    const key = id !== "" ? `id ${id}` : slug !== "" ? `slug "${slug}"` : null;
    if (key !== null && key === previous) {
      groups[groups.length - 1]!.push(row);
      continue;
    }
    previous = key;
    const earlier = key === null ? undefined : firstLines.get(key);
    if (earlier !== undefined) {
      problems.push({
        line: row.line,
        message: `the rows of the product with ${key} must be consecutive (it starts on line ${earlier})`,
      });
      continue;
    }
    if (key !== null) firstLines.set(key, row.line);
    groups.push([row]);
  }
  return groups;
}

const REPEATED_COLUMNS: readonly ProductCsvColumn[] = [...PRODUCT_FIELD_COLUMNS, TAX_CLASS_COLUMN];

/** Each row of a product repeats its product columns as its first row has them. */
function repeatedCellProblems(group: CellRow[]): CsvProblem[] {
  const [first, ...others] = group;
  return others.flatMap((row) =>
    REPEATED_COLUMNS.filter(
      (column) => !SUMMARY_COLUMNS.has(column) && row.cells[column].trim() !== first!.cells[column].trim(),
    ).map((column) => ({
      line: row.line,
      message: `${column} differs from line ${first!.line}: every row of a product repeats its columns`,
    })),
  );
}

/** A SKU names one variant in the whole file (letter case aside, as within a product). */
function repeatedSkuProblems(rows: CellRow[]): CsvProblem[] {
  const problems: CsvProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of rows) {
    const sku = cells.sku.trim();
    if (sku === "") continue;
    const also = seen.get(sku.toLowerCase());
    if (also !== undefined) problems.push({ line, message: `sku "${sku}" is also on line ${also}` });
    else seen.set(sku.toLowerCase(), line);
  }
  return problems;
}

/** The header's problems, and whether it has the variant columns (all of them, or none). */
function checkHeader(columns: string[]): { problems: string[]; withVariants: boolean } {
  const problems: string[] = [];
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0) problems.push(`unknown columns: ${unknown.join(", ")}`);
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (repeated.length > 0) problems.push(`repeated columns: ${[...new Set(repeated)].join(", ")}`);
  const withVariants = VARIANT_CSV_COLUMNS.some((c) => columns.includes(c));
  const required: readonly string[] = withVariants
    ? [...PRODUCT_FIELD_COLUMNS.filter((c) => !SUMMARY_COLUMNS.has(c)), ...VARIANT_CSV_COLUMNS]
    : PRODUCT_FIELD_COLUMNS;
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    problems.push(
      `missing columns: ${missing.join(", ")}${withVariants ? " (a file with variant columns has all of them)" : ""}`,
    );
  return { problems, withVariants };
}

/** A row's product, or what is wrong with it (one message per problem). */
type RowResult = Result<
  Omit<ProductCsvTarget, "line"> & {
    priceCents: number | null;
    originalPriceCents: number | null;
    stock: number | null;
    weightGrams: number | null;
  },
  { code: "invalid"; problems: string[] }
>;

/**
 * The product columns of a row; price, originalPrice, stock and the one variant's weight only when
 * `withPrice`.
 */
function readRow(
  cells: Record<ProductCsvColumn, string>,
  categories: CategoryIndex,
  withPrice: boolean,
): RowResult {
  const problems: string[] = [];
  const value = (name: ProductCsvColumn) => cells[name].trim();

  let id: number | null = null;
  if (value("id") !== "") {
    id = /^[1-9]\d{0,9}$/.test(value("id")) ? Number(value("id")) : Number.NaN;
    if (!(id <= PRODUCT_CSV_LIMITS.id))
      problems.push(`id must be a positive whole number (got "${value("id")}")`);
  }

  const slug = value("slug");
  if (slug === "") {
    if (id === null) problems.push("slug is required for a product without an id");
  } else if (slug.length > PRODUCT_CSV_LIMITS.slug) {
    problems.push(`slug must be at most ${PRODUCT_CSV_LIMITS.slug} characters`);
  } else if (!SLUG_FORMAT.test(slug) || /^\d+$/.test(slug)) {
    problems.push(
      `slug must be lower-case letters and digits joined by single hyphens, not only digits (got "${slug}")`,
    );
  }

  for (const field of ["name", "description", "brand"] as const) {
    const text = value(field);
    if (text === "") problems.push(`${field} is required`);
    else if (text.length > PRODUCT_CSV_LIMITS[field])
      problems.push(`${field} must be at most ${PRODUCT_CSV_LIMITS[field]} characters (has ${text.length})`);
  }

  const categoryId = value("category");
  const subcategoryId = value("subcategory");
  const subcategories = categories.get(categoryId);
  if (categoryId === "") problems.push("category is required");
  else if (!subcategories) problems.push(`unknown category "${categoryId}"`);
  else if (subcategoryId !== "" && !subcategories.has(subcategoryId)) {
    problems.push(`unknown subcategory "${subcategoryId}" for category "${categoryId}"`);
  }

  const summary = withPrice
    ? {
        priceCents: readMoney(value("price"), "price", problems, true),
        originalPriceCents: readMoney(value("originalPrice"), "originalPrice", problems, false),
        stock: readStock(value("stock"), "stock", problems),
        weightGrams: readWeight(value(VARIANT_WEIGHT_COLUMN), VARIANT_WEIGHT_COLUMN, problems),
      }
    : { priceCents: null, originalPriceCents: null, stock: null, weightGrams: null };
  const taxClass = readTaxClass(value(TAX_CLASS_COLUMN), TAX_CLASS_COLUMN, problems);

  const flags = { featured: false, newArrival: false, bestSeller: false };
  for (const flag of ["featured", "newArrival", "bestSeller"] as const) {
    const parsed = FLAG_VALUES[value(flag).toLowerCase()];
    if (parsed === undefined) problems.push(`${flag} must be true or false (got "${value(flag)}")`);
    else flags[flag] = parsed;
  }

  const specifications = readSpecifications(value("specifications"), problems);

  if (problems.length > 0) return fail({ code: "invalid", problems });
  // the row's product meets the one product contract (the admin form and the seed meet it too);
  // beside the variant columns, its price and stock are its variants' (checked by their contract)
  const fields = {
    name: value("name"),
    description: value("description"),
    brand: value("brand"),
    categoryId,
    subcategoryId: subcategoryId === "" ? null : subcategoryId,
    specifications: specifications!,
    ...flags,
  };
  if (withPrice) productInputSchema.parse({ ...fields, taxClass: taxClass ?? "standard", ...summary });
  else
    productInputSchema
      .omit({ priceCents: true, originalPriceCents: true, stock: true, weightGrams: true, taxClass: true })
      .parse(fields);
  return ok({ id, slug: slug === "" ? null : slug, ...fields, taxClass, ...summary });
}

function readSpecifications(text: string, problems: string[]): Record<string, string> | null {
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    problems.push('specifications must be a JSON object such as {"Weight": "1.2 kg"}');
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push('specifications must be a JSON object such as {"Weight": "1.2 kg"}');
    return null;
  }
  const entries = Object.entries(value);
  const { specifications: most, specName, specValue } = PRODUCT_CSV_LIMITS;
  if (entries.length > most) problems.push(`specifications may have at most ${most} entries`);
  for (const [name, spec] of entries) {
    if (typeof spec !== "string") {
      problems.push(`specification "${name}" must be text`);
      return null;
    }
    if (name.trim() === "" || spec.trim() === "") {
      problems.push("every specification needs a name and a value");
      return null;
    }
    if (name.length > specName || spec.length > specValue) {
      problems.push(`specification names at most ${specName} and values at most ${specValue} characters`);
      return null;
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function describeCsvError(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field is never closed (unbalanced double quote)";
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
      return 'a double quote inside a field must be written as two ("") and the field quoted';
    default:
      return error.message;
  }
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR, or their full-width forms)
 * is written with a leading apostrophe (OWASP's CSV-injection advice, csv-stringify's
 * `escape_formulas`); reading strips that apostrophe again, so an export imports unchanged.
 */
const ESCAPED_FORMULA = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;
const unescapeFormula = (cell: string) => cell.replace(ESCAPED_FORMULA, "");
