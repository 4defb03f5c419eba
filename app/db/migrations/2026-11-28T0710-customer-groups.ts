import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Customer groups (issue 31, decision 034):
 * - `customer_groups`: a group the admin names (unique), with an optional rule (JSON text, e.g.
 *   `{"type":"spent-over","cents":50000}`) that decides some of its members;
 * - `customer_group_members`: one row per account in a group, and how it came in — 'hand' (added by
 *   e-mail), 'csv' (an imported list) or 'rule' (the group's rule; recomputed when the rule is
 *   applied, while the others stay until removed). Deleting a group or an account takes its rows
 *   with it. The cart reads a shopper's groups by `user_id` (its index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("customer_groups")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("rule", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("customer_group_members")
    .addColumn("group_id", "integer", (c) => c.notNull().references("customer_groups.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull().check(sql`source in ('hand', 'csv', 'rule')`))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("customer_group_members_pk", ["group_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("customer_group_members_user")
    .on("customer_group_members")
    .columns(["user_id", "group_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("customer_group_members").execute();
  await db.schema.dropTable("customer_groups").execute();
}
