import { type Kysely, sql } from "kysely";

/**
 * Paying with gift cards and store credit (issue 31, decision 036): an order keeps what its gift
 * cards paid (the gateway is asked for the rest only), a refund what of it goes back to gift cards
 * or store credit rather than through the gateway, and the checkout in progress the cards the
 * shopper applied at the payment step (their ids, as JSON: the codes are never kept).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("gift_card_cents", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`gift_card_cents >= 0 and gift_card_cents <= total_cents`),
    )
    .execute();
  await db.schema
    .alterTable("order_refunds")
    .addColumn("gift_card_cents", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`gift_card_cents >= 0 and gift_card_cents <= amount_cents`),
    )
    .execute();
  // 1: the whole refund goes to the account's store credit
  await db.schema
    .alterTable("order_refunds")
    .addColumn("to_store_credit", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("checkout_progress").addColumn("gift_card_ids", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("checkout_progress").dropColumn("gift_card_ids").execute();
  await db.schema.alterTable("order_refunds").dropColumn("to_store_credit").execute();
  await db.schema.alterTable("order_refunds").dropColumn("gift_card_cents").execute();
  await db.schema.alterTable("orders").dropColumn("gift_card_cents").execute();
}
