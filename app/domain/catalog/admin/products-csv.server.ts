import type { Transaction } from "kysely";
import type { Database } from "../../../db/database.server.ts";
import type { DB } from "../../../db/schema.ts";
import { insertDefaultVariant, syncProductSummary } from "../../../db/variant-summary.server.ts";
import { discountPercent } from "../../../lib/money.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import {
  type CategoryIndex,
  type CsvProblem,
  type CsvRefusal,
  type ProductCsvRecord,
  productsCsvHeader,
  productsCsvRows,
  readProductsCsv,
} from "./products-csv.ts";

const EXPORT_BATCH = 1000;
/** ids/slugs per `in (…)` lookup, well under either engine's parameter limit */
const LOOKUP_CHUNK = 500;

/**
 * The catalogue as CSV, header first, in id order, a batch of rows per chunk (so a large
 * catalogue streams). Archived products are left out: they are no longer part of the shop.
 */
export async function* exportProductsCsv(db: Database): AsyncGenerator<string> {
  yield productsCsvHeader();
  let after = 0;
  for (;;) {
    const batch = await db
      .selectFrom("products")
      .select([
        "id",
        "slug",
        "name",
        "description",
        "brand",
        "categoryId",
        "subcategoryId",
        "priceCents",
        "originalPriceCents",
        "stock",
        "specifications",
        "featured",
        "newArrival",
        "bestSeller",
      ])
      .where("archivedAt", "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(EXPORT_BATCH)
      .execute();
    if (batch.length === 0) return;
    yield productsCsvRows(batch);
    after = batch[batch.length - 1]!.id;
    if (batch.length < EXPORT_BATCH) return;
  }
}

export type ImportProductsResult = Result<
  { created: number; updated: number; unchanged: number },
  CsvRefusal
>;

/**
 * Creates or updates products from a CSV: a row with an id updates that product; a row without
 * one updates the product with its slug, or creates it. All or nothing: every row is validated
 * (also against the catalogue: known ids, free slugs) and any problem leaves the catalogue as it
 * was. Writes go through the products table, so the search index and the facet and price-band
 * counts follow through their triggers. New products start with no images, no rating or reviews.
 */
export async function importProductsCsv(
  db: Database,
  text: string,
  now: Date = new Date(),
): Promise<ImportProductsResult> {
  const read = readProductsCsv(text, await categoryIndex(db));
  if (!read.ok) return read;
  return db.transaction().execute(async (trx) => {
    const plan = await planImport(trx, read.value);
    if (!plan.ok) return plan;
    const steps = plan.value;
    const timestamp = now.toISOString();
    let created = 0;
    let updated = 0;
    for (const step of steps) {
      if (step.kind === "unchanged") continue;
      if (step.kind === "update") {
        await trx
          .updateTable("products")
          .set({ ...step.values, updatedAt: timestamp })
          .where("id", "=", step.id)
          .execute();
        // a product without options: its one variant carries the row's price and stock
        await trx
          .updateTable("productVariants")
          .set({
            priceCents: step.values.priceCents,
            originalPriceCents: step.values.originalPriceCents,
            stock: step.values.stock,
          })
          .where("productId", "=", step.id)
          .where((eb) =>
            eb(
              eb
                .selectFrom("productVariants as v")
                .select(eb.fn.countAll().as("n"))
                .whereRef("v.productId", "=", "productVariants.productId")
                .where("v.archivedAt", "is", null),
              "=",
              1,
            ),
          )
          .where("archivedAt", "is", null)
          .execute();
        await syncProductSummary(trx, step.id);
        updated++;
      } else {
        const { id } = await trx
          .insertInto("products")
          .values({ ...step.values, rating: 0, reviewCount: 0, createdAt: timestamp, updatedAt: timestamp })
          .returning("id")
          .executeTakeFirstOrThrow();
        await insertDefaultVariant(trx, id, step.values);
        created++;
      }
    }
    return ok({ created, updated, unchanged: steps.length - created - updated });
  });
}

async function categoryIndex(db: Database): Promise<CategoryIndex> {
  const rows = await db.selectFrom("categories").select(["id", "parentId"]).execute();
  const index = new Map<string, Set<string>>();
  for (const row of rows) if (row.parentId === null) index.set(row.id, new Set());
  for (const row of rows) if (row.parentId !== null) index.get(row.parentId)?.add(row.id);
  return index;
}

type ExistingProduct = Awaited<ReturnType<typeof findExisting>>[number];
type ProductValues = ReturnType<typeof toValues>;
type Step =
  | { kind: "create"; values: ProductValues & { slug: string } }
  | { kind: "update"; id: number; values: ProductValues }
  | { kind: "unchanged" };

async function planImport(
  trx: Transaction<DB>,
  records: ProductCsvRecord[],
): Promise<Result<Step[], CsvRefusal>> {
  const ids = records.flatMap((r) => (r.id === null ? [] : [r.id]));
  const slugs = records.flatMap((r) => (r.slug === null ? [] : [r.slug]));
  const existing = await findExisting(trx, ids, slugs);
  const byId = new Map(existing.map((p) => [p.id, p]));
  const bySlug = new Map(existing.map((p) => [p.slug, p]));
  const sold = await variantCounts(
    trx,
    existing.map((p) => p.id),
  );

  const problems: CsvProblem[] = [];
  const steps: Step[] = [];
  for (const record of records) {
    const { line } = record;
    const target =
      record.id !== null ? byId.get(record.id) : record.slug ? bySlug.get(record.slug) : undefined;
    if (record.id !== null && !target) {
      problems.push({ line, message: `no product has id ${record.id}` });
      continue;
    }
    if (target?.archivedAt) {
      problems.push({ line, message: `product ${target.id} ("${target.slug}") is archived` });
      continue;
    }
    const owner = record.slug === null ? undefined : bySlug.get(record.slug);
    if (owner && owner.id !== target?.id) {
      problems.push({ line, message: `slug "${record.slug}" belongs to product ${owner.id}` });
      continue;
    }
    const values = toValues(record);
    if (
      target &&
      (sold.get(target.id) ?? 1) > 1 &&
      (values.priceCents !== target.priceCents ||
        values.originalPriceCents !== target.originalPriceCents ||
        values.stock !== target.stock)
    ) {
      // its price and stock are its variants' (this row shows their summary): refused, not ignored
      problems.push({
        line,
        message: `product ${target.id} ("${target.slug}") is sold in variants: change their prices and stock, not the product's`,
      });
      continue;
    }
    if (!target) steps.push({ kind: "create", values: { ...values, slug: record.slug! } });
    else {
      const changes = { ...values, slug: record.slug ?? target.slug };
      steps.push(
        sameProduct(target, changes)
          ? { kind: "unchanged" }
          : { kind: "update", id: target.id, values: changes },
      );
    }
  }
  return problems.length > 0 ? fail({ code: "invalid", problems }) : ok(steps);
}

/** How many live variants each of these products has. */
async function variantCounts(trx: Transaction<DB>, productIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let i = 0; i < productIds.length; i += LOOKUP_CHUNK) {
    const rows = await trx
      .selectFrom("productVariants")
      .select((eb) => ["productId", eb.fn.countAll<number | string>().as("n")])
      .where("productId", "in", productIds.slice(i, i + LOOKUP_CHUNK))
      .where("archivedAt", "is", null)
      .groupBy("productId")
      .execute();
    for (const row of rows) counts.set(row.productId, Number(row.n));
  }
  return counts;
}

