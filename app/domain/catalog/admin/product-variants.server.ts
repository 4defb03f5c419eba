import { sql } from "kysely";
import type { Database } from "../../../db/database.server.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import type { ProductVariantsInput } from "../../../lib/variant-input.ts";
import { type StockMovement, setStockLevels } from "../../inventory/inventory.server.ts";
import { syncProductSummary } from "../../inventory/product-summary.server.ts";

export type VariantsWriteResult = Result<
  {
    added: number;
    /** kept variants whose SKU, values, prices, stock, barcode, weight or position changed */
    updated: number;
    /** kept variants left exactly as they were (not written) */
    unchanged: number;
    deleted: number;
    archived: number;
    /** whether the options (names, values, their order) were rewritten */
    optionsChanged: boolean;
  },
  { code: "sku-taken"; sku: string }
>;

const fold = (value: string) => value.toLowerCase();
const key = (values: readonly (string | null)[]) =>
  JSON.stringify(values.filter((v) => v !== null).map((v) => fold(v as string)));

/**
 * Makes a product's options and live variants what `input` says (checked against
 * productVariantsInputSchema by the caller), inside the caller's transaction: a variant whose
 * combination already exists keeps its id (carts and order lines keep pointing at it) and takes
 * the new SKU, prices, stock, barcode and weight; new combinations are added; live variants whose
 * combination is gone are deleted, or archived when an order line names them. A SKU another
 * product's variant holds (or one of this product's kept variants keeps) is refused before
 * anything is written. Rows that would not change are not written, so writing what is already
 * there writes nothing (no summary, no catalogue version). The product's summary follows.
 * Stock goes through the inventory area (`movement` says why: a staff member's grid, a bulk set, a
 * CSV import); a variant that goes takes its stock with it (`variant_removed`).
 */
