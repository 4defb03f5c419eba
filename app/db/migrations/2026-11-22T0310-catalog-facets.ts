import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Live product counts per (category, subcategory, brand), kept exact by triggers on products.
 * The listing answers "all brands", facet counts and totals for category/brand filters from
 * these few thousand rows instead of counting a million products.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table catalog_facets (
    category_id text not null,
    subcategory_id text not null default '',
    brand_key text not null,
    brand_name text not null,
    product_count integer not null check (product_count >= 0),
    primary key (category_id, subcategory_id, brand_key)
  )`.execute(db);
  await sql`create index catalog_facets_brand on catalog_facets (brand_key)`.execute(db);

  if (engineOf(db) === "postgres") {
    await sql`create function catalog_facets_sync() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and old.archived_at is null then
          update catalog_facets set product_count = product_count - 1,
            brand_name = coalesce((${sql.raw(liveBrandName())}), brand_name)
          where category_id = old.category_id and subcategory_id = coalesce(old.subcategory_id, '')
            and brand_key = lower(old.brand);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.archived_at is null then
          insert into catalog_facets values (new.category_id, coalesce(new.subcategory_id, ''), lower(new.brand), new.brand, 1)
          on conflict (category_id, subcategory_id, brand_key)
          do update set product_count = catalog_facets.product_count + 1,
            brand_name = case when catalog_facets.product_count = 0 then excluded.brand_name
              else least(catalog_facets.brand_name, excluded.brand_name) end;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger products_catalog_facets
      after insert or delete or update of category_id, subcategory_id, brand, archived_at on products
      for each row execute function catalog_facets_sync()`.execute(db);
  } else {
    const remove = `update catalog_facets set product_count = product_count - 1,
        brand_name = coalesce((${liveBrandName()}), brand_name)
      where old.archived_at is null and category_id = old.category_id
        and subcategory_id = coalesce(old.subcategory_id, '') and brand_key = lower(old.brand);`;
    const add = `insert into catalog_facets
      select new.category_id, coalesce(new.subcategory_id, ''), lower(new.brand), new.brand, 1
      where new.archived_at is null
      on conflict (category_id, subcategory_id, brand_key) do update set product_count = product_count + 1,
        brand_name = case when product_count = 0 then excluded.brand_name else min(brand_name, excluded.brand_name) end;`;
    await sql
      .raw(`create trigger products_facets_insert after insert on products begin ${add} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_facets_delete after delete on products begin ${remove} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_facets_update after update of category_id, subcategory_id, brand, archived_at
        on products begin ${remove} ${add} end`)
      .execute(db);
  }

  // Products that exist already (databases migrated after the catalogue was filled).
  await sql`insert into catalog_facets
    select category_id, coalesce(subcategory_id, ''), lower(brand), min(brand), count(*)
    from products where archived_at is null
    group by category_id, coalesce(subcategory_id, ''), lower(brand)`.execute(db);
}

/**
 * The display name of a facet row is the least spelling of the brand among its live products (as
 * the backfill above takes it), so correcting "KESTREL" to "Kestrel" shows "Kestrel". The triggers
 * run after the change, so this sees the products as they are now.
 */
function liveBrandName(): string {
  return `select min(p.brand) from products p where p.archived_at is null and p.category_id = old.category_id
    and coalesce(p.subcategory_id, '') = coalesce(old.subcategory_id, '') and lower(p.brand) = lower(old.brand)`;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists products_catalog_facets on products`.execute(db);
    await sql`drop function if exists catalog_facets_sync()`.execute(db);
  } else {
    for (const name of ["products_facets_insert", "products_facets_delete", "products_facets_update"]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await sql`drop table if exists catalog_facets`.execute(db);
}
