import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataChangeStamp } from "../../app/db/database.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";

/** What the server's page cache (decision 010) relies on: a stamp that moves with every change. */
describe.each(ENGINES)("dataChangeStamp on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // the stamp's test writes and deletes product rows directly
    await ensureCategory(t.db, "electronics");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  if (engine === "postgres") {
    it("is null: other instances write unseen, so nothing may be cached on it", async () => {
      await insertProduct(t.db, { name: "Seen nowhere", slug: "seen-nowhere" });
      expect(dataChangeStamp(t.db)).toBeNull();
    });
    return;
  }

  it("stays put across reads and moves with each insert, update and delete", async () => {
    const stamps = new Set<string | null>();
    const read = async () => t.db.selectFrom("products").select("id").execute();
    await read();
    const start = dataChangeStamp(t.db);
    await read();
    expect(dataChangeStamp(t.db)).toBe(start);
    stamps.add(start);
    const id = await insertProduct(t.db, { name: "Stamped", slug: "stamped" });
    stamps.add(dataChangeStamp(t.db));
    await t.db.updateTable("products").set({ priceCents: 1234 }).where("id", "=", id).execute();
    stamps.add(dataChangeStamp(t.db));
    await t.db.deleteFrom("products").where("id", "=", id).execute();
    stamps.add(dataChangeStamp(t.db));
    expect(stamps.size).toBe(4);
    expect(stamps.has(null)).toBe(false);
  });
});
