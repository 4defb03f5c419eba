import type { Database } from "../../db/database.server.ts";
import { LOW_STOCK_THRESHOLD } from "../../lib/stock.ts";

/** The admin landing page's counts. */
export async function getAdminDashboard(db: Database) {
  const count = (value: unknown) => Number(value ?? 0);
  const [products, lowStock, paidOrders] = await Promise.all([
    db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("archivedAt", "is", null)
      .executeTakeFirstOrThrow(),
    // per variant, as the low-stock page lists them (a size running out counts on its own)
    db
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("products.archivedAt", "is", null)
      .where("productVariants.archivedAt", "is", null)
      .where("productVariants.stock", "<=", LOW_STOCK_THRESHOLD)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow(),
  ]);
  return { products: count(products.n), lowStock: count(lowStock.n), ordersToShip: count(paidOrders.n) };
}
