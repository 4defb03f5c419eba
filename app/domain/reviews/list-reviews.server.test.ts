import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { insertProduct } from "../../../tests/helpers/catalog.ts";
import { createLocalFileStore } from "../../adapters/files/file-store.server.ts";
import { DEMO_PRODUCTS } from "../../db/seed/demo-catalog.ts";
import { DEMO_REVIEWS, seedDemoReviews } from "../../db/seed/demo-reviews.ts";
import { seedDemoCatalog } from "../../db/seed/seed.server.ts";
import { listProductReviews } from "./list-reviews.server.ts";

const at = (day: number, hour = 0) => new Date(Date.UTC(2026, 5, day, hour)).toISOString();

describe.each(ENGINES)("listProductReviews on %s", (engine) => {
  let t: TestDatabase;
  let productId: number;
  let otherId: number;

  const addReview = (id: number, createdAt: string, title: string, rating = 4) =>
    t.db
      .insertInto("reviews")
      .values({
        productId: id,
        userId: null,
        authorName: "A. Buyer",
        rating,
        title,
        body: `${title} body`,
        createdAt,
        updatedAt: createdAt,
      })
      .execute();

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    productId = await insertProduct(t.db);
    otherId = await insertProduct(t.db);
    await addReview(productId, at(3), "middle", 3);
    await addReview(productId, at(1), "oldest", 5);
    await addReview(productId, at(9, 12), "newest", 2);
    await addReview(productId, at(3), "middle, added later");
    await addReview(otherId, at(20), "someone else's");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("lists a product's reviews newest first (ties: most recently added first)", async () => {
    const reviews = await listProductReviews(t.db, productId);
    expect(reviews.map((r) => r.title)).toEqual(["newest", "middle, added later", "middle", "oldest"]);
    expect(reviews[0]).toEqual({
      id: expect.any(Number),
      authorName: "A. Buyer",
      rating: 2,
      title: "newest",
      body: "newest body",
      helpfulCount: 0,
      createdAt: at(9, 12),
    });
  });

  it("returns at most `limit` reviews", async () => {
    expect((await listProductReviews(t.db, productId, { limit: 2 })).map((r) => r.title)).toEqual([
      "newest",
      "middle, added later",
    ]);
  });

  it("returns nothing for a product without reviews or an unknown product", async () => {
    expect(await listProductReviews(t.db, await insertProduct(t.db))).toEqual([]);
    expect(await listProductReviews(t.db, 987654)).toEqual([]);
  });

  it("keeps review text as it was written (markup is rendered as text by the page)", async () => {
    const id = await insertProduct(t.db);
    await addReview(id, at(2), '<script>alert("x")</script> & <b>bold</b>');
    const [review] = await listProductReviews(t.db, id);
    expect(review!.title).toBe('<script>alert("x")</script> & <b>bold</b>');
  });
});

describe.each(ENGINES)("seedDemoReviews on %s", (engine) => {
  let t: TestDatabase;
  const now = new Date(Date.UTC(2026, 10, 20, 12));

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")), now);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const countReviews = async () =>
    (
      await t.db
        .selectFrom("reviews")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
  const productBySlug = (slug: string) =>
    t.db.selectFrom("products").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow();

  it("gives every demo product a few believable reviews, written after the product appeared", async () => {
    const total = Object.values(DEMO_REVIEWS).reduce((sum, list) => sum + list.length, 0);
    expect(Number(await countReviews())).toBe(total);
    for (const demo of DEMO_PRODUCTS) {
      const product = await productBySlug(demo.slug);
      const reviews = await listProductReviews(t.db, product.id);
      expect(reviews.length, demo.slug).toBeGreaterThanOrEqual(2);
      for (const review of reviews) {
        expect(review.rating).toBeGreaterThanOrEqual(1);
        expect(review.rating).toBeLessThanOrEqual(5);
        expect(review.authorName.length).toBeGreaterThan(0);
        expect(review.title.length).toBeGreaterThan(0);
        expect(review.body.length).toBeGreaterThan(20);
        expect(Date.parse(review.createdAt)).toBeLessThanOrEqual(now.getTime());
        expect(Date.parse(review.createdAt), `${demo.slug}: ${review.title}`).toBeGreaterThanOrEqual(
          Date.parse(product.createdAt),
        );
      }
    }
  });

  it("leaves each product's rating and review count as seeded (they cover all historical reviews)", async () => {
    for (const demo of DEMO_PRODUCTS) {
      const product = await productBySlug(demo.slug);
      expect(product.reviewCount).toBe(demo.reviewCount);
      expect(Number(product.rating)).toBeCloseTo(demo.rating, 5);
    }
  });

  it("is idempotent: a second run (or a second catalogue seed) adds nothing", async () => {
    const before = await countReviews();
    expect(await seedDemoReviews(t.db, now)).toEqual({ created: 0 });
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")), now);
    expect(await countReviews()).toBe(before);
  });

  it("only fills products that have no reviews at all", async () => {
    const phone = await productBySlug("kestrel-x12-smartphone");
    const laptop = await productBySlug("lumen-book-pro-14");
    await t.db.deleteFrom("reviews").where("productId", "=", phone.id).execute();
    // The laptop keeps just one (say, a real customer's) review: it is not topped up.
    const [keep] = await listProductReviews(t.db, laptop.id, { limit: 1 });
    await t.db.deleteFrom("reviews").where("productId", "=", laptop.id).where("id", "<>", keep!.id).execute();

    const { created } = await seedDemoReviews(t.db, now);
    expect(created).toBe(DEMO_REVIEWS["kestrel-x12-smartphone"]!.length);
    expect(await listProductReviews(t.db, phone.id)).toHaveLength(
      DEMO_REVIEWS["kestrel-x12-smartphone"]!.length,
    );
    expect(await listProductReviews(t.db, laptop.id)).toHaveLength(1);
  });

  it("skips a demo product that no longer exists", async () => {
    const empty = await createTestDatabase(engine);
    try {
      expect(await seedDemoReviews(empty.db, now)).toEqual({ created: 0 });
    } finally {
      await empty.destroy();
    }
  });
});
