import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * `catalog_changes`: which product each bump of `catalog_version` was for — one row per product
 * written (version, product_id), in the same transaction as the write, by the same triggers — so
 * the search index can apply the products changed since its build to itself in moments instead of
 * being rebuilt whole (decision 041). `catalog_version.changes_from`: the log holds every change
 * of a version above it (older rows are pruned; an index older than that is rebuilt).
 *
 * SQLite's triggers run per row and its writers one at a time: the bump, then the row with the new
 * version. PostgreSQL's bump runs once per statement, after the statement's row triggers: a row
 * trigger locks `catalog_version` (so concurrent writers take versions in turn) and logs the
 * version the statement's bump will give.
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
  "option_text",
  "variant_facets",
].join(", ");

const BUMP = "update catalog_version set version = version + 1 where id = 1;";
const logged = (row: "new" | "old") =>
  `insert into catalog_changes (version, product_id) select version, ${row}.id from catalog_version where id = 1;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table catalog_changes (
    version bigint not null,
    product_id integer not null
  )`.execute(db);
  await sql`create index catalog_changes_version on catalog_changes (version)`.execute(db);
  await sql`alter table catalog_version add column changes_from bigint not null default 0`.execute(db);
  // nothing before now was logged
  await sql`update catalog_version set changes_from = version`.execute(db);
  if (engineOf(db) === "postgres") {
    await sql`create function catalog_change_log() returns trigger language plpgsql as $$
      declare
        current bigint;
      begin
        select version into current from catalog_version where id = 1 for update;
        insert into catalog_changes (version, product_id)
          values (current + 1, case when tg_op = 'DELETE' then old.id else new.id end);
        return null;
      end $$`.execute(db);
    await sql
      .raw(`create trigger products_catalog_change
        after insert or delete or update of ${LISTED_COLUMNS} on products
        for each row execute function catalog_change_log()`)
      .execute(db);
  } else {
    for (const name of ["insert", "delete", "update"]) {
      await sql.raw(`drop trigger products_catalog_version_${name}`).execute(db);
    }
    await sql
      .raw(`create trigger products_catalog_version_insert after insert on products
        begin ${BUMP} ${logged("new")} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_delete after delete on products
        begin ${BUMP} ${logged("old")} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_update after update of ${LISTED_COLUMNS} on products
        begin ${BUMP} ${logged("new")} end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists products_catalog_change on products`.execute(db);
    await sql`drop function if exists catalog_change_log()`.execute(db);
  } else {
    for (const name of ["insert", "delete", "update"]) {
      await sql.raw(`drop trigger products_catalog_version_${name}`).execute(db);
    }
    await sql
      .raw(`create trigger products_catalog_version_insert after insert on products begin ${BUMP} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_delete after delete on products begin ${BUMP} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_catalog_version_update after update of ${LISTED_COLUMNS} on products
        begin ${BUMP} end`)
      .execute(db);
  }
  await sql`alter table catalog_version drop column changes_from`.execute(db);
  await sql`drop table catalog_changes`.execute(db);
}
