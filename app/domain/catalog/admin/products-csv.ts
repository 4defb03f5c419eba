import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { toCents } from "../../../lib/money.ts";
import {
  PRICE_TEXT,
  PRODUCT_LIMITS,
  type ProductInput,
  productInputSchema,
  STOCK_TEXT,
} from "../../../lib/product-input.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";

/**
 * The products CSV: its columns, and reading and writing one row. Pure: the database side
 * (which rows exist, the transaction) is in products-csv.server.ts.
 */
export const PRODUCT_CSV_COLUMNS = [
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
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

export const PRODUCT_CSV_LIMITS = {
  ...PRODUCT_LIMITS,
  slug: 200,
  /** the largest id an `integer` column holds on both engines */
  id: 2_147_483_647,
  rows: 100_000,
} as const;

/** Lower-case words joined by single hyphens; never only digits (those are ids in URLs). */
export const SLUG_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A product as a CSV row describes it, after validation: the product's fields and where it goes. */
export interface ProductCsvRecord extends ProductInput {
  /** the file's line where the row starts (the header is line 1) */
  line: number;
  id: number | null;
  /** null: keep the existing product's slug (only allowed with an id) */
  slug: string | null;
}

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
export function readProductsCsv(text: string, categories: CategoryIndex): ReadProductsCsvResult {
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
  const headerProblems = checkHeader(columns);
  if (headerProblems.length > 0) {
    return refused(headerProblems.map((message) => ({ line: header!.line, message })));
  }
  if (body.length === 0) return refused([{ line: header!.line, message: "no product rows" }]);
  if (body.length > PRODUCT_CSV_LIMITS.rows) {
    return refused([{ line: 1, message: `at most ${PRODUCT_CSV_LIMITS.rows} products per file` }]);
  }

  const problems: CsvProblem[] = [];
  const records: ProductCsvRecord[] = [];
  const seenIds = new Map<number, number>();
  const seenSlugs = new Map<string, number>();
  for (const { line, record } of body) {
    if (record.length !== columns.length) {
      problems.push({ line, message: `expected ${columns.length} fields, found ${record.length}` });
      continue;
    }
    const cells = Object.fromEntries(
      columns.map((name, i) => [name, unescapeFormula(record[i] ?? "")]),
    ) as Record<ProductCsvColumn, string>;
    const result = readRow(cells, categories);
    if (!result.ok) {
      problems.push(...result.error.problems.map((message) => ({ line, message })));
      continue;
    }
    const product = { ...result.value, line };
    if (product.id !== null) {
      const first = seenIds.get(product.id);
      if (first) problems.push({ line, message: `id ${product.id} is also on line ${first}` });
      else seenIds.set(product.id, line);
    }
    if (product.slug !== null) {
      const first = seenSlugs.get(product.slug);
      if (first) problems.push({ line, message: `slug "${product.slug}" is also on line ${first}` });
      else seenSlugs.set(product.slug, line);
    }
    records.push(product);
  }
  return problems.length > 0 ? refused(problems) : ok(records);
}

function checkHeader(columns: string[]): string[] {
  const problems: string[] = [];
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const unknown = columns.filter((c) => !known.has(c));
  if (unknown.length > 0) problems.push(`unknown columns: ${unknown.join(", ")}`);
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (repeated.length > 0) problems.push(`repeated columns: ${[...new Set(repeated)].join(", ")}`);
  const missing = PRODUCT_CSV_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) problems.push(`missing columns: ${missing.join(", ")}`);
  return problems;
}

/** A row's product, or what is wrong with it (one message per problem). */
type RowResult = Result<Omit<ProductCsvRecord, "line">, { code: "invalid"; problems: string[] }>;

function readRow(cells: Record<ProductCsvColumn, string>, categories: CategoryIndex): RowResult {
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

  const priceCents = money(value("price"), "price", problems, true);
  const originalPriceCents = money(value("originalPrice"), "originalPrice", problems, false);

  let stock = Number.NaN;
  if (value("stock") === "") problems.push("stock is required");
  else {
    stock = STOCK_TEXT.test(value("stock")) ? Number(value("stock")) : Number.NaN;
    if (!(stock <= PRODUCT_CSV_LIMITS.stock))
      problems.push(
        `stock must be a whole number from 0 to ${PRODUCT_CSV_LIMITS.stock} (got "${value("stock")}")`,
      );
  }

  const flags = { featured: false, newArrival: false, bestSeller: false };
  for (const flag of ["featured", "newArrival", "bestSeller"] as const) {
    const parsed = FLAG_VALUES[value(flag).toLowerCase()];
    if (parsed === undefined) problems.push(`${flag} must be true or false (got "${value(flag)}")`);
    else flags[flag] = parsed;
  }

  const specifications = readSpecifications(value("specifications"), problems);

  if (problems.length > 0) return fail({ code: "invalid", problems });
  // the row's product meets the one product contract (the admin form and the seed meet it too)
  const product = productInputSchema.parse({
    name: value("name"),
    description: value("description"),
    brand: value("brand"),
    categoryId,
    subcategoryId: subcategoryId === "" ? null : subcategoryId,
    priceCents: priceCents!,
    originalPriceCents,
    stock,
    specifications: specifications!,
    ...flags,
  } satisfies ProductInput);
  return ok({ id, slug: slug === "" ? null : slug, ...product });
}

/** "129.99" → 12999; empty → null (a problem when required). */
function money(text: string, field: string, problems: string[], required: boolean): number | null {
  if (text === "") {
    if (required) problems.push(`${field} is required`);
    return null;
  }
  const cents = PRICE_TEXT.test(text) ? toCents(text) : Number.NaN;
  if (!(cents <= PRODUCT_CSV_LIMITS.priceCents)) {
    problems.push(`${field} must be an amount from 0 to 1000000 with at most 2 decimals (got "${text}")`);
    return null;
  }
  return cents;
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

/** A product as the export writes it (the same shape the import reads). */
export interface ProductCsvSource {
  id: number;
  slug: string;
  name: string;
  description: string;
  brand: string;
  categoryId: string;
  subcategoryId: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  /** JSON text as stored */
  specifications: string;
  featured: number;
  newArrival: number;
  bestSeller: number;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

export function productsCsvHeader(): string {
  return stringify([[...PRODUCT_CSV_COLUMNS]]);
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR, or their full-width forms)
 * is written with a leading apostrophe (OWASP's CSV-injection advice, csv-stringify's
 * `escape_formulas`); reading strips that apostrophe again, so an export imports unchanged.
 */
const ESCAPED_FORMULA = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;
const unescapeFormula = (cell: string) => cell.replace(ESCAPED_FORMULA, "");

export function productsCsvRows(products: readonly ProductCsvSource[]): string {
  return stringify(
    products.map((p) => [
      String(p.id),
      p.slug,
      p.name,
      p.description,
      p.brand,
      p.categoryId,
      p.subcategoryId ?? "",
      dollars(p.priceCents),
      p.originalPriceCents === null ? "" : dollars(p.originalPriceCents),
      String(p.stock),
      p.featured ? "true" : "false",
      p.newArrival ? "true" : "false",
      p.bestSeller ? "true" : "false",
      JSON.stringify(JSON.parse(p.specifications || "{}")),
    ]),
    { escape_formulas: true },
  );
}
