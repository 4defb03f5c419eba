import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import * as facetsMigration from "../../app/db/migrations/2026-11-22T0310-catalog-facets.ts";
import * as rollupsMigration from "../../app/db/migrations/2026-11-23T0800-catalog-rollups.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";

/** A small seeded PRNG (mulberry32), so a failing sequence can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const TREE: Record<string, Array<string | null>> = {
  electronics: ["smartphones", "laptops", "audio", null],
  home: ["kitchen", "furniture", null],
  beauty: ["skincare", null],
  toys: [null],
};
// several spellings of the same brand, and brands with non-ASCII capitals
const BRANDS = [
  "Kestrel",
  "KESTREL",
  "kestrel",
  "Lumen",
  "LUMEN",
  "Aurora",
  "Élan",
  "élan",
  "Nordhaus",
  "Öko",
];

interface FacetRow {
  categoryId: string;
  subcategoryId: string;
  brandKey: string;
  /** display name: the least of the row's live spellings (as the migration's backfill takes it) */
  brandName: string;
  productCount: number;
}

const sortRows = <T extends FacetRow>(rows: T[]) =>
  rows
    .map((r) => ({ ...r, productCount: Number(r.productCount) }))
    .sort((a, b) =>
      `${a.categoryId}|${a.subcategoryId}|${a.brandKey}` < `${b.categoryId}|${b.subcategoryId}|${b.brandKey}`
        ? -1
        : 1,
    );

/** The facet table's live rows (count > 0). */
async function facetTable(db: Database) {
  const rows = await db
    .selectFrom("catalogFacets")
    .select(["categoryId", "subcategoryId", "brandKey", "productCount", "brandName"])
    .where("productCount", ">", 0)
    .execute();
  return sortRows(rows);
}

/** Ground truth: a GROUP BY over live products, with the same expressions as the migration's backfill. */
async function groundTruth(db: Database) {
  const { rows } = await sql<FacetRow>`
    select category_id as "categoryId", coalesce(subcategory_id, '') as "subcategoryId",
           lower(brand) as "brandKey", min(brand) as "brandName", count(*) as "productCount"
    from products where archived_at is null
    group by category_id, coalesce(subcategory_id, ''), lower(brand)`.execute(db);
  return sortRows(rows);
}

async function expectInSync(db: Database, step: string) {
  const [table, truth] = await Promise.all([facetTable(db), groundTruth(db)]);
  // counts first (the clearer message), then the display names
  const counts = (rows: FacetRow[]) => rows.map(({ brandName: _, ...row }) => row);
  expect(counts(table), `catalog_facets counts after ${step}`).toEqual(counts(truth));
  expect(table, `catalog_facets display names after ${step}`).toEqual(truth);
  // never a negative count: every row not above is an emptied one
  const { n } = await db
    .selectFrom("catalogFacets")
    .select(sql<number>`count(*)`.as("n"))
    .where("productCount", "<", 0)
    .executeTakeFirstOrThrow();
  expect(Number(n), `negative counts after ${step}`).toBe(0);
  await expectRollupsInSync(db, step);
}

