import type { Database } from "../../../db/database.server.ts";
import { engineOf } from "../../../db/database.server.ts";
import type { DB } from "../../../db/schema.ts";
import { PRODUCT_LIMITS } from "../../../lib/product-limits.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import {
  type OptionInput,
  type ProductVariantsInput,
  productVariantsInputSchema,
  type VariantInput,
} from "../../../lib/variant-input.ts";
import { type OptionValues, parseOption, variantTitle } from "../../../lib/variants.ts";
import { type Actor, recordAudit } from "../../audit/audit-log.server.ts";
import { recordProductEvent } from "../../integrations/webhook-outbox.server.ts";
import type { StockMovement } from "../../inventory/inventory.server.ts";
import { writeProductVariants } from "./product-variants.server.ts";
import { planOptions } from "./variant-plan.ts";

/**
 * The admin's options editor (issue 18, decision 019): a product's options and the grid of its
 * variants. Every write goes through the one writer (`writeProductVariants`: ids kept per
 * combination, gone variants deleted or archived, SKUs checked shop-wide, the summary synced), in a
 * transaction that first locks the product's variants (PostgreSQL; SQLite writes one at a time),
 * so a sale at the same moment is never overwritten; each is audited and touches `updated_at`.
 */

interface LiveVariant {
  id: number;
  sku: string;
  values: OptionValues;
  title: string;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  barcode: string | null;
  imageId: number | null;
  weightGrams: number;
}

interface EditableProduct {
  id: number;
  name: string;
  options: OptionInput[];
  /** live, in list order */
  variants: LiveVariant[];
  imageIds: Set<number>;
}

type Trx = Parameters<Parameters<ReturnType<Database["transaction"]>["execute"]>[0]>[0];

/** The product, its options and live variants, the variants locked for the rest of the transaction. */
async function lockProduct(trx: Trx, productId: number): Promise<EditableProduct | null> {
  let variantsQuery = trx
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
      "imageId",
      "weightGrams",
      "position",
    ])
    .where("productId", "=", productId)
    .where("archivedAt", "is", null)
    // locked by id (the inventory's lock order), shown by position
    .orderBy("id");
  let productQuery = trx
    .selectFrom("products")
    .select(["id", "name"])
    .where("id", "=", productId)
    .where("archivedAt", "is", null);
  if (engineOf<DB>(trx) === "postgres") {
    // variants first, then the product: the order Place Order locks them in
    variantsQuery = variantsQuery.forUpdate();
    productQuery = productQuery.forUpdate();
  }
  const rows = (await variantsQuery.execute()).sort((a, b) => a.position - b.position || a.id - b.id);
  const product = await productQuery.executeTakeFirst();
  if (!product || rows.length === 0) return null;
  const [optionRows, images] = await Promise.all([
    trx
      .selectFrom("productOptions")
      .select(["position", "name", "optionValues"])
      .where("productId", "=", productId)
      .orderBy("position")
      .execute(),
    trx.selectFrom("productImages").select("id").where("productId", "=", productId).execute(),
  ]);
  const options = optionRows.map(parseOption);
  return {
    id: product.id,
    name: product.name,
    options: options.map(({ name, values }) => ({ name, values })),
    variants: rows.map(({ option1, option2, option3, ...row }) => ({
      ...row,
      values: [option1, option2, option3],
      title: variantTitle(options, [option1, option2, option3]) || "Default",
    })),
    imageIds: new Set(images.map((image) => image.id)),
  };
}

const asInput = (v: LiveVariant, optionCount: number): VariantInput => ({
  sku: v.sku,
  values: v.values.slice(0, optionCount).map((value) => value ?? ""),
  priceCents: v.priceCents,
  originalPriceCents: v.originalPriceCents,
  stock: v.stock,
  barcode: v.barcode,
  weightGrams: v.weightGrams,
});

/** A refusal found after something was written: thrown to roll the transaction back. */
class Refusal<E> extends Error {
  readonly error: E;
  constructor(error: E) {
    super("refused");
    this.error = error;
  }
}

async function inTransaction<T, E extends { code: string }>(
  db: Database,
  work: (trx: Trx) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await work(trx);
      if (!result.ok) throw new Refusal(result.error);
      return result;
    });
  } catch (error) {
    if (error instanceof Refusal) return fail(error.error as E);
    throw error;
  }
}

