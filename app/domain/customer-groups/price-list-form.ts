/**
 * A customer group's price list's words and limits (Admin → Customer groups → Price list, issue 31,
 * decision 037). Pure (the pages' client code imports it); the rules that read the database are
 * price-lists.server.ts's, the form's schema price-list-schema.server.ts's.
 */
import type { CsvLineProblem } from "./group-form.ts";

export type { CsvLineProblem } from "./group-form.ts";

export const PRICE_LIST_LIMITS = {
  /** the largest list price, in the currency's units */
  amount: 10_000_000,
  /** how many prices the page lists (the count is of all) */
  shown: 500,
  /** lines of a CSV import */
  lines: 50_000,
} as const;

/** A line of the price list as the page shows it. */
export interface PriceListEntry {
  variantId: number;
  sku: string;
  productName: string;
  /** "M / Black"; "" for a product without options */
  options: string;
  regularCents: number;
  priceCents: number;
}

export const PRICE_LIST_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  sku: "Enter the variant's SKU, as on its product page in the admin.",
  price: "Enter a price above 0, like 19 or 18.50.",
  unknownSku: (sku: string) => `No variant has the SKU ${sku}.`,
  notFound: "This group no longer exists.",
  notListed: "That price is no longer on the list.",
  forbidden: "Your role may not manage customer groups.",
  set: (sku: string, price: string) => `${sku} is ${price} for this group`,
  removed: (sku: string) => `${sku} taken off the price list`,
  imported: (count: number) => `${count} ${count === 1 ? "price" : "prices"} set from the file`,
  badLines: (count: number) =>
    `Nothing was imported: ${count} ${count === 1 ? "line needs" : "lines need"} correcting (listed below).`,
  noFile: "Choose a CSV file of SKUs and prices.",
  tooLarge: "The file is too large: at most 5 MB.",
  unreadableUpload: "The upload could not be read: choose the file again.",
  notText: "The file is not UTF-8 text: save it as CSV (UTF-8).",
  emptyFile: "The file holds no prices.",
  tooManyLines: `The file holds more than ${PRICE_LIST_LIMITS.lines} lines: split it.`,
  lineUnknownSku: (sku: string) => `no variant has the SKU ${sku}`,
  lineNoSku: "no SKU in the first column",
  lineBadPrice: (text: string) => `“${text.slice(0, 30)}” is not a price above 0 (like 19 or 18.50)`,
  lineRepeated: (sku: string, first: number) => `${sku} is already priced on line ${first}`,
} as const;

/** A line problem, as the import page lists it. */
export type PriceLineProblem = CsvLineProblem;
