import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addToWishlist,
  countWishlist,
  isInWishlist,
  listWishlist,
  listWishlistProductIds,
  removeFromWishlist,
  toggleWishlistItem,
} from "../../app/domain/wishlist/wishlist.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertImage, insertProduct } from "../helpers/catalog.ts";

describe.each(ENGINES)("wishlist on %s", (engine) => {
  let t: TestDatabase;
  let ada: string;
  let bob: string;
  let lamp: number;
  let mug: number;
  let chair: number;
  let archived: number;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    ada = await insertUser(t.db, "ada@example.com");
    bob = await insertUser(t.db, "bob@example.com");
    lamp = await insertProduct(t.db, { name: "Desk Lamp", stock: 3 });
    mug = await insertProduct(t.db, { name: "Mug", priceCents: 800 });
    chair = await insertProduct(t.db, { name: "Chair", stock: 0 });
    archived = await insertProduct(t.db, { name: "Old Thing", archivedAt: "2026-01-02T00:00:00.000Z" });
    await insertImage(t.db, lamp, 0);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("adds products once per user, newest first, with what a card shows", async () => {
    expect(await addToWishlist(t.db, ada, lamp, new Date("2026-11-01T10:00:00Z"))).toEqual({
      ok: true,
      value: { change: "added", product: { id: lamp, slug: expect.any(String), name: "Desk Lamp" } },
    });
    await addToWishlist(t.db, ada, mug, new Date("2026-11-02T10:00:00Z"));
    // saving it again keeps one row (and its first date)
    expect(await addToWishlist(t.db, ada, lamp, new Date("2026-11-03T10:00:00Z"))).toMatchObject({
      ok: true,
      value: { change: "added" },
    });
    const list = await listWishlist(t.db, ada);
    expect(list.map((item) => [item.name, item.addedAt])).toEqual([
      ["Mug", "2026-11-02T10:00:00.000Z"],
      ["Desk Lamp", "2026-11-01T10:00:00.000Z"],
    ]);
    expect(list[1]).toMatchObject({
      id: lamp,
      stock: 3,
      priceCents: 1000,
      image: { key: `products/p${lamp}-0` },
    });
    expect(list[0]?.image).toBeNull();
    expect(await countWishlist(t.db, ada)).toBe(2);
    expect(await listWishlistProductIds(t.db, ada)).toEqual([lamp, mug].sort((a, b) => a - b));
    // Bob's wishlist is his own
    expect(await countWishlist(t.db, bob)).toBe(0);
    expect(await listWishlist(t.db, bob)).toEqual([]);
  });

  it("removes a product; removing it again is harmless", async () => {
    expect(await removeFromWishlist(t.db, ada, mug)).toEqual({
      ok: true,
      value: { change: "removed", product: { id: mug, slug: expect.any(String), name: "Mug" } },
    });
    expect(await removeFromWishlist(t.db, ada, mug)).toMatchObject({
      ok: true,
      value: { change: "removed" },
    });
    expect(await countWishlist(t.db, ada)).toBe(1);
    expect(await isInWishlist(t.db, ada, mug)).toBe(false);
    expect(await isInWishlist(t.db, ada, lamp)).toBe(true);
  });

  it("toggles", async () => {
    expect(await toggleWishlistItem(t.db, bob, chair)).toMatchObject({
      ok: true,
      value: { change: "added" },
    });
    expect(await countWishlist(t.db, bob)).toBe(1);
    expect(await toggleWishlistItem(t.db, bob, chair)).toMatchObject({
      ok: true,
      value: { change: "removed" },
    });
    expect(await countWishlist(t.db, bob)).toBe(0);
  });

  it("refuses unknown and archived products, and hides products archived later", async () => {
    expect(await addToWishlist(t.db, ada, archived)).toEqual({ ok: false, error: { code: "unavailable" } });
    expect(await addToWishlist(t.db, ada, 999_999)).toEqual({ ok: false, error: { code: "unavailable" } });
    expect(await addToWishlist(t.db, ada, -1)).toEqual({ ok: false, error: { code: "unavailable" } });
    expect(await removeFromWishlist(t.db, ada, 999_999)).toEqual({
      ok: false,
      error: { code: "unavailable" },
    });
    expect(await countWishlist(t.db, ada)).toBe(1);

    await addToWishlist(t.db, ada, chair);
    expect(await countWishlist(t.db, ada)).toBe(2);
    await t.db
      .updateTable("products")
      .set({ archivedAt: "2026-11-05T00:00:00.000Z" })
      .where("id", "=", chair)
      .execute();
    expect(await countWishlist(t.db, ada)).toBe(1);
    expect((await listWishlist(t.db, ada)).map((item) => item.name)).toEqual(["Desk Lamp"]);
    expect(await listWishlistProductIds(t.db, ada)).toEqual([lamp]);
    expect(await isInWishlist(t.db, ada, chair)).toBe(false);
    // it can still be taken off the list
    expect(await removeFromWishlist(t.db, ada, chair)).toMatchObject({
      ok: true,
      value: { change: "removed" },
    });
  });

  it("goes with the product when a product is deleted", async () => {
    const gone = await insertProduct(t.db, { name: "Short-lived", stock: 0 });
    await addToWishlist(t.db, bob, gone);
    await t.db.deleteFrom("products").where("id", "=", gone).execute();
    expect(await countWishlist(t.db, bob)).toBe(0);
  });
});