/** The writer, with the input checked against the one schema first (a bug if it fails). */
async function write(trx: Trx, productId: number, input: ProductVariantsInput, movement: StockMovement) {
  const checked = productVariantsInputSchema.safeParse(input);
  if (!checked.success) {
    throw new Error(`variant editor built an invalid input: ${checked.error.issues[0]?.message}`);
  }
  return writeProductVariants(trx, productId, checked.data, movement);
}

/** The product's updated_at moved, and its `product.updated` webhook event (decision 039). */
async function touch(trx: Trx, productId: number, now: Date) {
  await trx
    .updateTable("products")
    .set({ updatedAt: now.toISOString() })
    .where("id", "=", productId)
    .execute();
  await recordProductEvent(trx, "product.updated", { productId, at: now });
}

const optionsText = (options: readonly OptionInput[]) =>
  options.length === 0 ? "none" : options.map((o) => `${o.name} (${o.values.join(", ")})`).join(" · ");

export interface RemovedVariant {
  id: number;
  title: string;
  sku: string;
  stock: number;
  /** an order line names it: archived, not deleted */
  ordered: boolean;
}

export type OptionsResult = Result<
  { added: number; deleted: number; archived: number; variants: number; unchanged: boolean },
  | { code: "not-found" }
  /** saving would remove these variants; ask, then post again with their ids confirmed */
  | { code: "confirm"; removing: RemovedVariant[] }
>;

/**
 * Sets a product's options (0–3, checked by the form) and regenerates its variants: one per
 * combination, existing variants carried over by variant-plan.ts (ids, SKUs, prices, stock,
 * barcodes, weights and images kept), new ones at the product's lowest price (and that variant's
 * original price and weight) with no stock and a generated SKU. Variants no combination keeps are removed only when
 * `confirmedRemoval` names exactly them; otherwise nothing is written and they are listed.
 */
export async function saveProductOptions(
  db: Database,
  {
    productId,
    options,
    confirmedRemoval,
  }: { productId: number; options: OptionInput[]; confirmedRemoval: number[] },
  actor: Actor,
  now: Date = new Date(),
): Promise<OptionsResult> {
  return inTransaction(db, async (trx): Promise<OptionsResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return fail({ code: "not-found" });
    const plan = planOptions(product.options, options, product.variants);
    const byId = new Map(product.variants.map((v) => [v.id, v]));
    const added = plan.variants.filter((v) => v.id === null).length;
    if (
      added === 0 &&
      plan.removed.length === 0 &&
      plan.remap.length === 0 &&
      JSON.stringify(product.options) === JSON.stringify(options)
    ) {
      return ok({ added: 0, deleted: 0, archived: 0, variants: plan.variants.length, unchanged: true });
    }
    if (plan.removed.length > 0) {
      const confirmed = new Set(confirmedRemoval);
      if (confirmed.size !== plan.removed.length || plan.removed.some((id) => !confirmed.has(id))) {
        const ordered = new Set(
          (
            await trx
              .selectFrom("orderItems")
              .select("variantId")
              .distinct()
              .where("variantId", "in", plan.removed)
              .execute()
          ).map((row) => row.variantId),
        );
        return fail({
          code: "confirm",
          removing: plan.removed.map((id) => {
            const v = byId.get(id)!;
            return { id, title: v.title, sku: v.sku, stock: v.stock, ordered: ordered.has(id) };
          }),
        });
      }
    }
    // carried-over variants take their new combination first, so the writer keeps their ids
    for (const { id, values } of plan.remap) {
      await trx
        .updateTable("productVariants")
        .set({ option1: values[0] ?? null, option2: values[1] ?? null, option3: values[2] ?? null })
        .where("id", "=", id)
        .execute();
    }
    const cheapest = [...product.variants].sort((a, b) => a.priceCents - b.priceCents)[0]!;
    const input: ProductVariantsInput = {
      options,
      variants: plan.variants.map(({ id, values }) => {
        const existing = id === null ? undefined : byId.get(id);
        return existing
          ? { ...asInput(existing, options.length), values }
          : {
              sku: null,
              values,
              priceCents: cheapest.priceCents,
              originalPriceCents: cheapest.originalPriceCents,
              stock: 0,
              barcode: null,
              weightGrams: cheapest.weightGrams,
            };
      }),
    };
    const written = await write(trx, productId, input, { reason: "admin_set", actor: actor.id, now });
    if (!written.ok) throw new Error(`a kept SKU was refused: ${written.error.sku}`);
    const { deleted, archived } = written.value;
    await touch(trx, productId, now);
    await recordAudit(trx, {
      actor,
      action: "product.options",
      entityType: "product",
      entityId: productId,
      summary: `Options of "${product.name}": ${optionsText(options)} — ${added} variants added, ${deleted + archived} removed`,
      before: { options: product.options, variants: product.variants.map((v) => v.sku) },
      after: { options, added, deleted, archived },
      now,
    });
    return ok({ added, deleted, archived, variants: plan.variants.length, unchanged: false });
  });
}

