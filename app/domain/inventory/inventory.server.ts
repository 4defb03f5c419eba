import { type Database, engineOf } from "../../db/database.server.ts";
import type { StockReason } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { listPriceHolds } from "../customer-groups/price-lists.server.ts";
import { recordEvents, stockEventRows } from "../integrations/webhook-outbox.server.ts";
import { syncProductSummary } from "./product-summary.server.ts";

/**
 * The one writer of stock (issue 28, decision 026). Every change of a variant's level goes through
 * one of these operations, inside the caller's transaction, and each:
 * - changes the variants with guarded updates (never below 0: the column's CHECK too), locking
 *   rows in one order — variants by id, then their products by id — so two transactions never wait
 *   on each other in opposite order (PostgreSQL; SQLite's write transactions run one at a time);
 * - appends one movement per variant changed to the stock ledger (`stock_movements`): the variant,
 *   ± units, the reason and the order, return, refund or staff member behind it — so a variant's
 *   level is always the sum of its movements (`checkStockLedger`);
 * - keeps the product's summary (its summed stock, facets, updated_at) in step;
 * - writes `stock.low` / `stock.out` to the webhooks' outbox when a level crosses the low-stock line
 *   or reaches 0 (`stockEventRows`; decision 039) — not on a variant's removal.
 * Nothing else in the code writes a stock column (stock-owner.test.ts fails when something does).
 */

export type { StockReason } from "../../db/schema.ts";

/** Why the stock moved and who or what moved it. */
export interface StockMovement {
  reason: StockReason;
  /** the staff member's id, or what acted: checkout, payment-provider, system, cli */
  actor: string;
  orderId?: number | null;
  returnId?: number | null;
  refundId?: number | null;
  now?: Date;
}

export interface StockLine {
  variantId: number;
  quantity: number;
  /**
   * a sale's line priced from a customer group's price list (decision 037): its member price, and
   * the regular price it was decided against — `takeStock` answers the member price when its
   * transaction confirms it
   */
  listPrice?: { groupId: number; priceCents: number } | null;
  regularPriceCents?: number;
}

/** Units per variant, lines naming one variant summed, in the lock order (variant id). */
function perVariant(lines: readonly StockLine[]): [number, number][] {
  const units = new Map<number, number>();
  for (const { variantId, quantity } of lines) {
    if (!Number.isSafeInteger(variantId) || !Number.isSafeInteger(quantity) || quantity < 0) {
      throw new RangeError(
        `A stock line needs a variant and a whole number of units (${variantId}, ${quantity})`,
      );
    }
    if (quantity > 0) units.set(variantId, (units.get(variantId) ?? 0) + quantity);
  }
  return [...units].sort(([a], [b]) => a - b);
}

interface Moved {
  variantId: number;
  productId: number;
  delta: number;
}

async function appendMovements(trx: Database, moved: readonly Moved[], movement: StockMovement) {
  const rows = ledgerRows(moved, movement);
  if (rows.length > 0) await trx.insertInto("stockMovements").values(rows).execute();
}

/** The ledger's rows for what moved (nothing for a variant that did not). */
function ledgerRows(moved: readonly Moved[], movement: StockMovement) {
  const createdAt = (movement.now ?? new Date()).toISOString();
  return moved
    .filter((m) => m.delta !== 0)
    .map((m) => ({
      variantId: m.variantId,
      productId: m.productId,
      delta: m.delta,
      reason: movement.reason,
      orderId: movement.orderId ?? null,
      returnId: movement.returnId ?? null,
      refundId: movement.refundId ?? null,
      actor: movement.actor,
      createdAt,
    }));
}

/** The products' summaries after their variants moved, by product id (the lock order). */
async function syncProducts(trx: Database, productIds: Iterable<number>, now: Date) {
  for (const productId of [...new Set(productIds)].sort((a, b) => a - b)) {
    await syncProductSummary(trx, productId);
    await trx
      .updateTable("products")
      .set({ updatedAt: now.toISOString() })
      .where("id", "=", productId)
      .execute();
  }
}

/** What a take left of a variant, read with the row it was taken from. */
export interface TakenVariant {
  productId: number;
  /** units left after the take */
  stock: number;
  /**
   * the price the units are sold at: the variant's at the moment of the take — or, for a line
   * priced from a price list, that member price when this transaction confirms it (the order's
   * account still in the group, the list still at that price, the variant's price still the one
   * the line was decided against; decision 037)
   */
  priceCents: number;
}

