import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Gift cards and store credit (issue 31, decision 036): a balance in the shop's currency that pays
 * for orders. A gift card has a code (only its SHA-256 is kept, and its last four characters to name
 * it); store credit is the same balance held by an account, without a code. Every change of a
 * balance is a movement in the same transaction (`gift_card_movements`, append-only), so a balance
 * always equals the sum of its movements, and it never goes below zero (a CHECK, and guarded updates).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("gift_cards")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('gift_card', 'store_credit')`))
    // a gift card's code, hashed; null for store credit
    .addColumn("code_hash", "text", (c) => c.unique())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("initial_cents", "integer", (c) => c.notNull().check(sql`initial_cents >= 0`))
    .addColumn("balance_cents", "integer", (c) => c.notNull().check(sql`balance_cents >= 0`))
    .addColumn("expires_at", "text")
    // store credit's account (one per account); a gift card's buyer when bought signed in
    .addColumn("user_id", "text")
    .addColumn("recipient_email", "text")
    .addColumn("recipient_name", "text")
    .addColumn("message", "text")
    .addColumn("issued_by", "text", (c) => c.notNull())
    // the admin's issue form's own key: the same form sent twice issues one card
    .addColumn("issue_key", "text", (c) => c.unique())
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("disabled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint(
      "gift_cards_code_or_account",
      sql`(kind = 'gift_card' and code_hash is not null) or (kind = 'store_credit' and user_id is not null and code_hash is null)`,
    )
    .execute();
  await sql`create unique index gift_cards_store_credit on gift_cards (user_id) where kind = 'store_credit'`.execute(
    db,
  );
  await db.schema.createIndex("gift_cards_created").on("gift_cards").columns(["created_at", "id"]).execute();
  await db.schema
    .createTable("gift_card_movements")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("gift_card_id", "integer", (c) => c.notNull().references("gift_cards.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addColumn("reason", "text", (c) =>
      c.notNull().check(sql`reason in ('issued', 'redeemed', 'released', 'refunded')`),
    )
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("gift_card_movements_card")
    .on("gift_card_movements")
    .columns(["gift_card_id", "id"])
    .execute();
  await db.schema
    .createIndex("gift_card_movements_order")
    .on("gift_card_movements")
    .column("order_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("gift_card_movements").execute();
  await db.schema.dropTable("gift_cards").execute();
}
