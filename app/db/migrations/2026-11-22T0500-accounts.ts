import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Accounts: Better Auth's tables (users, sessions, accounts, verifications — column types as
 * Better Auth itself declares them on each engine, checked by a test against its own schema),
 * plus the shop's address book, saved cards, wishlist and review votes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  const serial = postgres ? "serial" : "integer";
  const bool = postgres ? "boolean" : "integer";
  const stamp = postgres ? "timestamptz" : "date";
  const now = postgres ? sql`CURRENT_TIMESTAMP` : null;
  const created = (c: ColumnDefinitionBuilder) => (now ? c.notNull().defaultTo(now) : c.notNull());

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", bool, (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("created_at", stamp, created)
    .addColumn("updated_at", stamp, created)
    .addColumn("role", "text")
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expires_at", stamp, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", stamp, created)
    .addColumn("updated_at", stamp, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", stamp)
    .addColumn("refresh_token_expires_at", stamp)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", stamp, created)
    .addColumn("updated_at", stamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();

  await db.schema
    .createTable("verifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", stamp, (c) => c.notNull())
    .addColumn("created_at", stamp, created)
    .addColumn("updated_at", stamp, created)
    .execute();
  await db.schema
    .createIndex("verifications_identifier_idx")
    .on("verifications")
    .column("identifier")
    .execute();

  await db.schema
    .createTable("addresses")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("zip_code", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("addresses_user").on("addresses").column("user_id").execute();

  await db.schema
    .createTable("saved_cards")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    .addColumn("cardholder_name", "text", (c) => c.notNull())
    /** the gateway's token (never card data) */
    .addColumn("gateway_token", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("saved_cards_user").on("saved_cards").column("user_id").execute();

  await db.schema
    .createTable("wishlist_items")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("wishlist_items_pk", ["user_id", "product_id"])
    .execute();

  await db.schema
    .createTable("review_votes")
    .addColumn("review_id", "integer", (c) => c.notNull().references("reviews.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** 'helpful' or 'report' */
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('helpful', 'report')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("review_votes_pk", ["review_id", "user_id", "kind"])
    .execute();
  // One review per user and product (the seed's sample reviews have no user).
  await db.schema
    .createIndex("reviews_one_per_user")
    .on("reviews")
    .columns(["product_id", "user_id"])
    .unique()
    .where(sql.ref("user_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("reviews_one_per_user").ifExists().execute();
  for (const table of [
    "review_votes",
    "wishlist_items",
    "saved_cards",
    "addresses",
    "verifications",
    "accounts",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
