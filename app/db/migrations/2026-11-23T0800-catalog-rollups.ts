import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Roll-ups of `catalog_facets` that every listing reads (decision 004, revision 2):
 * - `catalog_brands`: live products per brand key with its display name — the filter's list of
 *   all brands (~270 rows at a million products instead of grouping ~9 000 facet rows);
 * - `catalog_category_totals`: live products per category — the category facet and totals
 *   without a brand filter (6 rows instead of ~9 000).
 * Both are kept exact by triggers on `catalog_facets` (itself kept by triggers on products), so
 * the product logic stays in one place: a facet row's count changes by a delta that is added to
 * its brand and category; a brand's display name is the least live spelling among its facet rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  await sql`create table catalog_brands (
    brand_key text primary key,
    brand_name text not null,
    product_count integer not null check (product_count >= 0)
  )`.execute(db);
  await sql`create table catalog_category_totals (
    category_id text primary key,
    product_count integer not null check (product_count >= 0)
  )`.execute(db);

  // the brand's display name: the least spelling among its facet rows with live products
  const brandName = (row: string) =>
    `(select min(f.brand_name) from catalog_facets f where f.brand_key = ${row}.brand_key and f.product_count > 0)`;

  if (postgres) {
    await sql`create function catalog_rollups_sync() returns trigger language plpgsql as $$
      declare
        delta integer;
        r catalog_facets%rowtype;
      begin
        if tg_op = 'DELETE' then
          delta := -old.product_count;
          r := old;
        elsif tg_op = 'INSERT' then
          delta := new.product_count;
          r := new;
        else
          delta := new.product_count - old.product_count;
          r := new;
        end if;
        insert into catalog_brands values (r.brand_key, r.brand_name, greatest(delta, 0))
        on conflict (brand_key) do update set product_count = catalog_brands.product_count + delta;
        update catalog_brands set brand_name = coalesce(${sql.raw(brandName("catalog_brands"))}, brand_name)
        where brand_key = r.brand_key;
        insert into catalog_category_totals values (r.category_id, greatest(delta, 0))
        on conflict (category_id) do update set product_count = catalog_category_totals.product_count + delta;
        return null;
      end $$`.execute(db);
    await sql`create trigger catalog_facets_rollups
      after insert or delete or update of product_count, brand_name on catalog_facets
      for each row execute function catalog_rollups_sync()`.execute(db);
  } else {
    const apply = (row: "new" | "old", delta: string) => `
      insert into catalog_brands values (${row}.brand_key, ${row}.brand_name, max(${delta}, 0))
        on conflict (brand_key) do update set product_count = product_count + ${delta};
      update catalog_brands set brand_name = coalesce(${brandName("catalog_brands")}, brand_name)
        where brand_key = ${row}.brand_key;
      insert into catalog_category_totals values (${row}.category_id, max(${delta}, 0))
        on conflict (category_id) do update set product_count = product_count + ${delta};`;
    await sql
      .raw(`create trigger catalog_facets_rollups_insert after insert on catalog_facets
        begin ${apply("new", "new.product_count")} end`)
      .execute(db);
    await sql
      .raw(`create trigger catalog_facets_rollups_update after update of product_count, brand_name on catalog_facets
        begin ${apply("new", "(new.product_count - old.product_count)")} end`)
      .execute(db);
    await sql
      .raw(`create trigger catalog_facets_rollups_delete after delete on catalog_facets
        begin ${apply("old", "(-old.product_count)")} end`)
      .execute(db);
  }

  // what the facet table holds already (databases migrated after the catalogue was filled)
  await sql`insert into catalog_brands
    select brand_key, coalesce(min(case when product_count > 0 then brand_name end), min(brand_name)),
      sum(product_count)
    from catalog_facets group by brand_key`.execute(db);
  await sql`insert into catalog_category_totals
    select category_id, sum(product_count) from catalog_facets group by category_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists catalog_facets_rollups on catalog_facets`.execute(db);
    await sql`drop function if exists catalog_rollups_sync()`.execute(db);
  } else {
    for (const name of [
      "catalog_facets_rollups_insert",
      "catalog_facets_rollups_update",
      "catalog_facets_rollups_delete",
    ]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await sql`drop table if exists catalog_category_totals`.execute(db);
  await sql`drop table if exists catalog_brands`.execute(db);
}
