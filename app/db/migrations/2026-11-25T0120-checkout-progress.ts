import { type Kysely, sql } from "kysely";

/**
 * `checkout_progress`: the checkout in progress, one row per cart (decision 012), instead of a
 * signed cookie. Exactly the known fields, each with the shipping form's length limits: the
 * shipping details (all nine set together once the step passed), the method, the payment step's
 * result (the gateway's token with brand, last 4, expiry, cardholder name and "save this card"),
 * the idempotency key of the review, the number of the order just placed (for the confirmation),
 * and the refused step's feedback to show once (JSON of known fields, bounded). Rows of a deleted
 * cart go with it; rows untouched for a day are ignored and pruned.
 */
const LIMITS: Record<string, number> = {
  first_name: 100,
  last_name: 100,
  email: 254,
  phone: 32,
  address: 200,
  city: 100,
  state: 100,
  zip_code: 16,
  country: 2,
  payment_token: 1000,
  payment_brand: 40,
  payment_last4: 4,
  payment_expiry: 5,
  card_name: 100,
  idempotency_key: 100,
  placed_order_number: 40,
  feedback: 16_000,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema
    .createTable("checkout_progress")
    .addColumn("cart_id", "text", (c) => c.primaryKey().references("carts.id").onDelete("cascade"));
  for (const [column, limit] of Object.entries(LIMITS)) {
    table = table.addColumn(column, "text", (c) =>
      c.check(sql`length(${sql.ref(column)}) <= ${sql.lit(limit)}`),
    );
  }
  await table
    .addColumn("shipping_method", "text", (c) => c.check(sql`shipping_method in ('standard', 'express')`))
    .addColumn("save_info", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("checkout_progress_updated")
    .on("checkout_progress")
    .column("updated_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("checkout_progress").ifExists().execute();
}
