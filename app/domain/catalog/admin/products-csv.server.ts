import type { Transaction } from "kysely";
import type { Database } from "../../../db/database.server.ts";
import type { DB } from "../../../db/schema.ts";
import type { Currency } from "../../../lib/money.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import { recordProductEvent } from "../../integrations/webhook-outbox.server.ts";
import { type StockMovement, setStockLevels } from "../../inventory/inventory.server.ts";
import { syncProductSummary } from "../../inventory/product-summary.server.ts";
import { insertDefaultVariant, writeProductVariants } from "./product-variants.server.ts";
import { type CategoryIndex, type CsvProblem, type CsvRefusal, readProductsCsv } from "./products-csv.ts";
import { type ImportStep, planImport } from "./products-csv-plan.server.ts";
import { storedVariants } from "./products-csv-stored.server.ts";
import type { CsvVariants } from "./products-csv-variants.ts";
import { type ProductCsvSource, productsCsvHeader, productsCsvRows } from "./products-csv-write.ts";

const EXPORT_BATCH = 1000;

/**
 * The catalogue as CSV, header first: one row per live variant, products in id order and each
 * product's variants in their order, a batch of products per chunk (so a large catalogue
 * streams). Archived products and variants are left out: they are no longer part of the shop.
 */
export async function* exportProductsCsv(db: Database, currency: Currency): AsyncGenerator<string> {
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
        "taxClass",
      ])
      .where("archivedAt", "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(EXPORT_BATCH)
      .execute();
    if (batch.length === 0) return;
    yield productsCsvRows(await withVariants(db, batch), currency);
    after = batch[batch.length - 1]!.id;
    if (batch.length < EXPORT_BATCH) return;
  }
}

async function withVariants(
  db: Database,
  products: Omit<ProductCsvSource, "optionNames" | "variants">[],
): Promise<ProductCsvSource[]> {
  const stored = await storedVariants(
    db,
    products.map((p) => p.id),
  );
  const sources = products.map((p) => {
    const { options = [], variants = [] } = stored.get(p.id) ?? {};
    return {
      ...p,
      optionNames: options.map((option) => option.name),
      variants: variants.map(({ values, ...variant }) => ({
        ...variant,
        option1: values[0] ?? null,
        option2: values[1] ?? null,
        option3: values[2] ?? null,
      })),
    };
  });
  return sources;
}

export type ImportProductsResult = Result<
  { created: number; updated: number; unchanged: number },
  CsvRefusal
>;

/** A refusal found while writing (a SKU taken after all): thrown so the transaction rolls back. */
class ImportRefused extends Error {
  readonly problems: CsvProblem[];
  constructor(problems: CsvProblem[]) {
    super("import refused");
    this.problems = problems;
  }
}

/**
 * Creates or updates products from a CSV: a product with an id updates that product; one without
 * updates the product with its slug, or creates it. With the variant columns, the product's
 * options and variants become what its rows say (writeProductVariants: ids kept per combination,
 * gone variants deleted or archived when ordered); without them, its price and stock are its one
 * variant's. All or nothing: everything is validated first (also against the catalogue: known
 * ids, free slugs and SKUs) and any problem leaves the catalogue as it was. Writes go through the
 * products table, so the search index and the facet and price-band counts follow through their
 * triggers. New products start with no images, no rating or reviews. A product the file
 * describes as it is stored is not written at all (a round trip writes nothing). Stock levels go
 * through the inventory (`csv_import`, by `actor`: the staff member's id, or "cli").
 */
export async function importProductsCsv(
  db: Database,
  { currency, actor = "cli" }: { currency: Currency; actor?: string },
  text: string,
  now: Date = new Date(),
): Promise<ImportProductsResult> {
  const read = readProductsCsv(text, await categoryIndex(db), currency);
  if (!read.ok) return read;
  try {
    return await db.transaction().execute(async (trx) => {
      const plan = await planImport(trx, read.value);
      if (!plan.ok) return plan;
      const steps = plan.value;
      const timestamp = now.toISOString();
      const movement: StockMovement = { reason: "csv_import", actor, now };
      let created = 0;
      let updated = 0;
      for (const step of steps) {
        if (step.kind === "create") {
          const id = await createProduct(trx, step, timestamp, movement);
          await recordProductEvent(trx, "product.created", { productId: id, at: timestamp });
          created++;
        } else if (step.kind === "update") {
          await updateProduct(trx, step, timestamp, movement);
          await recordProductEvent(trx, "product.updated", { productId: step.id, at: timestamp });
          updated++;
        }
      }
      return ok({ created, updated, unchanged: steps.length - created - updated });
    });
  } catch (error) {
    if (error instanceof ImportRefused) return fail({ code: "invalid", problems: error.problems });
    throw error;
  }
}

async function createProduct(
  trx: Transaction<DB>,
  step: Extract<ImportStep, { kind: "create" }>,
  timestamp: string,
  movement: StockMovement,
) {
  const { stock, ...values } = step.values;
  const { id } = await trx
    .insertInto("products")
    // its stock is its variants', brought in by the inventory with them
    .values({ ...values, stock: 0, rating: 0, reviewCount: 0, createdAt: timestamp, updatedAt: timestamp })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (step.variants) await writeVariants(trx, id, step.variants, movement);
  else await insertDefaultVariant(trx, id, { ...values, stock, weightGrams: step.weightGrams }, movement);
  return id;
}

async function updateProduct(
  trx: Transaction<DB>,
  step: Extract<ImportStep, { kind: "update" }>,
  timestamp: string,
  movement: StockMovement,
) {
  const { stock, ...columns } = step.values ?? { stock: undefined };
  await trx
    .updateTable("products")
    .set({ ...columns, updatedAt: timestamp })
    .where("id", "=", step.id)
    .execute();
  const values = step.values;
  if (step.variants) {
    await writeVariants(trx, step.id, step.variants, movement);
    return;
  }
  if (values?.priceCents === undefined) return;
  // old layout, a product without options: its one variant carries the row's price, stock and weight
  const only = await trx
    .updateTable("productVariants")
    .set({
      priceCents: values.priceCents,
      originalPriceCents: values.originalPriceCents,
      ...(step.weightGrams === null ? {} : { weightGrams: step.weightGrams }),
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
    .returning("id")
    .executeTakeFirst();
  if (only && stock !== undefined)
    await setStockLevels(trx, [{ variantId: only.id, level: stock }], movement);
  await syncProductSummary(trx, step.id);
}

async function writeVariants(
  trx: Transaction<DB>,
  productId: number,
  { input, lines }: CsvVariants,
  movement: StockMovement,
) {
  const written = await writeProductVariants(trx, productId, input, movement);
  if (written.ok) return;
  const { sku } = written.error;
  const at = input.variants.findIndex((v) => v.sku?.toLowerCase() === sku.toLowerCase());
  throw new ImportRefused([
    { line: lines[Math.max(at, 0)]!, message: `sku "${sku}" is taken by another variant` },
  ]);
}

async function categoryIndex(db: Database): Promise<CategoryIndex> {
  const rows = await db.selectFrom("categories").select(["id", "parentId"]).execute();
  const index = new Map<string, Set<string>>();
  for (const row of rows) if (row.parentId === null) index.set(row.id, new Set());
  for (const row of rows) if (row.parentId !== null) index.get(row.parentId)?.add(row.id);
  return index;
}
