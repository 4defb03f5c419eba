import { CsvError, parse } from "csv-parse/sync";
import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { type Currency, formatMoney } from "../../lib/money.ts";
import { type ListPrice, lowestListPrices } from "../../lib/price-lists.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { auditOf, groupRow, type Trx } from "./group-store.server.ts";
import {
  PRICE_LIST_LIMITS as LIMITS,
  PRICE_LIST_MESSAGES as M,
  type PriceLineProblem,
  type PriceListEntry,
} from "./price-list-form.ts";
import { listPriceCents, typedSku } from "./price-list-schema.server.ts";

/**
 * Price lists (issue 31, decision 037): a customer group's own price for a variant
 * (`customer_group_prices`), set by SKU, removed, or imported from a CSV of SKUs and prices — all
 * of it or, when a line is wrong, none of it. Commands take the acting staff member and decide the
 * `customers` permission themselves, as the groups' do; every change is audited in its transaction
 * (`customer_group.set_price`, `.remove_price`, `.import_prices`).
 *
 * The shopper's side — which list price a signed-in member gets — is read here too
 * (`memberListPrices`, `memberListPricesOfProducts`) and decided by lib/price-lists.ts; Place Order's
 * stock take confirms a member price in its transaction with `listPriceHolds`.
 */

export type PriceListError =
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "unknown-sku"; sku: string }
  | { code: "not-listed" }
  | { code: "unreadable"; message: string }
  | { code: "bad-lines"; problems: PriceLineProblem[] };

export type PriceListResult<T> = Result<T, PriceListError>;

async function asPriceManager<T>(
  db: Database,
  actor: StaffActor,
  change: (trx: Transaction<DB>) => Promise<PriceListResult<T>>,
): Promise<PriceListResult<T>> {
  if (!actorCan(actor, "customers")) return fail({ code: "forbidden" });
  return db.transaction().execute(change);
}

const optionsText = (values: readonly (string | null)[]) =>
  values.filter((value): value is string => Boolean(value)).join(" / ");

/** A group's price list, by SKU (the first PRICE_LIST_LIMITS.shown), with its size; null: no such group. */
export async function getPriceList(
  db: Database,
  id: number,
): Promise<{ id: number; name: string; count: number; prices: PriceListEntry[] } | null> {
  const group = await groupRow(db, id);
  if (!group) return null;
  const [rows, count] = await Promise.all([
    db
      .selectFrom("customerGroupPrices")
      .innerJoin("productVariants", "productVariants.id", "customerGroupPrices.variantId")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select([
        "customerGroupPrices.variantId",
        "customerGroupPrices.priceCents",
        "productVariants.sku",
        "productVariants.priceCents as regularCents",
        "productVariants.option1",
        "productVariants.option2",
        "productVariants.option3",
        "products.name as productName",
      ])
      .where("customerGroupPrices.groupId", "=", id)
      .orderBy("productVariants.sku")
      .limit(LIMITS.shown)
      .execute(),
    db
      .selectFrom("customerGroupPrices")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("groupId", "=", id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    id: group.id,
    name: group.name,
    count: Number(count.count),
    prices: rows.map((row) => ({
      variantId: row.variantId,
      sku: row.sku,
      productName: row.productName,
      options: optionsText([row.option1, row.option2, row.option3]),
      regularCents: row.regularCents,
      priceCents: row.priceCents,
    })),
  };
}

/** The variants with these SKUs (any case; an exact match first), by lower-case SKU. */
async function variantsBySku(
  trx: Trx,
  skus: readonly string[],
): Promise<Map<string, { id: number; sku: string }>> {
  const found = new Map<string, { id: number; sku: string }>();
  const lower = [...new Set(skus.map((sku) => sku.toLowerCase()))];
  for (let i = 0; i < lower.length; i += 500) {
    const rows = await trx
      .selectFrom("productVariants")
      .select(["id", "sku"])
      .where((eb) => eb(eb.fn("lower", ["sku"]), "in", lower.slice(i, i + 500)))
      .orderBy("id")
      .execute();
    for (const row of rows) {
      const key = row.sku.toLowerCase();
      if (!found.has(key) || skus.includes(row.sku)) found.set(key, { id: row.id, sku: row.sku });
    }
  }
  return found;
}

/** Sets these variants' prices on the group's list (new rows, or the price changed), in batches. */
async function putPrices(
  trx: Transaction<DB>,
  groupId: number,
  prices: readonly { variantId: number; priceCents: number }[],
  at: string,
) {
  for (let i = 0; i < prices.length; i += 500) {
    await trx
      .insertInto("customerGroupPrices")
      .values(
        prices.slice(i, i + 500).map(({ variantId, priceCents }) => ({
          groupId,
          variantId,
          priceCents,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["groupId", "variantId"]).doUpdateSet((eb) => ({
          priceCents: eb.ref("excluded.priceCents"),
          updatedAt: eb.ref("excluded.updatedAt"),
        })),
      )
      .execute();
  }
}

/** Sets one variant's price on the group's list, named by its SKU; refused beside the field when no variant has it. */
export async function setGroupPrice(
  db: Database,
  {
    id,
    sku,
    priceCents,
    currency,
    actor,
    now = new Date(),
  }: { id: number; sku: string; priceCents: number; currency: Currency; actor: StaffActor; now?: Date },
): Promise<PriceListResult<{ sku: string; priceCents: number; changed: boolean }>> {
  return asPriceManager<{ sku: string; priceCents: number; changed: boolean }>(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const variant = (await variantsBySku(trx, [sku])).get(sku.toLowerCase());
    if (!variant) return fail({ code: "unknown-sku", sku });
    const before = await trx
      .selectFrom("customerGroupPrices")
      .select("priceCents")
      .where("groupId", "=", id)
      .where("variantId", "=", variant.id)
      .executeTakeFirst();
    if (before?.priceCents === priceCents) return ok({ sku: variant.sku, priceCents, changed: false });
    await putPrices(trx, id, [{ variantId: variant.id, priceCents }], now.toISOString());
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.set_price",
      entityType: "customer_group",
      entityId: id,
      summary: `Price of ${variant.sku} for customer group ${group.name}: ${formatMoney(priceCents, currency)}${
        before ? ` (was ${formatMoney(before.priceCents, currency)})` : ""
      }`,
      before: before ? { sku: variant.sku, priceCents: before.priceCents } : undefined,
      after: { sku: variant.sku, priceCents },
      now,
    });
    return ok({ sku: variant.sku, priceCents, changed: true });
  });
}

/** Takes a variant off the group's price list (its members pay the regular price again). */
export async function removeGroupPrice(
  db: Database,
  {
    id,
    variantId,
    actor,
    now = new Date(),
  }: { id: number; variantId: number; actor: StaffActor; now?: Date },
): Promise<PriceListResult<{ sku: string }>> {
  return asPriceManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const row = await trx
      .selectFrom("customerGroupPrices")
      .innerJoin("productVariants", "productVariants.id", "customerGroupPrices.variantId")
      .select(["productVariants.sku", "customerGroupPrices.priceCents"])
      .where("customerGroupPrices.groupId", "=", id)
      .where("customerGroupPrices.variantId", "=", variantId)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-listed" });
    await trx
      .deleteFrom("customerGroupPrices")
      .where("groupId", "=", id)
      .where("variantId", "=", variantId)
      .execute();
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.remove_price",
      entityType: "customer_group",
      entityId: id,
      summary: `Took ${row.sku} off the price list of customer group ${group.name}`,
      before: { sku: row.sku, priceCents: row.priceCents },
      now,
    });
    return ok({ sku: row.sku });
  });
}

