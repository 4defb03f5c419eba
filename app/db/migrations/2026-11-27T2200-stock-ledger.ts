import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The stock ledger (issue 28, decision 026): every change of a variant's stock is a row here,
 * written by the inventory area in the same transaction as the change, so a variant's level is
 * always the sum of its movements. Append-only: nothing updates or deletes a movement. A variant
 * that is deleted keeps its movements (no foreign key), the last of which takes its stock to 0.
 *
 * The stock there is now is each variant's opening balance.
 */
const STOCK_REASONS = [
  "opening_balance",
  "sale",
  "payment_failed",
  "cancellation",
  "refund_restock",
  "return_received",
  "admin_set",
  "admin_adjust",
  "bulk_set",
  "csv_import",
  "variant_removed",
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  await db.schema
    .createTable("stock_movements")
    .addColumn("id", postgres ? "bigserial" : "integer", (c) => c.primaryKey())
    .addColumn("variant_id", "integer", (c) => c.notNull())
    .addColumn("product_id", "integer", (c) => c.notNull())
    .addColumn("delta", "integer", (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn("reason", "text", (c) =>
      c.notNull().check(sql.raw(`reason in (${STOCK_REASONS.map((r) => `'${r}'`).join(", ")})`)),
    )
    .addColumn("order_id", "integer")
    .addColumn("return_id", "integer")
    .addColumn("refund_id", "integer")
    /** the staff member's id, or what acted: checkout, payment-provider, system, cli */
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`create index stock_movements_variant on stock_movements (variant_id, id)`.execute(db);
  await sql`insert into stock_movements (variant_id, product_id, delta, reason, actor, created_at)
    select id, product_id, stock, 'opening_balance', 'system', ${new Date().toISOString()}
    from product_variants where stock <> 0 order by id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("stock_movements").execute();
}