/** One row of the grid as posted: `stock` is the level typed, `shownStock` the one the page showed. */
export interface GridRow {
  id: number;
  shownStock: number;
  sku: string;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  barcode: string | null;
  imageId: number | null;
  /** null: not posted (kept) */
  weightGrams: number | null;
}

export type GridField = "sku" | "stock" | "image";

export type GridResult = Result<
  { changed: number },
  | { code: "not-found" }
  | { code: "stale" }
  | { code: "invalid"; fields: { row: number; field: GridField; message: string }[] }
>;

export const GRID_MESSAGES = {
  skuTaken: "Another product's variant has this SKU.",
  image: "Choose one of this product's images, or the product's images.",
  stockBelowZero: (now: number) =>
    `Only ${now} in stock now (sold since the page was loaded): stock cannot go below 0. Please check it.`,
  stockTooHigh: "That is more stock than a variant can hold.",
} as const;

/**
 * Saves the whole grid: each variant's SKU, price, original price, stock, barcode, weight and image.
 * Stock is typed as a level, but applied as a change (level now + typed − shown), so units sold
 * between loading the page and saving are not put back; a change that would take a variant
 * below 0 is refused beside its field. The rows must be exactly the product's live variants
 * (else `stale`: another admin changed them). Nothing changed, nothing written.
 */
export async function saveVariantGrid(
  db: Database,
  { productId, rows }: { productId: number; rows: GridRow[] },
  actor: Actor,
  now: Date = new Date(),
): Promise<GridResult> {
  return inTransaction(db, async (trx): Promise<GridResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return fail({ code: "not-found" });
    const rowOf = new Map(rows.map((row, index) => [row.id, { row, index }]));
    if (rowOf.size !== rows.length || !sameIds(product.variants, rows)) return fail({ code: "stale" });
    const problems: { row: number; field: GridField; message: string }[] = [];
    const next = product.variants.map((variant) => {
      const { row, index } = rowOf.get(variant.id)!;
      const stock = variant.stock + (row.stock - row.shownStock);
      if (stock < 0)
        problems.push({ row: index, field: "stock", message: GRID_MESSAGES.stockBelowZero(variant.stock) });
      else if (stock > PRODUCT_LIMITS.stock)
        problems.push({ row: index, field: "stock", message: GRID_MESSAGES.stockTooHigh });
      if (row.imageId !== null && !product.imageIds.has(row.imageId)) {
        problems.push({ row: index, field: "image", message: GRID_MESSAGES.image });
      }
      return {
        ...variant,
        ...row,
        stock,
        weightGrams: row.weightGrams ?? variant.weightGrams,
        values: variant.values,
        title: variant.title,
      };
    });
    if (problems.length > 0) return fail({ code: "invalid", fields: problems });
    const before = new Map(product.variants.map((v) => [v.id, v]));
    const changed = next.filter((v) => {
      const b = before.get(v.id)!;
      return (
        b.sku !== v.sku ||
        b.priceCents !== v.priceCents ||
        b.originalPriceCents !== v.originalPriceCents ||
        b.stock !== v.stock ||
        b.barcode !== v.barcode ||
        b.weightGrams !== v.weightGrams ||
        b.imageId !== v.imageId
      );
    });
    if (changed.length === 0) return ok({ changed: 0 });
    const written = await write(
      trx,
      productId,
      { options: product.options, variants: next.map((v) => asInput(v, product.options.length)) },
      { reason: "admin_set", actor: actor.id, now },
    );
    if (!written.ok) {
      const taken = rows.findIndex((row) => row.sku === written.error.sku);
      return fail({
        code: "invalid",
        fields: [{ row: Math.max(taken, 0), field: "sku", message: GRID_MESSAGES.skuTaken }],
      });
    }
    for (const v of changed) {
      if (before.get(v.id)!.imageId !== v.imageId) {
        await trx.updateTable("productVariants").set({ imageId: v.imageId }).where("id", "=", v.id).execute();
      }
    }
    await touch(trx, productId, now);
    const snapshot = (v: LiveVariant) => ({
      id: v.id,
      sku: v.sku,
      priceCents: v.priceCents,
      originalPriceCents: v.originalPriceCents,
      stock: v.stock,
      barcode: v.barcode,
      weightGrams: v.weightGrams,
      imageId: v.imageId,
    });
    await recordAudit(trx, {
      actor,
      action: "product.variant",
      entityType: "product",
      entityId: productId,
      summary: `Variants of "${product.name}" saved: ${changed.map((v) => v.sku).join(", ")}`,
      before: changed.map((v) => snapshot(before.get(v.id)!)),
      after: changed.map(snapshot),
      now,
    });
    return ok({ changed: changed.length });
  });
}