async function findExisting(trx: Transaction<DB>, ids: number[], slugs: string[]) {
  const columns = [
    "id",
    "slug",
    "archivedAt",
    "name",
    "description",
    "brand",
    "categoryId",
    "subcategoryId",
    "priceCents",
    "originalPriceCents",
    "discountPercentage",
    "stock",
    "specifications",
    "featured",
    "newArrival",
    "bestSeller",
  ] as const;
  const found = [];
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const chunk = ids.slice(i, i + LOOKUP_CHUNK);
    found.push(...(await trx.selectFrom("products").select(columns).where("id", "in", chunk).execute()));
  }
  for (let i = 0; i < slugs.length; i += LOOKUP_CHUNK) {
    const chunk = slugs.slice(i, i + LOOKUP_CHUNK);
    found.push(...(await trx.selectFrom("products").select(columns).where("slug", "in", chunk).execute()));
  }
  return found;
}

function toValues(record: ProductCsvRecord) {
  return {
    name: record.name,
    description: record.description,
    brand: record.brand,
    categoryId: record.categoryId,
    subcategoryId: record.subcategoryId,
    priceCents: record.priceCents,
    originalPriceCents: record.originalPriceCents,
    discountPercentage: storedDiscount(record.priceCents, record.originalPriceCents),
    stock: record.stock,
    specifications: JSON.stringify(record.specifications),
    featured: flag(record.featured),
    newArrival: flag(record.newArrival),
    bestSeller: flag(record.bestSeller),
  };
}

const flag = (value: boolean) => (value ? 1 : 0) as 0 | 1;

/** The saving in whole percent within the column's 1–99 range (a saving that rounds to 0 shows none). */
function storedDiscount(priceCents: number, originalPriceCents: number | null): number | null {
  const percent = discountPercent(priceCents, originalPriceCents);
  if (percent === null || percent < 1) return null;
  return Math.min(percent, 99);
}

function sameProduct(current: ExistingProduct, next: ProductValues & { slug: string }): boolean {
  const sameSpecs = JSON.stringify(JSON.parse(current.specifications || "{}")) === next.specifications;
  return (
    sameSpecs &&
    (Object.keys(next) as Array<keyof typeof next>).every(
      (key) => key === "specifications" || current[key] === next[key],
    )
  );
}
