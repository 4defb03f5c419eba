import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { createRandom } from "../../app/db/seed/synthetic-catalog.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { getProductDetail } from "../../app/domain/catalog/product-detail.server.ts";
import { cataloguePromotions, nextCatalogueBoundary } from "../../app/domain/promotions/promotions.server.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchFromIndex,
  searchIndexReady,
} from "../../app/infra/search-index/search-index.server.ts";
import { parseListingQuery, SORT_OPTIONS } from "../../app/lib/listing-query.ts";
import { liveAt, salePrice } from "../../app/lib/promotions/catalogue-sale.ts";
import type { PromotionAction } from "../../app/lib/promotions/engine.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * Catalogue promotions as sale prices (decision 035) through the real database: the listing's
 * price filters, sorts and counts (SQL, and the search index beside it) agree with `salePrice`
 * product by product; cards, the product page and the cart show and charge the same cents; a
 * promotion that starts later changes every answer at its start, nothing else touched.
 */
const STAMP = "2026-11-01T00:00:00.000Z";
const BEFORE = new Date("2026-12-01T12:00:00.000Z");
const START = "2026-12-02T00:00:00.000Z";
const AFTER = new Date("2026-12-02T00:00:00.000Z"); // the start itself: live from then
const PRICES = [1, 4, 5, 99, 999, 1_000, 4_999, 10_000, 10_001, 25_050, 49_999, 150_000];
const BRANDS = ["Acme", "Zenith", "Orbit"];
const CATEGORIES = ["clothing", "toys", "home"];