/**
 * A sale: takes each line's units from its variant, only while the variant and its product are
 * on sale and hold enough. All or nothing: a short line answers `short` (the caller rolls its
 * transaction back). On the checkout's hot path: a product whose variants all keep stock has its
 * summed stock lowered in place; one whose variant sold out has its summary recomputed.
 */
export async function takeStock(
  trx: Database,
  lines: readonly StockLine[],
  movement: StockMovement,
): Promise<Result<Map<number, TakenVariant>, { code: "short"; variantId: number }>> {
  const units = perVariant(lines);
  const listedLines = new Map(lines.filter((line) => line.listPrice).map((line) => [line.variantId, line]));
  const taken = new Map<number, TakenVariant>();
  const soldOut = new Set<number>();
  for (const [variantId, quantity] of units) {
    const row = await trx
      .updateTable("productVariants")
      .set((eb) => ({ stock: eb("stock", "-", quantity) }))
      .where("id", "=", variantId)
      .where("stock", ">=", quantity)
      .where("archivedAt", "is", null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("products")
            .select("products.id")
            .whereRef("products.id", "=", "productVariants.productId")
            .where("products.archivedAt", "is", null),
        ),
      )
      .returning(["productId", "stock", "priceCents"])
      .executeTakeFirst();
    if (!row) return fail({ code: "short", variantId });
    const listed = listedLines.get(variantId);
    if (
      listed?.listPrice &&
      typeof movement.orderId === "number" &&
      row.priceCents === listed.regularPriceCents &&
      (await listPriceHolds(trx, {
        orderId: movement.orderId,
        groupId: listed.listPrice.groupId,
        variantId,
        priceCents: listed.listPrice.priceCents,
      }))
    ) {
      taken.set(variantId, { ...row, priceCents: listed.listPrice.priceCents });
    } else {
      taken.set(variantId, row);
    }
    if (row.stock === 0) soldOut.add(row.productId);
  }
  const now = movement.now ?? new Date();
  const perProduct = new Map<number, number>();
  for (const [variantId, quantity] of units) {
    const productId = taken.get(variantId)!.productId;
    perProduct.set(productId, (perProduct.get(productId) ?? 0) + quantity);
  }
  const ledger = ledgerRows(
    units.map(([variantId, quantity]) => ({
      variantId,
      productId: taken.get(variantId)!.productId,
      delta: -quantity,
    })),
    { ...movement, now },
  );
  const events = stockEventRows(
    units.map(([variantId, quantity]) => {
      const { productId, stock } = taken.get(variantId)!;
      return { variantId, productId, before: stock + quantity, after: stock };
    }),
    now,
  );
  const products = [...perProduct].sort(([a], [b]) => a - b);
  let logged = false;
  for (const [index, [productId, quantity]] of products.entries()) {
    if (soldOut.has(productId)) {
      await syncProductSummary(trx, productId);
      await trx
        .updateTable("products")
        .set({ updatedAt: now.toISOString() })
        .where("id", "=", productId)
        .execute();
      continue;
    }
    const lowered = (db: Pick<Database, "updateTable">) =>
      db
        .updateTable("products")
        .set((eb) => ({ stock: eb("stock", "-", quantity), updatedAt: now.toISOString() }))
        .where("id", "=", productId)
        .execute();
    // on PostgreSQL the last product's update writes the ledger too (and a crossing's stock event):
    // one round trip less on the checkout's hottest path (SQLite has no data-modifying WITH, and
    // no round trips to save)
    if (index === products.length - 1 && engineOf(trx) === "postgres") {
      const withLedger = trx.with("logged", (db) => db.insertInto("stockMovements").values(ledger));
      await lowered(
        events.length > 0
          ? withLedger.with("stock_events", (db) => db.insertInto("webhookEvents").values(events))
          : withLedger,
      );
      logged = true;
    } else {
      await lowered(trx);
    }
  }
  if (!logged && ledger.length > 0) {
    if (events.length > 0 && engineOf(trx) === "postgres") {
      // a variant sold out (its product's summary recomputed above): its stock.out with the ledger
      await trx
        .with("stock_events", (db) => db.insertInto("webhookEvents").values(events))
        .insertInto("stockMovements")
        .values(ledger)
        .execute();
      return ok(taken);
    }
    await trx.insertInto("stockMovements").values(ledger).execute();
  }
  if (!logged) await recordEvents(trx, events);
  return ok(taken);
}