const sameIds = (variants: readonly { id: number }[], rows: readonly { id: number }[]) =>
  variants.length === rows.length && rows.every((row) => variants.some((v) => v.id === row.id));

export type BulkResult = Result<{ count: number }, { code: "not-found" } | { code: "stale" }>;

/**
 * Sets one price, one stock level and/or one weight for the chosen variants (a count: the level is
 * set, not changed by a difference); the other variants are left as they are. Audited with before
 * and after.
 */
export async function bulkSetVariants(
  db: Database,
  {
    productId,
    variantIds,
    priceCents,
    stock,
    weightGrams,
  }: { productId: number; variantIds: number[]; priceCents?: number; stock?: number; weightGrams?: number },
  actor: Actor,
  now: Date = new Date(),
): Promise<BulkResult> {
  return inTransaction(db, async (trx): Promise<BulkResult> => {
    const product = await lockProduct(trx, productId);
    if (!product) return fail({ code: "not-found" });
    const chosen = new Set(variantIds);
    if (![...chosen].every((id) => product.variants.some((v) => v.id === id))) return fail({ code: "stale" });
    const next = product.variants.map((v) =>
      chosen.has(v.id)
        ? {
            ...v,
            priceCents: priceCents ?? v.priceCents,
            stock: stock ?? v.stock,
            weightGrams: weightGrams ?? v.weightGrams,
          }
        : v,
    );
    const written = await write(
      trx,
      productId,
      { options: product.options, variants: next.map((v) => asInput(v, product.options.length)) },
      { reason: "bulk_set", actor: actor.id, now },
    );
    if (!written.ok) throw new Error(`a kept SKU was refused: ${written.error.sku}`);
    await touch(trx, productId, now);
    const picked = product.variants.filter((v) => chosen.has(v.id));
    const set = [
      priceCents === undefined ? null : `price ${priceCents}`,
      stock === undefined ? null : `stock ${stock}`,
      weightGrams === undefined ? null : `weight ${weightGrams} g`,
    ]
      .filter(Boolean)
      .join(", ");
    await recordAudit(trx, {
      actor,
      action: "product.variant",
      entityType: "product",
      entityId: productId,
      summary: `Set ${set} for ${picked.length} variants of "${product.name}": ${picked.map((v) => v.sku).join(", ")}`,
      before: picked.map((v) => ({
        sku: v.sku,
        priceCents: v.priceCents,
        stock: v.stock,
        weightGrams: v.weightGrams,
      })),
      after: picked.map((v) => ({
        sku: v.sku,
        priceCents: priceCents ?? v.priceCents,
        stock: stock ?? v.stock,
        weightGrams: weightGrams ?? v.weightGrams,
      })),
      now,
    });
    return ok({ count: picked.length });
  });
}
