import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Gift cards sold as a product (issue 31, decision 036): a product can be a gift card (its variants
 * the amounts; delivered by e-mail, no shipping, no tax on the sale). A cart keeps who each amount
 * goes to; an order keeps it per line as a delivery, which issues the cards once the order is paid
 * and holds their codes only until the e-mail carrying them has gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .alterTable("products")
    .addColumn("gift_card", "integer", (c) => c.notNull().defaultTo(0).check(sql`gift_card in (0, 1)`))
    .execute();
  await db.schema
    .createTable("cart_gift_card_recipients")
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("variant_id", "integer", (c) => c.notNull())
    .addColumn("recipient_email", "text")
    .addColumn("recipient_name", "text")
    .addColumn("message", "text")
    .addPrimaryKeyConstraint("cart_gift_card_recipients_pk", ["cart_id", "variant_id"])
    .execute();
  await db.schema
    .createTable("gift_card_deliveries")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    // the order's line of that amount (an order has one line per variant)
    .addColumn("variant_id", "integer", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    // null: to the order's own e-mail address
    .addColumn("recipient_email", "text")
    .addColumn("recipient_name", "text")
    .addColumn("message", "text")
    // the issued cards' codes (JSON), kept only until the e-mail carrying them has gone
    .addColumn("codes", "text")
    .addColumn("issued_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("gift_card_deliveries_line", ["order_id", "variant_id"])
    .execute();
  await db.schema
    .createIndex("gift_card_deliveries_open")
    .on("gift_card_deliveries")
    .columns(["sent_at", "order_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("gift_card_deliveries").execute();
  await db.schema.dropTable("cart_gift_card_recipients").execute();
  await db.schema.alterTable("products").dropColumn("gift_card").execute();
}
