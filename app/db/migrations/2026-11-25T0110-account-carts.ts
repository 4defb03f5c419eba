import { type Kysely, sql } from "kysely";

/**
 * One cart per account: `carts.user_id` becomes unique (NULLs, the guest carts, stay many on
 * both engines). Where an account had several carts, the most recently used one stays the
 * account's and the others are detached (they become guest carts no cookie points at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update carts set user_id = null
    where user_id is not null and exists (
      select 1 from carts newer
      where newer.user_id = carts.user_id
        and (newer.updated_at > carts.updated_at or (newer.updated_at = carts.updated_at and newer.id < carts.id))
    )`.execute(db);
  await db.schema.dropIndex("carts_user").execute();
  await db.schema.createIndex("carts_user_unique").on("carts").column("user_id").unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("carts_user_unique").execute();
  await db.schema.createIndex("carts_user").on("carts").column("user_id").execute();
}
