import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * `catalog_version`: one row whose version is bumped in the same transaction as every product
 * write that changes what a listing filters, sorts or searches on — inserts, deletes, and updates
 * of those columns (a stock change on an order does not bump it). The in-memory search index
 * (decision 004, revision 3) answers only while its version is the current one.
 */
const LISTED_COLUMNS = [
  "name",
  "description",
  "brand",
  "category_id",
  "subcategory_id",
  "price_cents",
  "discount_percentage",
  "rating",
  "review_count",
  "featured",
  "new_arrival",
  "best_seller",
  "created_at",
  "archived_at",
].join(", ");

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table catalog_version (
    id integer primary key check (id = 1),
    version bigint not null
  )`.execute(db);
  await sql`insert into catalog_version (id, version) values (1, 1)`.execute(db);
  if (engineOf(db) === "postgres") {
    await sql`create function catalog_version_bump() returns trigger language plpgsql as $$
      begin
        update catalog_version set version = version + 1 where id = 1;
        return null;
      end $$`.execute(db);
    // once per statement: a bulk write bumps it once
    await sql
      .raw(`create trigger products_catalog_version
        after insert or delete or update of ${LISTED_COLUMNS} on products
        for each statement execute function catalog_version_bump()`)
      .execute(db);
  } else {
    const bump = "update catalog_version set version = version + 1 where id = 1;";
    await sql
      .raw(`create trigger products_catalog_version_insert after insert on products begin ${bump} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_delete after delete on products begin ${bump} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_update after update of ${LISTED_COLUMNS} on products
        begin ${bump} end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists products_catalog_version on products`.execute(db);
    await sql`drop function if exists catalog_version_bump()`.execute(db);
  } else {
    for (const name of [
      "products_catalog_version_insert",
      "products_catalog_version_delete",
      "products_catalog_version_update",
    ]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await sql`drop table if exists catalog_version`.execute(db);
}
