import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getHomeSections, HOME_SECTION_SIZE } from "../../app/domain/catalog/home-sections.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertImage, insertProduct } from "../helpers/catalog.ts";

const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + n)).toISOString();

describe.each(ENGINES)("getHomeSections on %s", (engine) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    const add = async (name: string, created: number, flags: Parameters<typeof insertProduct>[1] = {}) => {
      ids[name] = await insertProduct(t.db, {
        name,
        createdAt: day(created),
        updatedAt: day(created),
        ...flags,
      });
      return ids[name]!;
    };
    // six featured products, f1 oldest … f6 newest; f7 is the newest but archived
    for (let i = 1; i <= 6; i++) await add(`f${i}`, i, { featured: 1 });
    await add("f7", 30, { featured: 1, archivedAt: day(31) });
    // unflagged products newer than all of them must never show
    await add("plain", 40);
    // new arrivals: only two, one of them also a best seller
    await add("n1", 10, { newArrival: 1 });
    await add("nb", 11, { newArrival: 1, bestSeller: 1, discountPercentage: 20, originalPriceCents: 1250 });
    // best sellers: two created on the same day (tie broken by id, newest id first)
    await add("b1", 5, { bestSeller: 1 });
    await add("b2", 5, { bestSeller: 1 });

    // images: inserted out of order, so "first" must mean position 0, not insertion order
    for (const name of ["f6", "f5", "f4", "f3", "nb", "n1", "b1"]) {
      await insertImage(t.db, ids[name]!, 2);
      await insertImage(t.db, ids[name]!, 0);
      await insertImage(t.db, ids[name]!, 1);
    }
    // b2 has no image at all
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("returns at most 4 flagged, live products per section, newest first", async () => {
    const { featured, newArrivals, bestSellers } = await getHomeSections(t.db);
    expect(HOME_SECTION_SIZE).toBe(4);
    expect(featured.map((p) => p.name)).toEqual(["f6", "f5", "f4", "f3"]);
    expect(newArrivals.map((p) => p.name)).toEqual(["nb", "n1"]);
    expect(bestSellers.map((p) => p.name)).toEqual(["nb", "b2", "b1"]);
  });

  it("leaves out archived products", async () => {
    await t.db
      .updateTable("products")
      .set({ archivedAt: day(50) })
      .where("id", "=", ids.f5!)
      .execute();
    try {
      const { featured } = await getHomeSections(t.db);
      expect(featured.map((p) => p.name)).toEqual(["f6", "f4", "f3", "f2"]);
      expect(featured.map((p) => p.name)).not.toContain("f7");
    } finally {
      await t.db.updateTable("products").set({ archivedAt: null }).where("id", "=", ids.f5!).execute();
    }
  });

  it("attaches each product's first image (position 0), or null when it has none", async () => {
    const { featured, bestSellers } = await getHomeSections(t.db);
    expect(featured[0]!.image).toEqual({
      key: `products/p${ids.f6}-0`,
      alt: `image 0 of ${ids.f6}`,
      width: 960,
      height: 960,
      widths: [320, 640, 960],
    });
    for (const card of featured) expect(card.image?.key).toBe(`products/p${card.id}-0`);
    expect(bestSellers.find((p) => p.name === "b2")!.image).toBeNull();
  });

  it("maps flags and prices to card fields", async () => {
    const { newArrivals } = await getHomeSections(t.db);
    const nb = newArrivals[0]!;
    expect(nb).toMatchObject({
      id: ids.nb,
      name: "nb",
      brand: "Testbrand",
      priceCents: 1000,
      originalPriceCents: 1250,
      discountPercentage: 20,
      rating: 4,
      reviewCount: 1,
      stock: 5,
      newArrival: true,
      bestSeller: true,
    });
    expect(newArrivals[1]).toMatchObject({
      name: "n1",
      newArrival: true,
      bestSeller: false,
      discountPercentage: null,
    });
  });

  it("returns empty sections for an empty catalogue", async () => {
    const empty = await createTestDatabase(engine);
    try {
      expect(await getHomeSections(empty.db)).toEqual({ featured: [], newArrivals: [], bestSellers: [] });
    } finally {
      await empty.destroy();
    }
  });
});