describe.each(ENGINES)("catalogue promotions as sale prices, on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  /** the same database without a search index: SQL's answers */
  let sqlDb: Database;
  let halfOff: number;
  const products: { id: number; slug: string; category: string; brand: string; priceCents: number }[] = [];

  async function insertPromotion(
    action: PromotionAction,
    extra: Partial<{
      priority: number;
      combines: 0 | 1;
      startsAt: string | null;
      endsAt: string | null;
      code: string | null;
      usageLimit: number | null;
    }> = {},
  ) {
    const row = await db
      .insertInto("promotions")
      .values({
        name: `Sale ${action.type}`,
        action: JSON.stringify(action),
        conditions: "[]",
        createdAt: STAMP,
        updatedAt: STAMP,
        ...extra,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const percent = (basisPoints: number, target: object = {}): PromotionAction => ({
    type: "items-percent",
    target,
    basisPoints,
    apply: "all",
  });

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false });
    db = t.db;
    sqlDb = createDatabase(t.url);
    for (const category of CATEGORIES) await ensureCategory(db, category);
    const random = createRandom(engine === "sqlite" ? 5 : 6);
    for (let i = 0; i < 70; i++) {
      const category = random.pick(CATEGORIES);
      const brand = random.pick(BRANDS);
      const priceCents = random.pick(PRICES);
      const id = await insertProduct(db, {
        categoryId: category,
        subcategoryId: null,
        brand,
        name: `Sale item ${i}`,
        priceCents,
        originalPriceCents: random.next() < 0.2 ? priceCents * 2 : null,
        stock: 5,
      });
      products.push({ id, slug: "", category, brand, priceCents });
    }
    for (let i = 0; i < 20; i++) {
      const category = random.pick(CATEGORIES);
      const brand = random.pick(BRANDS);
      const { productId } = await insertProductWithVariants(db, {
        categoryId: category,
        subcategoryId: null,
        brand,
        name: `Sale tee ${i}`,
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          { values: ["S"], sku: `SALE-${engine}-${i}-S`, priceCents: random.pick(PRICES), stock: 3 },
          { values: ["M"], sku: `SALE-${engine}-${i}-M`, priceCents: random.pick(PRICES), stock: 3 },
        ],
      });
      const row = await db
        .selectFrom("products")
        .select("priceCents")
        .where("id", "=", productId)
        .executeTakeFirstOrThrow();
      products.push({ id: productId, slug: "", category, brand, priceCents: row.priceCents });
    }
    const slugs = await db.selectFrom("products").select(["id", "slug"]).execute();
    for (const product of products) product.slug = slugs.find((s) => s.id === product.id)!.slug;

    // clothing 20 % and Acme 10 % compound; one product half off alone (first, does not combine);
    // from START, 30 % off toys first and alone; an ended one and a coded one never show
    await insertPromotion(percent(2_000, { categories: ["clothing"] }));
    await insertPromotion(percent(1_000, { brands: ["Acme"] }));
    halfOff = products.find((p) => p.category === "clothing" && p.brand === "Acme")!.id;
    await insertPromotion(percent(5_000, { productIds: [halfOff] }), { priority: 5, combines: 0 });
    await insertPromotion(percent(3_000, { categories: ["toys"] }), {
      priority: 1,
      combines: 0,
      startsAt: START,
    });
    await insertPromotion(percent(1_000), { endsAt: "2026-11-30T00:00:00.000Z" });
    await insertPromotion(percent(9_000), { code: "NINETY" });
    // a use limit makes it no catalogue promotion (it can run out): never shown; it targets no
    // product here, since the cart would take it beside the sale
    await insertPromotion(percent(9_000, { productIds: [999_999] }), { usageLimit: 5 });

    attachSearchIndex(db);
    expect(await searchIndexReady(db)).not.toBeNull();
  });
  afterAll(async () => {
    await detachSearchIndex(db);
    await sqlDb?.destroy();
    await t?.destroy();
  });

  /** What a product costs now, product by product, from the pure rule. */
  async function oracle(now: Date) {
    const catalogue = await cataloguePromotions(db);
    return new Map(
      products.map((p) => [
        p.id,
        salePrice(
          catalogue,
          { productId: p.id, category: p.category, brand: p.brand, priceCents: p.priceCents },
          now,
        )?.priceCents ?? p.priceCents,
      ]),
    );
  }

  it("knows the next start or end, which the page cache's stamp carries", async () => {
    await cataloguePromotions(db);
    expect(nextCatalogueBoundary(db, BEFORE.getTime())).toBe(Date.parse(START));
    // from the start on: nothing more to come (the ended one is past)
    expect(nextCatalogueBoundary(db, AFTER.getTime())).toBeNull();
  });

  it("keeps only catalogue promotions: automatic, no code, no limit", async () => {
    const catalogue = await cataloguePromotions(db);
    expect(catalogue.map((p) => p.name)).toHaveLength(5);
    expect(liveAt(catalogue, BEFORE)).toHaveLength(3);
    expect(liveAt(catalogue, AFTER)).toHaveLength(4);
  });

  for (const [label, now] of [
    ["before the toys' sale starts", BEFORE],
    ["from its start", AFTER],
  ] as const) {
    it(`filters, sorts, counts and shows cards by the price paid now, ${label}`, async () => {
      const paid = await oracle(now);
      const onSale = products.filter((p) => paid.get(p.id)! < p.priceCents);
      expect(onSale.length).toBeGreaterThan(10);
      const random = createRandom(engine === "sqlite" ? 41 : 42);
      for (let i = 0; i < 60; i++) {
        const params = new URLSearchParams();
        if (random.next() < 0.5) params.set("minPrice", String(random.pick([0, 1, 10, 40, 100, 250])));
        if (random.next() < 0.5) params.set("maxPrice", String(random.pick([1, 10, 40, 100, 400, 2000])));
        if (random.next() < 0.3) params.set("category", random.pick(CATEGORIES));
        params.set("sort", random.pick(["price-asc", "price-desc", ...SORT_OPTIONS.map((s) => s.value)]));
        if (random.next() < 0.2) params.set("page", "2");
        const query = parseListingQuery(params);
        const result = await searchProducts(sqlDb, query, now);
        const inRange = (cents: number) =>
          cents >= query.minPrice * 100 && (query.maxPrice >= 2000 || cents <= query.maxPrice * 100);
        const expected = products.filter(
          (p) => (!query.category || p.category === query.category) && inRange(paid.get(p.id)!),
        );
        expect(result.total, params.toString()).toBe(expected.length);
        const byCategory = (id: string) =>
          products.filter((p) => p.category === id && inRange(paid.get(p.id)!)).length;
        for (const facet of result.facets.categories) {
          if (CATEGORIES.includes(facet.value))
            expect(facet.count, `${params} ${facet.value}`).toBe(byCategory(facet.value));
        }
        if (query.sort === "price-asc" || query.sort === "price-desc") {
          const sign = query.sort === "price-asc" ? 1 : -1;
          expected.sort((a, b) => sign * (paid.get(a.id)! - paid.get(b.id)!) || sign * (a.id - b.id));
          const page = expected.slice((query.page - 1) * 24, query.page * 24).map((p) => p.id);
          expect(
            result.products.map((p) => p.id),
            params.toString(),
          ).toEqual(page);
        }
        for (const card of result.products) {
          const product = products.find((p) => p.id === card.id)!;
          expect(card.priceCents, `card ${card.id}`).toBe(paid.get(card.id));
          if (paid.get(card.id)! < product.priceCents) {
            expect(card.originalPriceCents).toBeGreaterThanOrEqual(product.priceCents);
            expect(card.discountPercentage).not.toBeNull();
          }
        }
        // the index holds regular prices: it answers no price-bound or price-sorted listing while
        // a sale is live, and otherwise the same as SQL
        const searched = parseListingQuery(
          new URLSearchParams({ ...Object.fromEntries(params), search: "sale" }),
        );
        const priceBound =
          searched.minPrice > 0 || searched.maxPrice < 2000 || searched.sort.startsWith("price");
        const indexed = await searchFromIndex(db, {
          ...searched,
          sale: liveAt(await cataloguePromotions(db), now),
        });
        if (priceBound) expect(indexed).toBeNull();
        else expect(indexed).not.toBeNull();
        expect(await searchProducts(db, searched, now), `search ${params}`).toEqual(
          await searchProducts(sqlDb, searched, now),
        );
      }
    });
  }

  it("filters option listings by the cheapest matching variant's sale price", async () => {
    const paid = new Map<number, number>();
    const catalogue = await cataloguePromotions(db);
    const variants = await db
      .selectFrom("productVariants")
      .innerJoin("variantOptionValues as o", "o.variantId", "productVariants.id")
      .select(["productVariants.id", "productVariants.productId", "productVariants.priceCents"])
      .where("o.valueKey", "=", "m")
      .execute();
    for (const v of variants) {
      const p = products.find((product) => product.id === v.productId)!;
      const cents =
        salePrice(
          catalogue,
          {
            productId: p.id,
            variantId: v.id,
            category: p.category,
            brand: p.brand,
            priceCents: v.priceCents,
          },
          AFTER,
        )?.priceCents ?? v.priceCents;
      paid.set(p.id, Math.min(paid.get(p.id) ?? Infinity, cents));
    }
    for (const maxPrice of [1, 10, 100, 400]) {
      const params = new URLSearchParams({ size: "m", maxPrice: String(maxPrice), sort: "price-asc" });
      const result = await searchProducts(db, parseListingQuery(params), AFTER);
      const expected = [...paid]
        .filter(([, cents]) => cents <= maxPrice * 100)
        .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      expect(
        result.products.map((p) => p.id),
        params.toString(),
      ).toEqual(expected.map(([id]) => id));
      const size = result.facets.options.find((f) => f.key === "size")?.values.find((v) => v.value === "m");
      expect(size?.count ?? 0).toBe(expected.length);
    }
  });

  it("shows the product page's and variants' sale prices, the JSON-LD's end, and the cart charges them", async () => {
    const paid = await oracle(AFTER);
    const cases = [
      halfOff,
      products.find(
        (p) => p.category === "clothing" && p.brand === "Acme" && p.id !== halfOff && p.priceCents >= 999,
      )!.id,
      products.find((p) => p.category === "toys" && p.brand !== "Acme" && p.priceCents >= 999)!.id,
      products.find((p) => p.category === "home" && p.brand !== "Acme" && p.priceCents >= 999)!.id,
    ];
    for (const id of cases) {
      const product = products.find((p) => p.id === id)!;
      const detail = (await getProductDetail(db, product.slug, AFTER))!;
      expect(detail.priceCents, `product ${id}`).toBe(paid.get(id));
      const cartId = randomUUID();
      expect(
        (await addToCart(db, { cartId, productId: id, variantId: detail.variants[0]!.id, quantity: 1 })).ok,
      ).toBe(true);
      const cart = await getCart(db, cartId, SPEC_SHOP, {}, AFTER);
      const line = cart.lines[0]!;
      // the cart's line at its regular price, less what the promotions take: the page's price
      expect(line.unitPriceCents - cart.totals.discountCents, `cart ${id}`).toBe(
        detail.variants[0]!.priceCents,
      );
    }
    // the compound case: 20 % then 10 % of what is left, each rounded half up
    const compound = products.find((p) => p.id === cases[1])!;
    const twenty = compound.priceCents - Math.floor((compound.priceCents * 2_000 * 2 + 10_000) / 20_000);
    expect(paid.get(compound.id)).toBe(twenty - Math.floor((twenty * 1_000 * 2 + 10_000) / 20_000));
    // toys: 30 % from START, no end; before START the regular price
    const toy = products.find((p) => p.id === cases[2])!;
    expect((await getProductDetail(db, toy.slug, BEFORE))!.priceCents).toBe(toy.priceCents);
    expect((await getProductDetail(db, toy.slug, AFTER))!.saleEndsAt).toBeNull();
    // variants each priced
    const tee = products.find(
      (p) => p.category === "clothing" && p.slug && p.priceCents > 0 && p.id > products[69]!.id,
    );
    if (tee) {
      const detail = (await getProductDetail(db, tee.slug, AFTER))!;
      for (const variant of detail.variants) expect(variant.originalPriceCents).not.toBeNull();
    }
  });

  it("a sale with an end: the page says until when, and the price goes back at the end", async () => {
    const product = products.find((p) => p.category === "home" && p.brand !== "Acme" && p.priceCents >= 999)!;
    const id = await insertPromotion(percent(2_500, { productIds: [product.id] }), {
      priority: 9,
      combines: 0,
      endsAt: "2026-12-03T00:00:00.000Z",
    });
    try {
      const on = (await getProductDetail(db, product.slug, AFTER))!;
      expect(on.priceCents).toBe(
        product.priceCents - Math.floor((product.priceCents * 2_500 * 2 + 10_000) / 20_000),
      );
      expect(on.saleEndsAt).toBe("2026-12-03T00:00:00.000Z");
      const off = (await getProductDetail(db, product.slug, new Date("2026-12-03T00:00:00.000Z")))!;
      expect(off.saleEndsAt).toBeUndefined();
    } finally {
      await db.deleteFrom("promotions").where("id", "=", id).execute();
    }
  });
});
