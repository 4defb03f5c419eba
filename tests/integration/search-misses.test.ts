import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import { loadListing } from "../../app/domain/catalog/listing-page.server.ts";
import {
  listSearchMisses,
  pruneSearchMisses,
  recordSearchMiss,
  SEARCH_MISS_TERMS_PER_DAY,
} from "../../app/domain/catalog/search-misses.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as searchesRoute from "../../app/routes/admin.searches.tsx";
import { ENGINES } from "../db-utils.ts";
import { adminContext } from "../helpers/admin-route.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const PRESET = { path: "/products", title: "All Products", description: "" };
const OWNER = { id: "owner-1", email: "owner@example.com", role: "owner" as const };

/**
 * The searches that found nothing (issue 33), on both engines: counted per day and search (trimmed,
 * lower case) when a shopper's search — on the /products page or through the Store API — finds
 * nothing, not when a filter emptied it; listed by period in Admin → Searches, most often first; a
 * day's new searches capped; old days pruned.
 */
describe.each(ENGINES)("searches that found nothing, on %s", (engine) => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    await insertProduct(shop.db, { name: "Wireless Headphones", brand: "Sonora" });
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const search = async (query: string) => {
    const { result } = await loadListing(shop.db, new URLSearchParams(query), PRESET);
    await settleAfterResponseTasks();
    return result.total;
  };
  const counts = async (days = 7) =>
    Object.fromEntries((await listSearchMisses(shop.db, { days })).map((miss) => [miss.term, miss.count]));

  it("counts a search that found nothing, by its words, on the page and through the Store API", async () => {
    expect(await search("search=headphones")).toBe(1);
    expect(await search("search=headphnes")).toBe(0);
    expect(await search("search=%20%20HEADPHNES%20")).toBe(0);
    expect(await search("search=blue%20%20%20kettle")).toBe(0);
    // emptied by a filter, not by the words: not the search's miss
    expect(await search("search=headphones&brand=nobody")).toBe(0);
    expect(await search("search=headphones&minPrice=1500")).toBe(0);
    expect(await counts()).toEqual({ headphnes: 2, "blue kettle": 1 });

    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "App", kind: "publishable", scopes: [], expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    const api = createApi(async () => shop.services);
    const answer = await api.request("/api/v1/store/products?search=headphnes", {
      headers: { Authorization: `Bearer ${made.value.secret}` },
    });
    expect(answer.status).toBe(200);
    await settleAfterResponseTasks();
    expect((await counts()).headphnes).toBe(3);
  });

  it("lists a period's misses most often first, and prunes days older than half a year", async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 10, 29 - n, 12));
    const now = day(0);
    for (let i = 0; i < 3; i++) await recordSearchMiss(shop.db, "periodic lamp", day(1));
    await recordSearchMiss(shop.db, "periodic lamp", day(20));
    await recordSearchMiss(shop.db, "periodic sofa", day(2));
    await recordSearchMiss(shop.db, "periodic sofa", day(3));
    await recordSearchMiss(shop.db, "periodic relic", day(200));
    const periodic = async (days: number) =>
      (await listSearchMisses(shop.db, { days, now })).filter((miss) => miss.term.startsWith("periodic"));
    expect(await periodic(7)).toEqual([
      { term: "periodic lamp", count: 3, lastDay: "2026-11-28" },
      { term: "periodic sofa", count: 2, lastDay: "2026-11-27" },
    ]);
    expect((await periodic(30)).map((miss) => [miss.term, miss.count])).toEqual([
      ["periodic lamp", 4],
      ["periodic sofa", 2],
    ]);
    expect(await pruneSearchMisses(shop.db, now)).toBe(1);
    expect((await periodic(365)).map((miss) => miss.term)).not.toContain("periodic relic");
  });

  it("keeps at most a day's cap of different searches, still counting those it has", async () => {
    const day = new Date(Date.UTC(2026, 0, 15, 12));
    const rows = Array.from({ length: SEARCH_MISS_TERMS_PER_DAY }, (_, i) => ({
      day: "2026-01-15",
      term: `flood ${i}`,
      count: 1,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await shop.db
        .insertInto("searchMisses")
        .values(rows.slice(i, i + 500))
        .execute();
    }
    await recordSearchMiss(shop.db, "one more", day);
    await recordSearchMiss(shop.db, "flood 7", day);
    const stored = await shop.db
      .selectFrom("searchMisses")
      .select(["term", "count"])
      .where("day", "=", "2026-01-15")
      .where("term", "in", ["one more", "flood 7"])
      .execute();
    expect(stored).toEqual([{ term: "flood 7", count: 2 }]);
  });

  it("shows Admin → Searches for the period chosen (7, 30 or 90 days; anything else 30)", async () => {
    const load = async (query: string) =>
      (await searchesRoute.loader({
        request: new Request(`${TEST_ORIGIN}/admin/searches${query}`, {
          headers: { Cookie: "cartwheel.session_token=admin-test" },
        }),
        params: {},
        context: adminContext({ db: shop.db, files: shop.services.files }, OWNER),
      } as never)) as { days: number; misses: { term: string; count: number }[] };
    const page = await load("?days=7");
    expect(page.days).toBe(7);
    expect(page.misses.find((miss) => miss.term === "headphnes")?.count).toBe(3);
    expect((await load("?days=12")).days).toBe(30);
    expect((await load("")).days).toBe(30);
  });
});