/**
 * A CSV's prices with their line numbers: the first column a SKU, the second a price ("19",
 * "18.50", "$1,299.00"); a first line whose price is none is a header ("sku,price"); empty lines
 * are skipped. Lines without a SKU or with no price, and a SKU priced twice, are problems.
 */
export function readPricesCsv(
  text: string,
): Result<
  { prices: { line: number; sku: string; priceCents: number }[]; problems: PriceLineProblem[] },
  { code: "unreadable"; message: string }
> {
  let parsed: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError)
      return fail({ code: "unreadable", message: `The file is not a readable CSV: ${error.message}` });
    throw error;
  }
  if (parsed.length > LIMITS.lines + 1) return fail({ code: "unreadable", message: M.tooManyLines });
  const prices: { line: number; sku: string; priceCents: number }[] = [];
  const problems: PriceLineProblem[] = [];
  const firstLineOf = new Map<string, number>();
  let previousEnd = 0;
  let previousEmpty = 0;
  parsed.forEach(({ record, info }, index) => {
    const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
    previousEnd = info.lines;
    previousEmpty = info.empty_lines;
    const [skuCell = "", priceCell = ""] = record.map((cell) => cell.trim());
    if (record.every((cell) => cell.trim() === "")) return;
    const priceCents = listPriceCents(priceCell);
    if (index === 0 && priceCents === null && /^sku$/i.test(skuCell)) return; // the header
    const sku = typedSku(skuCell);
    if (sku === null) {
      problems.push({ line, message: skuCell === "" ? M.lineNoSku : M.lineUnknownSku(skuCell.slice(0, 64)) });
      return;
    }
    if (priceCents === null) {
      problems.push({ line, message: M.lineBadPrice(priceCell) });
      return;
    }
    const first = firstLineOf.get(sku.toLowerCase());
    if (first !== undefined) {
      problems.push({ line, message: M.lineRepeated(sku, first) });
      return;
    }
    firstLineOf.set(sku.toLowerCase(), line);
    prices.push({ line, sku, priceCents });
  });
  return ok({ prices, problems });
}

/**
 * Sets the prices a CSV of SKUs and prices names on the group's list — all of them, or none: a
 * line that names no variant, or no price, is reported with its line number and nothing is written.
 */