/**
 * Units coming back (a payment that failed, a cancellation, a refund's restock, a return
 * received): each line's variant gets its units back; a variant deleted since gets nothing.
 * Returns the units given back per variant.
 */
export async function giveBackStock(
  trx: Database,
  lines: readonly StockLine[],
  movement: StockMovement,
): Promise<Map<number, number>> {
  const moved: Moved[] = [];
  for (const [variantId, quantity] of perVariant(lines)) {
    const row = await trx
      .updateTable("productVariants")
      .set((eb) => ({ stock: eb("stock", "+", quantity) }))
      .where("id", "=", variantId)
      .returning("productId")
      .executeTakeFirst();
    if (row) moved.push({ variantId, productId: row.productId, delta: quantity });
  }
  const now = movement.now ?? new Date();
  await syncProducts(
    trx,
    moved.map((m) => m.productId),
    now,
  );
  await appendMovements(trx, moved, { ...movement, now });
  return new Map(moved.map((m) => [m.variantId, m.delta]));
}

export interface LevelChange {
  variantId: number;
  productId: number;
  before: number;
  after: number;
}

/**
 * Sets variants' levels (an admin's count, a bulk set, a CSV import, a variant created or
 * removed): the level read under its row lock, written, and the difference recorded. Variants
 * already at their level are left alone; unknown ones are skipped. Returns what changed.
 */
export async function setStockLevels(
  trx: Database,
  levels: readonly { variantId: number; level: number }[],
  movement: StockMovement,
): Promise<LevelChange[]> {
  const wanted = new Map<number, number>();
  for (const { variantId, level } of levels) {
    if (!Number.isSafeInteger(level) || level < 0)
      throw new RangeError(`A stock level is a whole number ≥ 0 (${level})`);
    wanted.set(variantId, level);
  }
  const ids = [...wanted.keys()].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  let current = trx
    .selectFrom("productVariants")
    .select(["id", "productId", "stock"])
    .where("id", "in", ids)
    .orderBy("id");
  if (engineOf(trx) === "postgres") current = current.forUpdate();
  const changes: LevelChange[] = [];
  for (const row of await current.execute()) {
    const level = wanted.get(row.id)!;
    if (row.stock === level) continue;
    await trx.updateTable("productVariants").set({ stock: level }).where("id", "=", row.id).execute();
    changes.push({ variantId: row.id, productId: row.productId, before: row.stock, after: level });
  }
  const now = movement.now ?? new Date();
  await syncProducts(
    trx,
    changes.map((c) => c.productId),
    now,
  );
  await appendMovements(
    trx,
    changes.map((c) => ({ variantId: c.variantId, productId: c.productId, delta: c.after - c.before })),
    { ...movement, now },
  );
  // a variant removed (its product deleted) is not "out of stock"
  if (movement.reason !== "variant_removed") await recordEvents(trx, stockEventRows(changes, now));
  return changes;
}

/**
 * Changes a variant's level by `delta` with a guarded update, so a sale at the same moment is
 * never overwritten: `negative` when the level now is below -delta. Returns the level before and after.
 */
export async function adjustStockLevel(
  trx: Database,
  { variantId, delta }: { variantId: number; delta: number },
  movement: StockMovement,
): Promise<Result<LevelChange, { code: "negative" | "not-found" }>> {
  if (!Number.isSafeInteger(delta)) throw new RangeError(`A stock change is a whole number (${delta})`);
  const row = await trx
    .updateTable("productVariants")
    .set((eb) => ({ stock: eb("stock", "+", delta) }))
    .where("id", "=", variantId)
    .where("stock", ">=", -delta)
    .returning(["productId", "stock"])
    .executeTakeFirst();
  if (!row) {
    const exists = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("id", "=", variantId)
      .executeTakeFirst();
    return fail({ code: exists ? "negative" : "not-found" });
  }
  const now = movement.now ?? new Date();
  if (delta !== 0) {
    await syncProducts(trx, [row.productId], now);
    await appendMovements(trx, [{ variantId, productId: row.productId, delta }], { ...movement, now });
    await recordEvents(
      trx,
      stockEventRows(
        [{ variantId, productId: row.productId, before: row.stock - delta, after: row.stock }],
        now,
      ),
    );
  }
  return ok({ variantId, productId: row.productId, before: row.stock - delta, after: row.stock });
}
