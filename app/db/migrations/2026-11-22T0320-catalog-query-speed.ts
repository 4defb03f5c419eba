import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Faster filtered listings (decision 004).
 *
 * 1. `catalog_price_bands`: live product counts per (category, brand, price band, whole-star
 *    rating), kept exact by triggers like `catalog_facets`. A price band is one $100 step of the
 *    price filter, split so that both bounds stay exact: `2 × min(price_cents / 10000, 20)`, plus 1
 *    unless the price is a whole multiple of $100 (so "up to $500" takes $500.00 and not $500.01).
 *    With the filter form's $100 steps and a rating minimum, the total and both facets are sums
 *    over a few thousand rows instead of a pass over every matching product.
 * 2. Covering partial indexes for the filtered listings the bands cannot answer (a subcategory,
 *    flags, deals, a search, or bounds off the $100 steps): every column that pass reads is in
 *    the index, so it never visits the products themselves. `brand` and `archived_at` are plain
 *    columns because SQLite only treats an index as covering when it holds every column the
 *    query names (`lower(brand)`, `archived_at is null`).
 * 3. Covering indexes on catalog_facets for the brand list and facet sums of every listing.
 */
const FACET_COLUMNS = "brand, featured, new_arrival, best_seller, discount_percentage, archived_at";
const INDEXES: Array<[string, string]> = [
  ["products_live_category_facets", `category_id, price_cents, rating, subcategory_id, ${FACET_COLUMNS}`],
  ["products_live_subcategory_facets", `subcategory_id, price_cents, rating, category_id, ${FACET_COLUMNS}`],
  ["products_live_price_facets", `price_cents, rating, category_id, subcategory_id, ${FACET_COLUMNS}`],
];
/** Covering indexes for the sums over catalog_facets that every listing runs (brands, facets). */
const FACET_TABLE_INDEXES: Array<[string, string]> = [
  ["catalog_facets_brand_counts", "brand_key, product_count, brand_name, category_id, subcategory_id"],
  ["catalog_facets_category_counts", "category_id, brand_key, subcategory_id, product_count"],
];

/** The band of a price in cents (the same expression on both engines). */
const PRICE_BAND = (row: "new" | "old" | null) => {
  const price = row ? `${row}.price_cents` : "price_cents";
  return `(2 * (case when ${price} >= 200000 then 20 else ${price} / 10000 end) + (case when ${price} % 10000 = 0 then 0 else 1 end))`;
};
const RATING_FLOOR = (row: "new" | "old" | null, postgres: boolean) => {
  const rating = row ? `${row}.rating` : "rating";
  return postgres ? `cast(floor(${rating}) as integer)` : `cast(${rating} as integer)`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  for (const [name, columns] of INDEXES) {
    await sql`create index ${sql.id(name)} on products (${sql.raw(columns)}) where archived_at is null`.execute(
      db,
    );
  }

  for (const [name, columns] of FACET_TABLE_INDEXES) {
    await sql`create index ${sql.id(name)} on catalog_facets (${sql.raw(columns)})`.execute(db);
  }

  const withoutRowid = sql.raw(postgres ? "" : "without rowid");
  await sql`create table catalog_price_bands (
    category_id text not null,
    price_band integer not null,
    rating_floor integer not null,
    brand_key text not null,
    product_count integer not null check (product_count >= 0),
    primary key (category_id, price_band, rating_floor, brand_key)
  ) ${withoutRowid}`.execute(db);
  // the category facet with a brand filter: a few brands' bands in every category
  await sql`create index catalog_price_bands_brand on catalog_price_bands
    (brand_key, price_band, rating_floor, category_id, product_count)`.execute(db);
  // the same counts over all brands (the category facet without a brand filter): a few hundred rows
  await sql`create table catalog_price_band_totals (
    category_id text not null,
    price_band integer not null,
    rating_floor integer not null,
    product_count integer not null check (product_count >= 0),
    primary key (category_id, price_band, rating_floor)
  ) ${withoutRowid}`.execute(db);

  const band = (row: "new" | "old") => `${PRICE_BAND(row)}, ${RATING_FLOOR(row, postgres)}`;
  const match = `category_id = old.category_id and price_band = ${PRICE_BAND("old")}
    and rating_floor = ${RATING_FLOOR("old", postgres)}`;
  const tables = [
    { table: "catalog_price_bands", key: "category_id, price_band, rating_floor, brand_key", brand: true },
    { table: "catalog_price_band_totals", key: "category_id, price_band, rating_floor", brand: false },
  ];
  const remove = ({ table, brand }: (typeof tables)[number]) =>
    `update ${table} set product_count = product_count - 1
      where old.archived_at is null and ${match}${brand ? " and brand_key = lower(old.brand)" : ""};`;
  const add = ({ table, key, brand }: (typeof tables)[number]) =>
    `insert into ${table} select new.category_id, ${band("new")}${brand ? ", lower(new.brand)" : ""}, 1
      where new.archived_at is null
      on conflict (${key}) do update set product_count = ${table}.product_count + 1;`;
  if (postgres) {
    // the statements' own guards (old/new.archived_at is null) decide; plpgsql wants them in ifs
    await sql
      .raw(`create function catalog_price_bands_sync() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${tables.map(remove).join("\n")} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${tables.map(add).join("\n")} end if;
        return null;
      end $$`)
      .execute(db);
    await sql`create trigger products_catalog_price_bands
      after insert or delete or update of category_id, brand, price_cents, rating, archived_at on products
      for each row execute function catalog_price_bands_sync()`.execute(db);
  } else {
    const removeAll = tables.map(remove).join("\n");
    const addAll = tables.map(add).join("\n");
    await sql
      .raw(`create trigger products_price_bands_insert after insert on products begin ${addAll} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_price_bands_delete after delete on products begin ${removeAll} end`)
      .execute(db);
    await sql
      .raw(`create trigger products_price_bands_update after update of category_id, brand, price_cents, rating, archived_at
        on products begin ${removeAll} ${addAll} end`)
      .execute(db);
  }

  // Products that exist already.
  const bandOf = `${PRICE_BAND(null)}, ${RATING_FLOOR(null, postgres)}`;
  await sql
    .raw(`insert into catalog_price_bands
      select category_id, ${bandOf}, lower(brand), count(*) from products where archived_at is null
      group by category_id, ${bandOf}, lower(brand)`)
    .execute(db);
  await sql
    .raw(`insert into catalog_price_band_totals
      select category_id, ${bandOf}, count(*) from products where archived_at is null
      group by category_id, ${bandOf}`)
    .execute(db);
  await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists products_catalog_price_bands on products`.execute(db);
    await sql`drop function if exists catalog_price_bands_sync()`.execute(db);
  } else {
    for (const name of [
      "products_price_bands_insert",
      "products_price_bands_delete",
      "products_price_bands_update",
    ]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await sql`drop table if exists catalog_price_band_totals`.execute(db);
  await sql`drop table if exists catalog_price_bands`.execute(db);
  for (const [name] of [...INDEXES, ...FACET_TABLE_INDEXES]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
