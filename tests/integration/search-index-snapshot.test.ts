import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serialize } from "node:v8";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { buildIndexParts, readCatalogVersion } from "../../app/infra/search-index/build-index.server.ts";
import { CatalogSearchIndex } from "../../app/infra/search-index/catalog-index.ts";
import { readSnapshot, writeSnapshot } from "../../app/infra/search-index/index-snapshot.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchFromIndex,
  searchIndexReady,
  searchIndexStamp,
} from "../../app/infra/search-index/search-index.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";

/**
 * The last index kept on disk for the next start (decision 041): read back it answers as the
 * index it was made from; a file other code wrote, a broken one or none is not read; a restarted
 * shop answers from it while its first build runs, then from the build.
 */
const WORKER = new URL("../../app/infra/search-index/search-index-worker.ts", import.meta.url);
const QUERIES = [
  "search=lamp",
  "search=oak&sort=price-asc",
  "category=home&minPrice=20&sort=rating",
  "category=clothing&size=m",
  "search=navy&colour=navy",
  "search=lmap",
];

describe.each(ENGINES)("search index snapshot on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  const dir = mkdtempSync(join(tmpdir(), "cartwheel-snapshot-"));

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false });
    db = t.db;
    await ensureCategory(db, "home");
    await ensureCategory(db, "clothing");
    for (let i = 0; i < 30; i++) {
      await insertProduct(db, {
        categoryId: "home",
        name: `${i % 2 ? "Oak" : "Brass"} Lamp ${i}`,
        description: "A lamp for reading",
        priceCents: 1000 + i * 250,
        rating: (i % 5) + 0.5,
      });
    }
    for (let i = 0; i < 6; i++) {
      await insertProductWithVariants(db, {
        categoryId: "clothing",
        name: `Navy Tee ${i}`,
        options: [
          { name: "Size", values: ["S", "M"] },
          { name: "Colour", values: ["Navy", "Grey"] },
        ],
        variants: [
          { values: ["S", "Navy"], sku: `SNAP-${engine}-${i}-1`, priceCents: 1500, stock: 2 },
          { values: ["M", "Grey"], sku: `SNAP-${engine}-${i}-2`, priceCents: 1700 + i, stock: i % 2 },
        ],
      });
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("answers as the index it was written from; other code's, broken and missing files are not read", async () => {
    const parts = (await buildIndexParts(db, () => false, Number.POSITIVE_INFINITY))!;
    const original = new CatalogSearchIndex(structuredClone(parts));
    const path = join(dir, `${engine}-round-trip.v8`);
    writeSnapshot(path, parts);
    const read = readSnapshot(path);
    expect(read).not.toBeNull();
    const restored = new CatalogSearchIndex(read!);
    expect(restored.version).toBe(original.version);
    expect(restored.size).toBe(36);
    for (const qs of QUERIES) {
      const query = parseListingQuery(new URLSearchParams(qs));
      // a misspelt word as the listing asks it: with the words it is corrected to
      const asked = qs.includes("lmap")
        ? { ...query, corrections: { lmap: original.corrections("lmap") } }
        : query;
      const answer = restored.search(asked);
      expect(answer, qs).toEqual(original.search(asked));
      expect(answer.total, qs).toBeGreaterThan(0);
    }

    const other = join(dir, `${engine}-other.v8`);
    writeFileSync(other, serialize({ format: "an index of other code", parts }));
    expect(readSnapshot(other)).toBeNull();
    const broken = join(dir, `${engine}-broken.v8`);
    writeFileSync(broken, Buffer.from("not a snapshot"));
    expect(readSnapshot(broken)).toBeNull();
    expect(readSnapshot(join(dir, "none.v8"))).toBeNull();
  });

  it("a restarted shop answers from the snapshot until its first build, then from the build", async () => {
    const path = join(dir, `${engine}-restart.v8`);
    const worker = { url: WORKER, databaseUrl: t.url, snapshotPath: path };
    // the first run: its first build is written (the catalogue counts as large here)
    const first = createDatabase(t.url);
    attachSearchIndex(first, worker, { staleFromProducts: 1 });
    expect(await searchIndexReady(first)).not.toBeNull();
    await detachSearchIndex(first);
    await first.destroy();
    expect(existsSync(path)).toBe(true);

    // changed while the shop was down
    await db
      .updateTable("products")
      .set({ name: "Copper Kettle" })
      .where("name", "=", "Oak Lamp 1")
      .execute();
    const kettle = parseListingQuery(new URLSearchParams({ search: "kettle" }));
    const oakLamps = parseListingQuery(new URLSearchParams({ search: "oak lamp" }));

    const second = createDatabase(t.url);
    // on PostgreSQL the build is held back (it cannot read the products) to see the snapshot answer
    const held = engine === "postgres" ? holdProducts(t.url) : null;
    await held?.locked;
    try {
      attachSearchIndex(second, worker, { staleFromProducts: 1 });
      if (held) {
        await until(() => searchIndexStamp(second) === "i1");
        // the snapshot's catalogue: the lamp not yet renamed
        expect((await searchFromIndex(second, oakLamps))?.total).toBe(15);
        expect((await searchFromIndex(second, kettle))?.total).toBe(0);
        held.release();
      }
      const fresh = await searchIndexReady(second);
      expect(fresh).not.toBeNull();
      expect(searchIndexStamp(second)).toBe("i2"); // loaded, then built
      expect((await searchFromIndex(second, kettle))?.total).toBe(1);
      expect((await searchFromIndex(second, oakLamps))?.total).toBe(14);
    } finally {
      held?.release();
      await held?.done;
      await detachSearchIndex(second);
      await second.destroy();
    }
  });

  it("a snapshot is never fresh, whatever its version says, and the first build replaces it — after a restore to an earlier version too", async () => {
    const path = join(dir, `${engine}-restore.v8`);
    const worker = { url: WORKER, databaseUrl: t.url, snapshotPath: path };
    const first = createDatabase(t.url);
    attachSearchIndex(first, worker, { staleFromProducts: 1 });
    const written = await searchIndexReady(first);
    await detachSearchIndex(first);
    await first.destroy();
    const brass = parseListingQuery(new URLSearchParams({ search: "brass" }));

    if (engine === "postgres") {
      // the same version as the database, the build held back: in a catalogue counted small, the
      // snapshot does not answer (SQL does) — it is not taken for a fresh index
      const small = createDatabase(t.url);
      const held = holdProducts(t.url);
      await held.locked;
      try {
        attachSearchIndex(small, worker, { staleFromProducts: 1_000 });
        await until(() => searchIndexStamp(small) === "i1");
        expect(await readCatalogVersion(small)).toBe(written!.version);
        expect(await searchFromIndex(small, brass)).toBeNull();
      } finally {
        held.release();
        await held.done;
        await detachSearchIndex(small);
        await small.destroy();
      }
    }

    // a restore: the catalogue as it was at a version below the snapshot's
    await db
      .updateTable("products")
      .set({ name: "Pewter Lamp 0" })
      .where("name", "=", "Brass Lamp 0")
      .execute();
    await db
      .updateTable("catalogVersion")
      .set({ version: written!.version - 1 })
      .execute();
    const restored = createDatabase(t.url);
    try {
      attachSearchIndex(restored, worker, { staleFromProducts: 1 });
      const fresh = await searchIndexReady(restored, 20_000);
      expect(fresh?.version).toBe(written!.version - 1);
      expect(searchIndexStamp(restored)).toBe("i2"); // loaded, then built
      expect((await searchFromIndex(restored, brass))?.total).toBe(14);
      expect(
        (await searchFromIndex(restored, parseListingQuery(new URLSearchParams({ search: "pewter" }))))
          ?.total,
      ).toBe(1);
    } finally {
      await detachSearchIndex(restored);
      await restored.destroy();
    }
  });
});

/** A transaction holding an exclusive lock on `products` (PostgreSQL) until released. */
function holdProducts(url: string) {
  const holder = createDatabase(url);
  const released = Promise.withResolvers<void>();
  const locked = Promise.withResolvers<void>();
  const done = holder
    .transaction()
    .execute(async (trx) => {
      await sql`lock table products in access exclusive mode`.execute(trx);
      locked.resolve();
      await released.promise;
    })
    .finally(() => holder.destroy());
  return { locked: locked.promise, release: () => released.resolve(), done };
}

async function until(condition: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
