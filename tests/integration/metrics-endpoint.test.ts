import { pathToFileURL } from "node:url";
import type { Migration } from "kysely/migration";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/lib/procs.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { Scrape } from "../helpers/prometheus.ts";
import { type SpawnedShop, spawnShop } from "../helpers/spawned-shop.ts";

/**
 * The production server on either engine (decision 027): /metrics only where it was asked for —
 * behind METRICS_TOKEN on the shop's port, or on METRICS_PORT's own listener and then nowhere on
 * the shop's — with requests named by their route pattern; /readyz before the process has started
 * (its migrations waiting on a lock another process holds), once it is ready, and when a migration
 * of this code is missing from the database.
 */
const TOKEN = "endpoint-test-token-0123456789";
/** Kysely's migration lock on PostgreSQL (kysely/dist/dialect/postgres/postgres-adapter.js) */
const KYSELY_MIGRATION_LOCK = "3853314791062309107";

describe.each(ENGINES)("/metrics and /readyz of the server, on %s", (engine) => {
  let t: TestDatabase;
  let productSlug: string;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    const id = await insertProduct(t.db, { name: "Endpoint Kettle", stock: 5 });
    const product = await t.db
      .selectFrom("products")
      .select("slug")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    productSlug = product.slug;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  describe("METRICS_TOKEN: on the shop's port, behind the token", () => {
    let shop: SpawnedShop;
    beforeAll(async () => {
      shop = await spawnShop({ DATABASE_URL: t.url, METRICS_TOKEN: TOKEN }, t.dir);
      await shop.logged("Cartwheel is ready");
      await shop.logged("Cartwheel is listening");
    });
    afterAll(async () => {
      await shop?.stop();
    });

    it("refuses a scrape without the token, and counts requests by route pattern, never by path", async () => {
      expect((await fetch(`${shop.url}/metrics`)).status).toBe(401);
      const wrong = await fetch(`${shop.url}/metrics`, {
        headers: { Authorization: "Bearer wrong-token-wrong" },
      });
      expect(wrong.status).toBe(401);

      for (const slug of [productSlug, "no-such-kettle-1", "no-such-kettle-2"]) {
        await fetch(`${shop.url}/products/${slug}`);
      }
      await fetch(`${shop.url}/no/such/page`);
      const response = await fetch(`${shop.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      const scrape = new Scrape(await response.text());
      expect(scrape.family("cartwheel_http_requests_total")?.type).toBe("COUNTER");
      const product = { route: "/products/:productId", method: "GET" };
      expect(scrape.value("cartwheel_http_requests_total", { ...product, status: "200" })).toBe(1);
      expect(scrape.value("cartwheel_http_requests_total", { ...product, status: "404" })).toBe(2);
      expect(scrape.value("cartwheel_http_requests_total", { route: "/*", status: "404" })).toBe(1);
      expect(scrape.count("cartwheel_http_request_duration_seconds", product)).toBe(3);
      // the refused scrapes are requests too; no label anywhere holds a raw path
      expect(scrape.value("cartwheel_http_requests_total", { route: "/metrics", status: "401" })).toBe(2);
      const routes = scrape.labelValues("cartwheel_http_requests_total", "route");
      expect(routes.filter((route) => /kettle|no\/such/.test(route))).toEqual([]);
    });
  });

  describe("METRICS_PORT: a listener of its own, nothing on the shop's port", () => {
    let shop: SpawnedShop;
    let metricsPort: number;
    beforeAll(async () => {
      metricsPort = await freePort();
      shop = await spawnShop({ DATABASE_URL: t.url, METRICS_PORT: String(metricsPort) }, t.dir);
      await shop.logged("Cartwheel is ready");
      await shop.logged("metrics listening");
    });
    afterAll(async () => {
      await shop?.stop();
    });

    it("answers /metrics on 127.0.0.1:METRICS_PORT only", async () => {
      const home = await fetch(`${shop.url}/`).catch((error: unknown) => {
        throw new Error(`${error}: ${shop.output()}`);
      });
      expect(home.status).toBe(200);
      expect((await fetch(`${shop.url}/`)).status).toBe(200);
      await shop.logged("search index built");
      const onShop = await fetch(`${shop.url}/metrics`);
      expect(onShop.status).toBe(404);
      expect(await onShop.text()).not.toContain("cartwheel_");
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      const scrape = new Scrape(await scraped.text());
      expect(scrape.value("cartwheel_http_requests_total", { route: "/", status: "200" })).toBe(2);
      expect(scrape.value("cartwheel_http_requests_total", { route: "/metrics", status: "404" })).toBe(1);
      // the page cache (on SQLite only, decision 010): the second visit without cookies is a hit;
      // on PostgreSQL every page passes it by (the two visits and the 404 of /metrics)
      const cache = (outcome: string) => scrape.value("cartwheel_page_cache_requests_total", { outcome });
      if (engine === "sqlite") expect([cache("MISS"), cache("HIT")]).toEqual([1, 1]);
      else expect([cache("HIT"), cache("BYPASS")]).toEqual([0, 3]);
      // the search index built at start, in its worker thread, counted where its result arrived
      expect(
        scrape.value("cartwheel_search_index_builds_total", { outcome: "built" }),
      ).toBeGreaterThanOrEqual(1);
    });
  });

  it("says 503 until the process has started, then 200 {ok:true}; 503 again when a migration is missing", {
    timeout: 60_000,
  }, async () => {
    // on PostgreSQL another process holds the migrations' lock while this one starts, so it waits
    // listening (SQLite's lock waits are synchronous: server/readiness.test.ts shows that engine
    // before its start, in-process)
    const release = engine === "postgres" ? await holdMigrationLock(t) : null;
    const shop = await spawnShop({ DATABASE_URL: t.url }, t.dir);
    try {
      await shop.logged("Cartwheel is listening");
      if (release) {
        const starting = await fetch(`${shop.url}/readyz`);
        expect(starting.status).toBe(503);
        expect(await starting.json()).toEqual({ ok: false, started: false });
        await release();
      }
      await shop.logged("Cartwheel is ready");
      const ready = await fetch(`${shop.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get("cache-control")).toBe("no-store");
      expect(await ready.json()).toEqual({ ok: true });

      // the newest migration taken back by hand: this code's schema is not all there
      const newest = await takeBackNewestMigration(t);
      const pending = await fetch(`${shop.url}/readyz`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({ ok: false, pendingMigrations: [newest] });
      // /healthz is liveness: the process and its database answer
      expect((await fetch(`${shop.url}/healthz`)).status).toBe(200);
    } finally {
      await shop.stop();
    }
  });
});

/** Holds Kysely's migration lock on PostgreSQL, as a process migrating would; returns the release. */
async function holdMigrationLock(t: TestDatabase): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  await client.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
  return async () => {
    await client.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
    await client.end();
  };
}

/** Runs the newest applied migration's `down` and forgets it ran, as if this code's newest never had; its name. */
async function takeBackNewestMigration(t: TestDatabase): Promise<string> {
  const { name } = (await t.db
    .selectFrom("kysely_migration" as never)
    .select("name" as never)
    .orderBy("name" as never, "desc")
    .limit(1)
    .executeTakeFirstOrThrow()) as { name: string };
  const migration = (await import(
    pathToFileURL(`${import.meta.dirname}/../../app/db/migrations/${name}.ts`).href
  )) as Migration;
  await migration.down?.(t.db as never);
  await t.db
    .deleteFrom("kysely_migration" as never)
    .where("name" as never, "=", name as never)
    .execute();
  return name;
}