/** catalog_brands and catalog_category_totals (migration 0800) against a GROUP BY over live products. */
async function expectRollupsInSync(db: Database, step: string) {
  const brands = await db
    .selectFrom("catalogBrands")
    .select(["brandKey", "brandName", "productCount"])
    .where("productCount", ">", 0)
    .orderBy("brandKey")
    .execute();
  const { rows: brandTruth } = await sql<{ brandKey: string; brandName: string; productCount: number }>`
    select lower(brand) as "brandKey", min(brand) as "brandName", count(*) as "productCount"
    from products where archived_at is null group by lower(brand) order by lower(brand)`.execute(db);
  const normalise = <T extends { productCount: number }>(rows: T[]) =>
    rows.map((r) => ({ ...r, productCount: Number(r.productCount) }));
  expect(normalise(brands), `catalog_brands after ${step}`).toEqual(normalise(brandTruth));

  const categories = await db
    .selectFrom("catalogCategoryTotals")
    .select(["categoryId", "productCount"])
    .where("productCount", ">", 0)
    .orderBy("categoryId")
    .execute();
  const { rows: categoryTruth } = await sql<{ categoryId: string; productCount: number }>`
    select category_id as "categoryId", count(*) as "productCount"
    from products where archived_at is null group by category_id order by category_id`.execute(db);
  expect(normalise(categories), `catalog_category_totals after ${step}`).toEqual(normalise(categoryTruth));

  for (const table of ["catalog_brands", "catalog_category_totals"]) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(table)} where product_count < 0`.execute(db);
    expect(Number(rows[0]!.n), `negative counts in ${table} after ${step}`).toBe(0);
  }
}

describe.each(ENGINES)("catalog_facets triggers on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // the triggers' tests write and delete product rows directly
    db = t.db;
    for (const [category, subs] of Object.entries(TREE)) {
      await ensureCategory(db, category);
      for (const sub of subs) if (sub) await ensureCategory(db, sub, category);
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("starts empty and counts an insert, an archived insert and a delete", async () => {
    await expectInSync(db, "migration");
    expect(await facetTable(db)).toEqual([]);
    const a = await insertProduct(db, { categoryId: "home", subcategoryId: "kitchen", brand: "Nordhaus" });
    await insertProduct(db, {
      categoryId: "home",
      subcategoryId: "kitchen",
      brand: "NORDHAUS",
      archivedAt: "2026-01-01T00:00:00.000Z",
    });
    await insertProduct(db, { categoryId: "home", subcategoryId: null, brand: "nordhaus" });
    await expectInSync(db, "three inserts");
    expect(
      (await facetTable(db)).map((r) => [r.subcategoryId, r.brandKey, r.brandName, r.productCount]),
    ).toEqual([
      ["kitchen", "nordhaus", "Nordhaus", 1],
      ["", "nordhaus", "nordhaus", 1],
    ]);
    await db.deleteFrom("products").where("id", "=", a).execute();
    await expectInSync(db, "delete");
    await db.deleteFrom("products").execute();
    await expectInSync(db, "delete all");
    expect(await facetTable(db)).toEqual([]);
  });

  it("stays equal to a GROUP BY over live products through 200 random operations", async () => {
    const random = prng(engine === "sqlite" ? 20261122 : 11222026);
    const ids: number[] = [];
    const place = () => {
      const category = random.pick(Object.keys(TREE));
      return { categoryId: category, subcategoryId: random.pick(TREE[category]!) };
    };
    const anyId = () => random.pick(ids);
    const stamp = () => new Date(Date.UTC(2026, 0, 1 + random.int(300))).toISOString();

    // a few to start with
    for (let i = 0; i < 10; i++) {
      ids.push(await insertProduct(db, { ...place(), brand: random.pick(BRANDS) }));
    }
    await expectInSync(db, "the first inserts");

    const operations: Array<[string, () => Promise<unknown>]> = [
      [
        "insert",
        async () => {
          ids.push(
            await insertProduct(db, {
              ...place(),
              brand: random.pick(BRANDS),
              archivedAt: random.next() < 0.2 ? stamp() : null,
            }),
          );
        },
      ],
      [
        "update brand",
        () =>
          db
            .updateTable("products")
            .set({ brand: random.pick(BRANDS) })
            .where("id", "=", anyId())
            .execute(),
      ],
      [
        "update brand to the same value",
        async () => {
          const id = anyId();
          const { brand } = await db
            .selectFrom("products")
            .select("brand")
            .where("id", "=", id)
            .executeTakeFirstOrThrow();
          await db.updateTable("products").set({ brand }).where("id", "=", id).execute();
        },
      ],
      ["move category", () => db.updateTable("products").set(place()).where("id", "=", anyId()).execute()],
      [
        "change subcategory only",
        async () => {
          const id = anyId();
          const { categoryId } = await db
            .selectFrom("products")
            .select("categoryId")
            .where("id", "=", id)
            .executeTakeFirstOrThrow();
          await db
            .updateTable("products")
            .set({ subcategoryId: random.pick(TREE[categoryId]!) })
            .where("id", "=", id)
            .execute();
        },
      ],
      [
        "archive",
        () => db.updateTable("products").set({ archivedAt: stamp() }).where("id", "=", anyId()).execute(),
      ],
      [
        "unarchive",
        () => db.updateTable("products").set({ archivedAt: null }).where("id", "=", anyId()).execute(),
      ],
      [
        "archive and rebrand at once",
        () =>
          db
            .updateTable("products")
            .set({ archivedAt: random.next() < 0.5 ? stamp() : null, brand: random.pick(BRANDS), ...place() })
            .where("id", "=", anyId())
            .execute(),
      ],
      [
        "update price and name (no facet change)",
        () =>
          db
            .updateTable("products")
            .set({ priceCents: random.int(100_000), name: `renamed ${random.int(1000)}` })
            .where("id", "=", anyId())
            .execute(),
      ],
      [
        "delete",
        async () => {
          if (ids.length < 5) return;
          const id = ids.splice(random.int(ids.length), 1)[0]!;
          await db.deleteFrom("products").where("id", "=", id).execute();
        },
      ],
      [
        "rebrand many rows in one statement",
        () =>
          db
            .updateTable("products")
            .set({ brand: random.pick(BRANDS) })
            .where(sql`lower(brand)`, "=", random.pick(["kestrel", "lumen"]))
            .execute(),
      ],
      [
        "archive many rows in one statement",
        () =>
          db
            .updateTable("products")
            .set({ archivedAt: stamp() })
            .where("categoryId", "=", random.pick(Object.keys(TREE)))
            .where(sql`id % 3`, "=", 0)
            .execute(),
      ],
    ];

    for (let step = 1; step <= 200; step++) {
      const [name, run] = random.pick(operations);
      await run();
      await expectInSync(db, `step ${step}: ${name}`);
    }
    // and a clean-up of every archived product at once
    const archived = await db
      .selectFrom("products")
      .select("id")
      .where("archivedAt", "is not", null)
      .execute();
    if (archived.length > 0) await db.deleteFrom("products").where("archivedAt", "is not", null).execute();
    await expectInSync(db, "deleting every archived product");
    expect((await groundTruth(db)).length).toBeGreaterThan(0);
  });

  it("a brand whose spelling is corrected shows the new spelling", async () => {
    await ensureCategory(db, "toys");
    const id = await insertProduct(db, { categoryId: "toys", subcategoryId: null, brand: "PLAYWELL" });
    await db.updateTable("products").set({ brand: "Playwell" }).where("id", "=", id).execute();
    await expectInSync(db, "correcting PLAYWELL to Playwell");
    const row = (await facetTable(db)).find((r) => r.brandKey === "playwell");
    expect(row?.brandName).toBe("Playwell");
  });

  it("the migration's backfill of an existing catalogue gives the same table", async () => {
    const before = await facetTable(db);
    expect(before.length).toBeGreaterThan(0);
    await rollupsMigration.down(db as never);
    await facetsMigration.down(db as never);
    await facetsMigration.up(db as never);
    await rollupsMigration.up(db as never);
    expect(await facetTable(db)).toEqual(before);
    await expectInSync(db, "down and up again");
    // and the triggers work after it
    await insertProduct(db, { categoryId: "beauty", subcategoryId: "skincare", brand: "Öko" });
    await expectInSync(db, "an insert after the backfill");
  });
});
