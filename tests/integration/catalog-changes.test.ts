import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { readCatalogVersion } from "../../app/infra/search-index/build-index.server.ts";
import { changesSince, pruneCatalogChanges } from "../../app/infra/search-index/catalog-changes.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";

/**
 * The catalogue's change log (migration 2230), which the search index patches itself from
 * (decision 041): every product write that bumps `catalog_version` logs the product with the
 * version the bump gives, in the same transaction — also when writers run at once on PostgreSQL —
 * and the hourly prune keeps the newest rows, saying from which version the log is whole.
 */
describe.each(ENGINES)("catalogue change log on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false });
    db = t.db;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const logSince = (version: number) =>
    db
      .selectFrom("catalogChanges")
      .select(["version", "productId"])
      .where("version", ">", version)
      .orderBy("version")
      .orderBy("productId")
      .execute()
      .then((rows) => rows.map((r) => ({ version: Number(r.version), productId: Number(r.productId) })));

  it("logs each listed write with the version its bump gave, and nothing for the rest", async () => {
    const start = await readCatalogVersion(db);
    const a = await insertProduct(db, { name: "Log A" });
    const afterInsert = await readCatalogVersion(db);
    expect(await logSince(start)).toContainEqual({ version: afterInsert, productId: a });
    expect((await logSince(start)).every((row) => row.productId === a && row.version <= afterInsert)).toBe(
      true,
    );

    // a review moves the rating: logged; stock alone is not listed: neither bumped nor logged
    await db.updateTable("products").set({ rating: 4.5, reviewCount: 2 }).where("id", "=", a).execute();
    const afterReview = await readCatalogVersion(db);
    expect(afterReview).toBeGreaterThan(afterInsert);
    expect(await logSince(afterInsert)).toEqual([{ version: afterReview, productId: a }]);
    await db.updateTable("products").set({ stock: 9 }).where("id", "=", a).execute();
    expect(await readCatalogVersion(db)).toBe(afterReview);
    expect(await logSince(afterReview)).toEqual([]);

    // one statement over two products: both logged with versions the catalogue reached
    const b = await insertProduct(db, { name: "Log B" });
    const beforeBulk = await readCatalogVersion(db);
    await db.updateTable("products").set({ featured: 1 }).where("id", "in", [a, b]).execute();
    const afterBulk = await readCatalogVersion(db);
    const bulk = await logSince(beforeBulk);
    expect(bulk.map((row) => row.productId).sort()).toEqual([a, b].sort());
    expect(bulk.every((row) => row.version > beforeBulk && row.version <= afterBulk)).toBe(true);

    // a delete is logged (the index drops the product)
    await db.deleteFrom("products").where("id", "=", b).execute();
    const afterDelete = await readCatalogVersion(db);
    expect(await logSince(afterBulk)).toEqual([{ version: afterDelete, productId: b }]);

    // what the index patches with: every product written since a version, once each, ascending
    expect(await changesSince(db, afterInsert, 10)).toEqual({
      version: afterDelete,
      changed: [a, b].sort((x, y) => x - y),
    });
    expect(await changesSince(db, afterDelete, 10)).toEqual({ version: afterDelete, changed: [] });
    expect(await changesSince(db, afterInsert, 1)).toBe("too-many");
  });

  it("keeps the newest rows when pruned, and says an older build cannot be patched", async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await insertProduct(db, { name: `Pruned ${i}` }));
    const before = await readCatalogVersion(db);
    for (const id of ids) {
      await db.updateTable("products").set({ rating: 3 }).where("id", "=", id).execute();
    }
    const after = await readCatalogVersion(db);
    const logged = Number(
      (
        await db
          .selectFrom("catalogChanges")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // deleted two versions at a time: every older row goes, however many batches it takes
    expect(await pruneCatalogChanges(db, 3, 2)).toBe(logged - 3);
    const kept = await db.selectFrom("catalogChanges").select("version").execute();
    expect(kept).toHaveLength(3);
    const { changesFrom } = await db
      .selectFrom("catalogVersion")
      .select("changesFrom")
      .executeTakeFirstOrThrow();
    expect(Number(changesFrom)).toBeGreaterThan(before);
    // the log is whole only above changes_from
    expect(await changesSince(db, before, 100)).toBe("pruned");
    expect(await changesSince(db, Number(changesFrom), 100)).toEqual({
      version: after,
      changed: ids.slice(-3),
    });
    // nothing more to prune
    expect(await pruneCatalogChanges(db, 3)).toBe(0);
  });

  it.runIf(engine === "postgres")(
    "gives writers running at once the versions in the order they commit, on PostgreSQL",
    async () => {
      const a = await insertProduct(db, { name: "Race A" });
      const b = await insertProduct(db, { name: "Race B" });
      const other = createDatabase(t.url);
      try {
        const start = await readCatalogVersion(db);
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let firstWrote!: () => void;
        const wrote = new Promise<void>((resolve) => {
          firstWrote = resolve;
        });
        // the first writer changes A and waits before committing; the second changes B meanwhile
        const first = db.transaction().execute(async (trx) => {
          await trx.updateTable("products").set({ rating: 1 }).where("id", "=", a).execute();
          firstWrote();
          await held;
        });
        await wrote;
        const second = other.transaction().execute(async (trx) => {
          await trx.updateTable("products").set({ rating: 2 }).where("id", "=", b).execute();
        });
        // the second waits for the first's lock on catalog_version: nothing of it is visible yet
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await logSince(start)).toEqual([]);
        release();
        await Promise.all([first, second]);
        expect(await logSince(start)).toEqual([
          { version: start + 1, productId: a },
          { version: start + 2, productId: b },
        ]);
        expect(await readCatalogVersion(db)).toBe(start + 2);
        // an index built when only the first had committed is patched with the second
        expect(await changesSince(db, start + 1, 10)).toEqual({ version: start + 2, changed: [b] });
      } finally {
        await other.destroy();
      }
    },
  );
});