export async function writeProductVariants(
  db: Database,
  productId: number,
  input: ProductVariantsInput,
  movement: StockMovement,
): Promise<VariantsWriteResult> {
  const skus = input.variants.flatMap((v) => (v.sku === null ? [] : [v.sku]));
  if (skus.length > 0) {
    const taken = await db
      .selectFrom("productVariants")
      .select("sku")
      .where("sku", "in", skus)
      .where("productId", "!=", productId)
      .executeTakeFirst();
    if (taken) return fail({ code: "sku-taken", sku: taken.sku });
  }
  const stored = await db
    .selectFrom("productVariants")
    .select([
      "id",
      "sku",
      "option1",
      "option2",
      "option3",
      "priceCents",
      "originalPriceCents",
      "stock",
      "barcode",
      "weightGrams",
      "position",
      "archivedAt",
    ])
    .where("productId", "=", productId)
    .execute();
  const live = stored.filter((v) => v.archivedAt === null);
  const byCombination = new Map(live.map((v) => [key([v.option1, v.option2, v.option3]), v]));
  const kept = new Set<number>();
  const wanted = input.variants.map((variant) => {
    const existing = byCombination.get(key(variant.values));
    if (existing) kept.add(existing.id);
    return { variant, existing };
  });
  // a kept variant given no SKU keeps its own: no other variant may be given that one
  const keptSkus = new Set(
    wanted.flatMap(({ variant, existing }) => (existing && variant.sku === null ? [fold(existing.sku)] : [])),
  );
  const clash = skus.find((sku) => keptSkus.has(fold(sku)));
  if (clash !== undefined) return fail({ code: "sku-taken", sku: clash });

  // This product's archived variants (history) give up a SKU a live one is given.
  const given = new Set(skus);
  for (const variant of stored) {
    if (variant.archivedAt !== null && given.has(variant.sku)) {
      await db
        .updateTable("productVariants")
        .set({ sku: `${variant.sku}~${variant.id}`.slice(0, 200) })
        .where("id", "=", variant.id)
        .execute();
    }
  }

  // gone first, then SKUs moved out of the way (a SKU may pass from one variant to another)
  const gone = live.filter((v) => !kept.has(v.id));
  let deleted = 0;
  let archived = 0;
  if (gone.length > 0) {
    const ordered = new Set(
      (
        await db
          .selectFrom("orderItems")
          .select("variantId")
          .distinct()
          .where(
            "variantId",
            "in",
            gone.map((v) => v.id),
          )
          .execute()
      ).map((row) => row.variantId),
    );
    const toArchive = gone.filter((v) => ordered.has(v.id)).map((v) => v.id);
    const toDelete = gone.filter((v) => !ordered.has(v.id)).map((v) => v.id);
    // what the variants that go still hold leaves the books with them
    await setStockLevels(
      db,
      gone.map((v) => ({ variantId: v.id, level: 0 })),
      { ...movement, reason: "variant_removed" },
    );
    if (toDelete.length > 0) await db.deleteFrom("productVariants").where("id", "in", toDelete).execute();
    // an archived variant keeps its SKU under a suffix, freeing it for a live one
    for (const id of toArchive) {
      await db
        .updateTable("productVariants")
        .set({ archivedAt: new Date().toISOString(), sku: sql<string>`sku || ${`~${id}`}` })
        .where("id", "=", id)
        .execute();
    }
    deleted = toDelete.length;
    archived = toArchive.length;
  }
  const renamed = wanted.filter(
    ({ variant, existing }) => existing && variant.sku !== null && variant.sku !== existing.sku,
  );
  for (const { existing } of renamed) {
    await db
      .updateTable("productVariants")
      .set({ sku: `~${existing!.id}~${existing!.sku}`.slice(0, 200) })
      .where("id", "=", existing!.id)
      .execute();
  }

  const optionsChanged = await writeOptions(db, productId, input.options);

  let added = 0;
  let updated = 0;
  /** every live variant's level as asked (the inventory writes those that differ) */
  const levels: { variantId: number; level: number }[] = [];
  for (const [position, { variant, existing }] of wanted.entries()) {
    const values = {
      option1: variant.values[0] ?? null,
      option2: variant.values[1] ?? null,
      option3: variant.values[2] ?? null,
      priceCents: variant.priceCents,
      originalPriceCents: variant.originalPriceCents,
      barcode: variant.barcode,
      weightGrams: variant.weightGrams,
      position,
    };
    if (existing) {
      levels.push({ variantId: existing.id, level: variant.stock });
      const next = { ...values, sku: variant.sku ?? existing.sku };
      const same =
        existing.stock === variant.stock &&
        (Object.keys(next) as (keyof typeof next)[]).every((field) => next[field] === existing[field]);
      if (same) continue;
      await db.updateTable("productVariants").set(next).where("id", "=", existing.id).execute();
      updated += 1;
    } else {
      // a new variant starts empty: its stock comes in through the inventory below
      const { id } = await db
        .insertInto("productVariants")
        .values({
          ...values,
          productId,
          stock: 0,
          sku: variant.sku ?? `~new~${productId}~${position}`,
          imageId: null,
          archivedAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      levels.push({ variantId: id, level: variant.stock });
      if (variant.sku === null) {
        await db
          .updateTable("productVariants")
          .set({ sku: `CW-${productId}-${id}` })
          .where("id", "=", id)
          .execute();
      }
      added += 1;
    }
  }
  await setStockLevels(db, levels, movement);
  const unchanged = wanted.length - added - updated;
  if (added + updated + deleted + archived > 0 || optionsChanged) await syncProductSummary(db, productId);
  return ok({ added, updated, unchanged, deleted, archived, optionsChanged });
}

/** Rewrites the product's options unless they already are these (names, values and order). */
async function writeOptions(
  db: Database,
  productId: number,
  options: ProductVariantsInput["options"],
): Promise<boolean> {
  const rows = options.map((option, i) => ({
    productId,
    position: i + 1,
    name: option.name,
    optionValues: JSON.stringify(option.values),
  }));
  const current = await db
    .selectFrom("productOptions")
    .select(["position", "name", "optionValues"])
    .where("productId", "=", productId)
    .orderBy("position")
    .execute();
  const same =
    current.length === rows.length &&
    current.every(
      (row, i) =>
        row.position === rows[i]!.position &&
        row.name === rows[i]!.name &&
        JSON.stringify(JSON.parse(row.optionValues)) === rows[i]!.optionValues,
    );
  if (same) return false;
  await db.deleteFrom("productOptions").where("productId", "=", productId).execute();
  if (rows.length > 0) await db.insertInto("productOptions").values(rows).execute();
  return true;
}

/** The SKU a product's default variant gets unless one is given: unique, since product ids are. */
export function defaultSku(productId: number): string {
  return `CW-${productId}`;
}

/**
 * The one variant of a product without options, with the product's price (and weight: none unless
 * given); it starts empty and its `stock` comes in through the inventory (`movement` says why),
 * which brings the product's summed stock along. The product row is written with stock 0 before this.
 */
export async function insertDefaultVariant(
  db: Database,
  productId: number,
  {
    priceCents,
    originalPriceCents,
    stock,
    weightGrams = 0,
    sku = defaultSku(productId),
  }: {
    priceCents: number;
    originalPriceCents: number | null;
    stock: number;
    weightGrams?: number;
    sku?: string;
  },
  movement: StockMovement,
): Promise<number> {
  const { id } = await db
    .insertInto("productVariants")
    .values({
      productId,
      sku,
      option1: null,
      option2: null,
      option3: null,
      priceCents,
      originalPriceCents,
      stock: 0,
      barcode: null,
      imageId: null,
      position: 0,
      archivedAt: null,
      weightGrams,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await setStockLevels(db, [{ variantId: id, level: stock }], movement);
  return id;
}
