import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { type Migration, Migrator, NO_MIGRATIONS } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";

const MIGRATIONS_DIR = join(import.meta.dirname, "../../app/db/migrations");
/** Every migration file on disk, by name: migrate.server.ts must register all of them. */
const MIGRATION_NAMES = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();

async function loadMigrations(): Promise<Record<string, Migration>> {
  const entries = await Promise.all(
    MIGRATION_NAMES.map(async (name) => [
      name,
      (await import(pathToFileURL(join(MIGRATIONS_DIR, `${name}.ts`)).href)) as Migration,
    ]),
  );
  return Object.fromEntries(entries);
}

describe.each(ENGINES)("migrations on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    // the schema's own tests write rows past the domain (raw deletes, CHECK probes): no ledger check
    t = await createTestDatabase(engine, { checkStockLedger: false });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("applies every migration file, in order, and nothing a second time", async () => {
    expect(MIGRATION_NAMES).toContain("2026-11-22T0200-catalog");
    const applied = await sql<{
      name: string;
    }>`select name from kysely_migration order by timestamp, name`.execute(t.db);
    expect(applied.rows.map((r) => r.name)).toEqual(MIGRATION_NAMES);
    expect(await migrateToLatest(t.db)).toEqual([]);
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it("migrates all the way down cleanly and up again", async () => {
    const migrations = await loadMigrations();
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.status)).toEqual(MIGRATION_NAMES.map(() => "Success"));
    await expect(sql`select count(*) from products`.execute(t.db)).rejects.toThrow();
    expect(await migrateToLatest(t.db)).toEqual(MIGRATION_NAMES);
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it("rejects negative stock and prices (CHECK constraints), on insert and on update", async () => {
    // the inventory refuses a negative level before the database would
    await expect(insertProduct(t.db, { stock: -1 })).rejects.toThrow(/stock level/);
    const probe = await insertProduct(t.db, { stock: 0 });
    await expect(
      sql`insert into product_variants (product_id, sku, price_cents, stock, position)
          values (${probe}, 'NEGATIVE-1', 100, -1, 1)`.execute(t.db),
    ).rejects.toThrow(/check/i);
    await expect(insertProduct(t.db, { priceCents: -1 })).rejects.toThrow(/check/i);
    await expect(insertProduct(t.db, { originalPriceCents: -5 })).rejects.toThrow(/check/i);
    await expect(insertProduct(t.db, { discountPercentage: 0 })).rejects.toThrow(/check/i);
    await expect(insertProduct(t.db, { discountPercentage: 100 })).rejects.toThrow(/check/i);
    await expect(insertProduct(t.db, { rating: 5.5 })).rejects.toThrow(/check/i);

    const id = await insertProduct(t.db, { stock: 0, priceCents: 0 });
    await expect(
      t.db.updateTable("products").set({ stock: -1 }).where("id", "=", id).execute(),
    ).rejects.toThrow(/check/i);
    // the guarded decrement the order transaction relies on: stock never goes below zero
    const decrement = await t.db
      .updateTable("products")
      .set((eb) => ({ stock: eb("stock", "-", 1) }))
      .where("id", "=", id)
      .where("stock", ">=", 1)
      .executeTakeFirst();
    expect(decrement.numUpdatedRows).toBe(0n);
  });

  it("keeps slugs unique", async () => {
    await insertProduct(t.db, { slug: "same-slug" });
    await expect(insertProduct(t.db, { slug: "same-slug" })).rejects.toThrow(/unique|duplicate/i);
  });

  it("enforces the category foreign key", async () => {
    await expect(insertProduct(t.db, { categoryId: "no-such-category" })).rejects.toThrow(/foreign key/i);
  });

  it("keeps one newsletter row per e-mail", async () => {
    const row = { email: "one@example.com", createdAt: new Date().toISOString() };
    await t.db.insertInto("newsletterSubscribers").values(row).execute();
    await expect(t.db.insertInto("newsletterSubscribers").values(row).execute()).rejects.toThrow(
      /unique|duplicate/i,
    );
  });

  it("deletes a product's images with it (ON DELETE CASCADE)", async () => {
    const id = await insertProduct(t.db);
    await t.db
      .insertInto("productImages")
      .values({ productId: id, position: 0, key: "k", alt: "a", width: 1, height: 1, widths: "[]" })
      .execute();
    await t.db.deleteFrom("products").where("id", "=", id).execute();
    const left = await t.db.selectFrom("productImages").select("id").where("productId", "=", id).execute();
    expect(left).toEqual([]);
  });

  if (engine === "sqlite") {
    describe("products_fts (FTS5 trigram, kept in step by triggers)", () => {
      const search = async (term: string) =>
        (
          await sql<{
            rowid: number;
          }>`select rowid from products_fts where products_fts match ${`"${term}"`}`.execute(t.db)
        ).rows.map((r) => Number(r.rowid));

      it("finds a product by a substring of each searchable column, case-insensitively", async () => {
        await ensureCategory(t.db, "zebracat");
        await ensureCategory(t.db, "okapisub", "zebracat");
        const id = await insertProduct(t.db, {
          name: "Quixotic Widget",
          description: "Made of flurbium alloy.",
          brand: "Gorblax",
          categoryId: "zebracat",
          subcategoryId: "okapisub",
        });
        for (const term of ["xotic", "QUIXOTIC WID", "flurbium", "orbla", "zebracat", "okapi"]) {
          expect(await search(term), term).toEqual([id]);
        }
        expect(await search("nothing-like-this")).toEqual([]);
      });

      it("follows updates and deletes", async () => {
        const id = await insertProduct(t.db, { name: "Plumbago Lamp", description: "Warm light." });
        expect(await search("plumbago")).toEqual([id]);

        await t.db.updateTable("products").set({ name: "Verbena Lamp" }).where("id", "=", id).execute();
        expect(await search("plumbago")).toEqual([]);
        expect(await search("verbena")).toEqual([id]);

        await t.db
          .updateTable("products")
          .set({ description: "Cool moonstone light." })
          .where("id", "=", id)
          .execute();
        expect(await search("moonstone")).toEqual([id]);
        expect(await search("warm light")).toEqual([]);

        // a change to other columns keeps the entry intact
        await t.db.updateTable("products").set({ stock: 9 }).where("id", "=", id).execute();
        expect(await search("verbena")).toEqual([id]);

        await t.db.deleteFrom("products").where("id", "=", id).execute();
        expect(await search("verbena")).toEqual([]);
        expect(await search("moonstone")).toEqual([]);
        // FTS5's integrity check against the content table throws on any mismatch …
        const integrity = sql`insert into products_fts(products_fts, rank) values ('integrity-check', 1)`;
        await integrity.execute(t.db);
        // … as it does once an entry without its product is slipped in behind the triggers' back
        await sql`insert into products_fts(rowid, name) values (987654, 'stray')`.execute(t.db);
        await expect(integrity.execute(t.db)).rejects.toThrow();
      });
    });
  } else {
    describe("pg_trgm search index", () => {
      it("has the pg_trgm extension and the products_search_trgm GIN index", async () => {
        const ext = await sql<{
          extname: string;
        }>`select extname from pg_extension where extname = 'pg_trgm'`.execute(t.db);
        expect(ext.rows).toHaveLength(1);
        const index = await sql<{ indexdef: string }>`
          select indexdef from pg_indexes where tablename = 'products' and indexname = 'products_search_trgm'`.execute(
          t.db,
        );
        expect(index.rows).toHaveLength(1);
        expect(index.rows[0]!.indexdef).toMatch(/using gin/i);
        expect(index.rows[0]!.indexdef).toMatch(/gin_trgm_ops/);
        for (const column of ["name", "brand", "category_id", "subcategory_id", "description"]) {
          expect(index.rows[0]!.indexdef).toContain(column);
        }
      });

      it("serves a substring query over the indexed expression", async () => {
        const id = await insertProduct(t.db, { name: "Quixotic Widget", brand: "Gorblax" });
        const expression = sql`lower(name || ' ' || brand || ' ' || category_id || ' ' || coalesce(subcategory_id, '') || ' ' || description || ' ' || option_text)`;
        const found = await t.db
          .selectFrom("products")
          .select("id")
          .where(expression, "like", "%orblax%")
          .execute();
        expect(found.map((r) => r.id)).toEqual([id]);
        const plan = await t.db.connection().execute(async (conn) => {
          await sql`set enable_seqscan = off`.execute(conn);
          const rows = await sql<{
            "QUERY PLAN": string;
          }>`explain select id from products where ${expression} like '%orblax%'`.execute(conn);
          await sql`reset enable_seqscan`.execute(conn);
          return rows.rows.map((r) => Object.values(r)[0]).join("\n");
        });
        expect(plan).toContain("products_search_trgm");
      });
    });
  }
});
