import { sql } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { StockReason } from "../../db/schema.ts";

/**
 * Reading the stock ledger (migration 2200): a variant's history for the admin, and the check that
 * every level is what its movements add up to (`npm run cli -- inventory:check`, the nightly job,
 * and every integration test's database before it is thrown away).
 */

export interface StockHistoryEntry {
  id: number;
  delta: number;
  /** the level right after this movement */
  level: number;
  reason: StockReason;
  orderNumber: string | null;
  returnNumber: string | null;
  /** the staff member's e-mail, else what acted (checkout, payment-provider, system, cli) */
  actor: string;
  createdAt: string;
}

export const STOCK_HISTORY_PAGE_SIZE = 50;

/**
 * A variant's movements, newest first, each with the level it left; a page at a time (`before`: the
 * id of the oldest movement of the page before).
 */
export async function stockHistory(
  db: Database,
  variantId: number,
  { limit = STOCK_HISTORY_PAGE_SIZE, before = null }: { limit?: number; before?: number | null } = {},
): Promise<{ entries: StockHistoryEntry[]; level: number; hasMore: boolean }> {
  const variant = await db
    .selectFrom("productVariants")
    .select("stock")
    .where("id", "=", variantId)
    .executeTakeFirst();
  const level = variant?.stock ?? 0;
  // the level right after the page's newest movement: now, less what the newer ones moved
  const newer =
    before === null
      ? 0
      : Number(
          (
            await db
              .selectFrom("stockMovements")
              .select(sql<number>`coalesce(sum(delta), 0)`.as("total"))
              .where("variantId", "=", variantId)
              .where("id", ">=", before)
              .executeTakeFirstOrThrow()
          ).total,
        );
  const rows = await db
    .selectFrom("stockMovements")
    .leftJoin("orders", "orders.id", "stockMovements.orderId")
    .leftJoin("returns", "returns.id", "stockMovements.returnId")
    .leftJoin("users", "users.id", "stockMovements.actor")
    .select([
      "stockMovements.id",
      "stockMovements.delta",
      "stockMovements.reason",
      "stockMovements.actor",
      "stockMovements.createdAt",
      "orders.number as orderNumber",
      "returns.number as returnNumber",
      "users.email as actorEmail",
    ])
    .where("stockMovements.variantId", "=", variantId)
    .$if(before !== null, (q) => q.where("stockMovements.id", "<", before!))
    .orderBy("stockMovements.id", "desc")
    .limit(limit + 1)
    .execute();
  let after = level - newer;
  const entries = rows.slice(0, limit).map((row) => {
    const entry: StockHistoryEntry = {
      id: row.id,
      delta: row.delta,
      level: after,
      reason: row.reason,
      orderNumber: row.orderNumber,
      returnNumber: row.returnNumber,
      actor: row.actorEmail ?? row.actor,
      createdAt: row.createdAt,
    };
    after -= row.delta;
    return entry;
  });
  return { entries, level, hasMore: rows.length > limit };
}

export interface StockDrift {
  variantId: number;
  /** null: the variant no longer exists (its movements should add up to 0) */
  stock: number | null;
  ledger: number;
}

export interface ProductStockDrift {
  productId: number;
  /** the product row's summed stock */
  stock: number;
  /** what its live variants hold */
  variants: number;
}

/**
 * Every variant whose level differs from the sum of its movements (and every deleted variant whose
 * movements do not add up to 0), and every product whose summed stock differs from its live
 * variants'. Empty lists: the books balance.
 */
export async function checkStockLedger(
  db: Database,
): Promise<{ variants: StockDrift[]; products: ProductStockDrift[]; movements: number }> {
  const totals = db
    .selectFrom("stockMovements")
    .select(["variantId", sql<number>`sum(delta)`.as("total")])
    .groupBy("variantId");
  const live = await db
    .selectFrom("productVariants")
    .leftJoin(totals.as("ledger"), "ledger.variantId", "productVariants.id")
    .select(["productVariants.id as variantId", "productVariants.stock", "ledger.total"])
    .where(sql<boolean>`product_variants.stock <> coalesce(ledger.total, 0)`)
    .orderBy("productVariants.id")
    .execute();
  const gone = await db
    .selectFrom(totals.as("ledger"))
    .select(["ledger.variantId", "ledger.total"])
    .where(sql<boolean>`ledger.total <> 0`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("productVariants").select("id").whereRef("productVariants.id", "=", "ledger.variantId"),
        ),
      ),
    )
    .orderBy("ledger.variantId")
    .execute();
  const liveStock = db
    .selectFrom("productVariants")
    .select(["productId", sql<number>`sum(stock)`.as("total")])
    .where("archivedAt", "is", null)
    .groupBy("productId");
  const products = await db
    .selectFrom("products")
    .innerJoin(liveStock.as("live"), "live.productId", "products.id")
    .select(["products.id as productId", "products.stock", "live.total"])
    .where(sql<boolean>`products.stock <> live.total`)
    .orderBy("products.id")
    .execute();
  const counted = await db
    .selectFrom("stockMovements")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return {
    variants: [
      ...live.map((row) => ({ variantId: row.variantId, stock: row.stock, ledger: Number(row.total ?? 0) })),
      ...gone.map((row) => ({ variantId: row.variantId, stock: null, ledger: Number(row.total) })),
    ],
    products: products.map((row) => ({
      productId: row.productId,
      stock: row.stock,
      variants: Number(row.total),
    })),
    movements: Number(counted.n),
  };
}