export async function importGroupPricesCsv(
  db: Database,
  {
    id,
    text,
    filename = "",
    actor,
    now = new Date(),
  }: { id: number; text: string; filename?: string; actor: StaffActor; now?: Date },
): Promise<PriceListResult<{ name: string; set: number }>> {
  return asPriceManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const read = readPricesCsv(text);
    if (!read.ok) return read;
    const { prices } = read.value;
    if (prices.length === 0 && read.value.problems.length === 0) {
      return fail({ code: "unreadable", message: M.emptyFile });
    }
    const found = await variantsBySku(
      trx,
      prices.map((price) => price.sku),
    );
    const problems = [...read.value.problems];
    const rows: { variantId: number; priceCents: number }[] = [];
    for (const { line, sku, priceCents } of prices) {
      const variant = found.get(sku.toLowerCase());
      if (!variant) problems.push({ line, message: M.lineUnknownSku(sku) });
      else rows.push({ variantId: variant.id, priceCents });
    }
    if (problems.length > 0) {
      problems.sort((a, b) => a.line - b.line);
      return fail({ code: "bad-lines", problems });
    }
    await putPrices(trx, id, rows, now.toISOString());
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.import_prices",
      entityType: "customer_group",
      entityId: id,
      summary: `Imported ${rows.length} prices into the price list of customer group ${group.name}${
        filename ? ` from ${filename}` : ""
      }`,
      after: { prices: prices.slice(0, 100).map(({ sku, priceCents }) => ({ sku, priceCents })) },
      now,
    });
    return ok({ name: group.name, set: rows.length });
  });
}

/**
 * The lowest list price each of these variants has among the shopper's groups (none: not in a
 * group that lists it). One indexed query: the shopper's memberships, their groups' rows for the
 * variants.
 */
export async function memberListPrices(
  db: Trx,
  userId: string,
  variantIds: readonly number[],
): Promise<Map<number, ListPrice>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("customerGroupMembers")
    .innerJoin("customerGroupPrices", "customerGroupPrices.groupId", "customerGroupMembers.groupId")
    .select([
      "customerGroupPrices.variantId",
      "customerGroupPrices.groupId",
      "customerGroupPrices.priceCents",
    ])
    .where("customerGroupMembers.userId", "=", userId)
    .where("customerGroupPrices.variantId", "in", [...new Set(variantIds)])
    .execute();
  return lowestListPrices(rows);
}

/** A live variant of one of these products that the shopper's groups list, with its own prices. */
export interface ListedVariant {
  productId: number;
  variantId: number;
  regularCents: number;
  originalPriceCents: number | null;
  listCents: number;
}

/** The live variants of these products the shopper's groups list, each at its lowest list price (the storefront). */
export async function memberListPricesOfProducts(
  db: Database,
  userId: string,
  productIds: readonly number[],
): Promise<ListedVariant[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .selectFrom("customerGroupMembers")
    .innerJoin("customerGroupPrices", "customerGroupPrices.groupId", "customerGroupMembers.groupId")
    .innerJoin("productVariants", "productVariants.id", "customerGroupPrices.variantId")
    .select([
      "productVariants.productId",
      "customerGroupPrices.variantId",
      "customerGroupPrices.groupId",
      "customerGroupPrices.priceCents",
      "productVariants.priceCents as regularCents",
      "productVariants.originalPriceCents",
    ])
    .where("customerGroupMembers.userId", "=", userId)
    .where("productVariants.productId", "in", [...new Set(productIds)])
    .where("productVariants.archivedAt", "is", null)
    .execute();
  const lowest = lowestListPrices(rows);
  const seen = new Set<number>();
  const listed: ListedVariant[] = [];
  for (const row of rows) {
    if (seen.has(row.variantId)) continue;
    seen.add(row.variantId);
    listed.push({
      productId: row.productId,
      variantId: row.variantId,
      regularCents: row.regularCents,
      originalPriceCents: row.originalPriceCents,
      listCents: lowest.get(row.variantId)!.priceCents,
    });
  }
  return listed;
}

/**
 * Whether a line priced at `priceCents` from `groupId`'s list may be charged that in the order
 * `orderId`'s transaction: the list still holds that price for the variant, and the order's
 * account is still in the group. (Place Order's stock take asks, decision 037.)
 */
export async function listPriceHolds(
  trx: Trx,
  {
    orderId,
    groupId,
    variantId,
    priceCents,
  }: { orderId: number; groupId: number; variantId: number; priceCents: number },
): Promise<boolean> {
  const row = await trx
    .selectFrom("customerGroupPrices")
    .innerJoin("customerGroupMembers", "customerGroupMembers.groupId", "customerGroupPrices.groupId")
    .innerJoin("orders", "orders.userId", "customerGroupMembers.userId")
    .select("customerGroupPrices.priceCents")
    .where("orders.id", "=", orderId)
    .where("customerGroupPrices.groupId", "=", groupId)
    .where("customerGroupPrices.variantId", "=", variantId)
    .where("customerGroupPrices.priceCents", "=", priceCents)
    .executeTakeFirst();
  return row !== undefined;
}
