import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Where the shop sells (issue 30, decision 030):
 * - `markets` (one row): whether prices are entered including tax, how tax is rounded, the country
 *   the cart estimates for, and a revision every change to the zones moves (processes cache the
 *   zones while it stands);
 * - `zones` of countries (and optionally regions), each with its tax label, whether shipping is
 *   taxed, its `zone_tax_rates` (per tax class, optionally per region) and its `shipping_methods`
 *   (flat, by subtotal or weight bands, free from a threshold, delivery days);
 * - a product's tax class and a variant's weight;
 * - the legal details an invoice names, with the shop's settings;
 * - a cart's estimate destination;
 * - orders keep what they were charged: the method's name, the tax mode and label, the shipping's
 *   tax, each line's discount, net, tax, gross and rate, and a row per tax rate, so later changes
 *   never rewrite history (the orders placed before get the shop's label and one tax line at its
 *   one rate; their lines' figures stay null). Refund lines keep what they paid back and its tax.
 *
 * The shop as it was becomes one zone — the six countries it shipped to, its tax rate and label on
 * every class but zero and exempt, its standard (free from its threshold) and express methods — so a
 * shop that changes nothing charges exactly what it charged before. The old pricing columns of
 * `shop_settings` stay (no longer read).
 *
 * `orders.shipping_method` and `checkout_progress.shipping_method` held 'standard' or 'express' (a
 * CHECK); they now hold a method's code, so the CHECK goes: PostgreSQL drops it; SQLite rebuilds the
 * two tables with foreign keys off (the procedure SQLite documents for changing a table's schema).
 */
const OLD_COUNTRIES = ["US", "CA", "GB", "AU", "DE", "FR"];
const TAX_CLASS_CHECK = sql`tax_class in ('standard', 'reduced', 'zero', 'exempt')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  const serial = postgres ? "serial" : "integer";
  await db.schema
    .createTable("markets")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("prices_include_tax", "integer", (c) => c.notNull().check(sql`prices_include_tax in (0, 1)`))
    .addColumn("tax_rounding", "text", (c) =>
      c.notNull().check(sql`tax_rounding in ('per-order', 'per-line')`),
    )
    .addColumn("estimate_country", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("markets_one_row", sql`id = 1`)
    .execute();
  await db.schema
    .createTable("zones")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    /** JSON array of ISO 3166-1 alpha-2 codes */
    .addColumn("countries", "text", (c) => c.notNull())
    /** JSON object: country → the region codes of it the zone covers (a country not named: all of it) */
    .addColumn("regions", "text", (c) => c.notNull())
    .addColumn("tax_label", "text", (c) => c.notNull())
    .addColumn("tax_shipping", "integer", (c) => c.notNull().check(sql`tax_shipping in (0, 1)`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("zone_tax_rates")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("zone_id", "integer", (c) => c.notNull().references("zones.id").onDelete("cascade"))
    /** '' for the zone's own rate; a region code (a US state) for that region's */
    .addColumn("region", "text", (c) => c.notNull())
    .addColumn("tax_class", "text", (c) => c.notNull().check(TAX_CLASS_CHECK))
    .addColumn("basis_points", "integer", (c) =>
      c.notNull().check(sql`basis_points >= 0 and basis_points <= 10000`),
    )
    .addUniqueConstraint("zone_tax_rates_one", ["zone_id", "region", "tax_class"])
    .execute();
  await db.schema
    .createTable("shipping_methods")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("zone_id", "integer", (c) => c.notNull().references("zones.id").onDelete("cascade"))
    /** what an order keeps: unique in its zone, e.g. "standard" */
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("rule", "text", (c) => c.notNull().check(sql`rule in ('flat', 'subtotal', 'weight')`))
    .addColumn("flat_cents", "integer", (c) => c.notNull().check(sql`flat_cents >= 0`))
    /** JSON array of { upTo: cents or grams (null: the rest), priceCents }, ascending */
    .addColumn("bands", "text", (c) => c.notNull())
    .addColumn("free_over_cents", "integer", (c) => c.check(sql`free_over_cents >= 0`))
    .addColumn("days_min", "integer", (c) => c.notNull().check(sql`days_min >= 0`))
    .addColumn("days_max", "integer", (c) => c.notNull().check(sql`days_max >= days_min`))
    .addColumn("position", "integer", (c) => c.notNull())
    .addUniqueConstraint("shipping_methods_code", ["zone_id", "code"])
    .execute();
  await db.schema.createIndex("zone_tax_rates_zone").on("zone_tax_rates").column("zone_id").execute();
  await db.schema.createIndex("shipping_methods_zone").on("shipping_methods").column("zone_id").execute();

  await db.schema
    .alterTable("products")
    .addColumn("tax_class", "text", (c) => c.notNull().defaultTo("standard").check(TAX_CLASS_CHECK))
    .execute();
  await db.schema
    .alterTable("product_variants")
    .addColumn("weight_grams", "integer", (c) => c.notNull().defaultTo(0).check(sql`weight_grams >= 0`))
    .execute();

  for (const column of ["legal_name", "legal_address", "tax_id"]) {
    await db.schema
      .alterTable("shop_settings")
      .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
      .execute();
  }
  await db.schema.alterTable("carts").addColumn("estimate_country", "text").execute();
  await db.schema.alterTable("carts").addColumn("estimate_region", "text").execute();

  if (postgres) {
    await sql`alter table orders drop constraint if exists orders_shipping_method_check`.execute(db);
    await sql`alter table checkout_progress drop constraint if exists checkout_progress_shipping_method_check`.execute(
      db,
    );
  } else {
    await dropSqliteCheck(db, "orders", `check (shipping_method in ('standard', 'express'))`);
    await dropSqliteCheck(db, "checkout_progress", `check (shipping_method in ('standard', 'express'))`);
  }
  const orders = () => db.schema.alterTable("orders");
  await orders()
    .addColumn("shipping_method_name", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await orders()
    .addColumn("tax_mode", "text", (c) =>
      c.notNull().defaultTo("exclusive").check(sql`tax_mode in ('exclusive', 'inclusive')`),
    )
    .execute();
  await orders()
    .addColumn("shipping_tax_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  /** what the destination's tax went by ('Including VAT', 'Sales tax') */
  await orders()
    .addColumn("tax_label", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`update orders set shipping_method_name = case shipping_method
      when 'express' then 'Express Shipping' else 'Standard Shipping' end`.execute(db);

  // as charged; null on the lines of orders placed before (their figures are the order's)
  for (const column of ["discount_cents", "net_cents", "tax_cents", "gross_cents", "tax_basis_points"]) {
    await db.schema.alterTable("order_items").addColumn(column, "integer").execute();
  }
  await db.schema.alterTable("order_items").addColumn("tax_rate_id", "text").execute();
  await db.schema.alterTable("order_items").addColumn("tax_label", "text").execute();
  await db.schema
    .createTable("order_tax_lines")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("rate_id", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("basis_points", "integer", (c) => c.notNull())
    .addColumn("net_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_tax_lines_order").on("order_tax_lines").column("order_id").execute();
  // what a refund's line paid back, and the tax in it (null on refunds recorded before)
  await db.schema.alterTable("order_refund_items").addColumn("amount_cents", "integer").execute();
  await db.schema.alterTable("order_refund_items").addColumn("tax_cents", "integer").execute();

  const saved = await savedPricing(db);
  await seedMarkets(db, saved);
  // the orders placed before: their label, and their tax as one line at the shop's one rate
  await sql`update orders set tax_label = ${saved.taxLabel}`.execute(db);
  await sql`insert into order_tax_lines (order_id, rate_id, label, basis_points, net_cents, tax_cents)
    select id, 'before-zones', ${saved.taxLabel}, ${saved.taxRateBasisPoints},
           subtotal_cents - discount_cents, tax_cents
    from orders where tax_cents > 0`.execute(db);
}

interface SavedPricing {
  taxRateBasisPoints: number;
  taxLabel: string;
  standardShippingCents: number;
  freeShippingThresholdCents: number;
  expressShippingCents: number;
  standardDaysMin: number;
  standardDaysMax: number;
  expressDaysMin: number;
  expressDaysMax: number;
}

/** The shop's pricing as it was: its settings when saved, else the spec's constants. */
async function savedPricing(db: Kysely<unknown>): Promise<SavedPricing> {
  const { rows } = await sql<{
    taxRateBasisPoints: number;
    taxLabel: string;
    standardShippingCents: number;
    freeShippingThresholdCents: number;
    expressShippingCents: number;
    standardDaysMin: number;
    standardDaysMax: number;
    expressDaysMin: number;
    expressDaysMax: number;
  }>`select tax_rate_basis_points as "taxRateBasisPoints", tax_label as "taxLabel",
        standard_shipping_cents as "standardShippingCents",
        free_shipping_threshold_cents as "freeShippingThresholdCents",
        express_shipping_cents as "expressShippingCents",
        standard_days_min as "standardDaysMin", standard_days_max as "standardDaysMax",
        express_days_min as "expressDaysMin", express_days_max as "expressDaysMax"
      from shop_settings where id = 1`.execute(db);
  return (
    rows[0] ?? {
      taxRateBasisPoints: 700,
      taxLabel: "Including VAT",
      standardShippingCents: 499,
      freeShippingThresholdCents: 5000,
      expressShippingCents: 999,
      standardDaysMin: 4,
      standardDaysMax: 6,
      expressDaysMin: 1,
      expressDaysMax: 3,
    }
  );
}

/** The shop as it was, as one zone. */
async function seedMarkets(db: Kysely<unknown>, saved: SavedPricing) {
  const at = new Date().toISOString();
  await sql`insert into markets (id, prices_include_tax, tax_rounding, estimate_country, revision, updated_at)
    values (1, 0, 'per-order', 'US', 1, ${at})`.execute(db);
  const zone = await sql<{ id: number }>`insert into zones
      (name, position, countries, regions, tax_label, tax_shipping, created_at, updated_at)
      values ('Where we ship', 0, ${JSON.stringify(OLD_COUNTRIES)}, '{}', ${saved.taxLabel}, 0, ${at}, ${at})
      returning id`.execute(db);
  const zoneId = zone.rows[0]!.id;
  for (const [taxClass, basisPoints] of [
    ["standard", saved.taxRateBasisPoints],
    ["reduced", saved.taxRateBasisPoints],
    ["zero", 0],
    ["exempt", 0],
  ] as const) {
    await sql`insert into zone_tax_rates (zone_id, region, tax_class, basis_points)
      values (${zoneId}, '', ${taxClass}, ${basisPoints})`.execute(db);
  }
  await sql`insert into shipping_methods
      (zone_id, code, name, rule, flat_cents, bands, free_over_cents, days_min, days_max, position)
      values (${zoneId}, 'standard', 'Standard Shipping', 'flat', ${saved.standardShippingCents}, '[]',
              ${saved.freeShippingThresholdCents}, ${saved.standardDaysMin}, ${saved.standardDaysMax}, 0),
             (${zoneId}, 'express', 'Express Shipping', 'flat', ${saved.expressShippingCents}, '[]',
              null, ${saved.expressDaysMin}, ${saved.expressDaysMax}, 1)`.execute(db);
}

/**
 * SQLite cannot drop a CHECK: the table is made again without it (SQLite's documented procedure:
 * foreign keys off, a new table, the rows copied, the old one dropped, the new one renamed into
 * place — its children's foreign keys and other tables' triggers name the table, so they lead to
 * the new one — its indexes and triggers made again, the foreign keys checked, then on again).
 * Only this table's rows move.
 */
async function dropSqliteCheck(db: Kysely<unknown>, table: string, check: string) {
  const { rows } = await sql<{ name: string; type: string; sql: string | null }>`
    select name, type, sql from sqlite_schema where tbl_name = ${table} and sql is not null`.execute(db);
  const definition = rows.find((row) => row.type === "table")?.sql ?? "";
  if (!definition) throw new Error(`${table} is missing`);
  // already without it: migrated up before, and down (which leaves the codes free) since
  if (!definition.includes(check)) return;
  await sql`pragma foreign_keys = off`.execute(db);
  // the rename leaves other tables' triggers naming the table as they are (they name the new one)
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql
        .raw(
          definition.replace(check, "").replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${table}_rebuilt"`),
        )
        .execute(trx);
      await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(trx);
      await sql.raw(`drop table "${table}"`).execute(trx);
      await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(trx);
      for (const extra of rows.filter((row) => row.type === "index" || row.type === "trigger")) {
        await sql.raw(extra.sql!).execute(trx);
      }
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`rebuilding ${table} broke foreign keys`);
    });
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const other = await sql<{ n: number | string }>`select count(*) as n from orders
    where shipping_method not in ('standard', 'express')`.execute(db);
  if (Number(other.rows[0]?.n ?? 0) > 0) {
    throw new Error("orders hold shipping methods the older schema lacks; they cannot go back");
  }
  await sql`update checkout_progress set shipping_method = null
    where shipping_method not in ('standard', 'express')`.execute(db);
  await db.schema.alterTable("order_refund_items").dropColumn("tax_cents").execute();
  await db.schema.alterTable("order_refund_items").dropColumn("amount_cents").execute();
  await db.schema.dropTable("order_tax_lines").execute();
  for (const column of [
    "tax_label",
    "tax_rate_id",
    "tax_basis_points",
    "gross_cents",
    "tax_cents",
    "net_cents",
    "discount_cents",
  ]) {
    await db.schema.alterTable("order_items").dropColumn(column).execute();
  }
  for (const column of ["tax_label", "shipping_tax_cents", "tax_mode", "shipping_method_name"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.alterTable("carts").dropColumn("estimate_region").execute();
  await db.schema.alterTable("carts").dropColumn("estimate_country").execute();
  for (const column of ["tax_id", "legal_address", "legal_name"]) {
    await db.schema.alterTable("shop_settings").dropColumn(column).execute();
  }
  await db.schema.alterTable("product_variants").dropColumn("weight_grams").execute();
  await db.schema.alterTable("products").dropColumn("tax_class").execute();
  await db.schema.dropTable("shipping_methods").execute();
  await db.schema.dropTable("zone_tax_rates").execute();
  await db.schema.dropTable("zones").execute();
  await db.schema.dropTable("markets").execute();
  // the CHECKs on shipping_method are not put back (every remaining row satisfies them)
}
