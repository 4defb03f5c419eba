/**
 * api: the REST API (issue 32) beside the pages it mirrors, in the same run.
 *
 * (a) Place Order through the Store API (POST /api/v1/store/carts/{id}/checkout with a publishable
 *     key, an Idempotency-Key and the test gateway's token) next to the no-JavaScript checkout's
 *     Place Order (POST /checkout, intent place-order) — one shop per engine serving both, buyers
 *     prepared beforehand through each (the API's: cart, line, quote, card token; the page's: cart,
 *     shipping, payment, review), then placed in interleaved bursts over `--connections` keep-alive
 *     connections (closed loop) → orders/s of each and their ratio.
 * (b) A page of products at 1M products (SQLite; BENCH_API_CATALOG_SIZE): GET /api/v1/store/products
 *     next to GET /products with the same filters — each URL asked once (distinct minimum prices), so
 *     the page cache answers neither — sequential and taking turns → p50 and p95 of each.
 *
 * The key's rate limit is raised for the run (API_RATE_LIMIT_PER_MINUTE): the bench measures the
 * API's cost, not its limit.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Agent } from "node:http";
import { join } from "node:path";
import type { Database } from "../../app/db/database.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { keepAliveAgent, percentile, send } from "../lib/http-client.ts";
import { withPostgresDatabase } from "../lib/postgres.ts";
import { onCleanup } from "../lib/procs.ts";
import { type ShopServer, startShop } from "../lib/shop.ts";
import type { BenchContext, Row, Section } from "../lib/types.ts";
import { prepareCatalog } from "./catalog.ts";
import {
  type Buyer,
  closedLoop,
  type Engine,
  LABEL,
  median,
  PREP_CONCURRENCY,
  pool,
  prepareBuyers,
  startEngineShop,
  WARMUP_BUYERS,
} from "./checkout.ts";

const S = "api";
const BURSTS = Math.max(2, 2 * Math.round(Number(process.env.BENCH_API_BURSTS ?? 12) / 2));
const BURST_ORDERS = 200;
const CATALOG_SIZE = Number(process.env.BENCH_API_CATALOG_SIZE ?? 1_000_000);
const LISTING_RUNS = Number(process.env.BENCH_API_LISTING_RUNS ?? 200);
const ENV = { API_RATE_LIMIT_PER_MINUTE: "1000000" };
const OWNER = { id: "bench-owner", email: "owner@bench.example", role: "owner" as const };

/** A publishable key made in the shop's database (as Admin → API keys would). */
async function publishableKey(db: Database): Promise<string> {
  const made = await createApiKey(db, {
    actor: OWNER,
    input: { name: "Bench app", kind: "publishable", scopes: [], expiresAt: null },
  });
  if (!made.ok) throw new Error(`no API key: ${made.error.code}`);
  return made.value.secret;
}

interface ApiBuyer {
  i: number;
  cartId: string;
  body: string;
}

class ApiClient {
  readonly base: string;
  readonly agent: Agent;
  readonly key: string;
  constructor(base: string, agent: Agent, key: string) {
    this.base = base;
    this.agent = agent;
    this.key = key;
  }
  async call(method: "GET" | "POST", path: string, body?: unknown) {
    const reply = await send(
      this.agent,
      `${this.base}/api/v1${path}`,
      method,
      {
        authorization: `Bearer ${this.key}`,
        accept: "application/json",
        ...(method === "POST" ? { "content-type": "application/json", "idempotency-key": randomUUID() } : {}),
      },
      body === undefined ? undefined : JSON.stringify(body),
    );
    return {
      status: reply.status,
      json: () => JSON.parse(reply.body) as Record<string, unknown>,
      raw: reply,
    };
  }
}

/** One app's shopper through the Store API up to the checkout: cart, line, quote, card token. */
async function prepareApiBuyer(client: ApiClient, i: number, productIds: number[]): Promise<ApiBuyer> {
  const must = async (
    step: string,
    answer: Promise<{ status: number; json: () => Record<string, unknown> }>,
  ) => {
    const reply = await answer;
    if (reply.status >= 300) throw new Error(`API buyer ${i} ${step}: ${reply.status}`);
    return reply.json();
  };
  const cart = await must("create cart", client.call("POST", "/store/carts"));
  const cartId = String(cart.id);
  const productId = productIds[i % productIds.length] as number;
  await must("add line", client.call("POST", `/store/carts/${cartId}/lines`, { productId, quantity: 1 }));
  const quote = (await must(
    "quote",
    client.call("GET", `/store/carts/${cartId}/quote?country=US&region=IL&shippingMethod=standard`),
  )) as { totals: { total: { amount: number } } };
  const token = await must(
    "token",
    client.call("POST", "/store/payment-tokens", {
      cardNumber: "4242424242424242",
      cardName: `Bench App ${i}`,
      expiryDate: "12/30",
      cvv: "123",
    }),
  );
  const body = JSON.stringify({
    firstName: "Bench",
    lastName: `App ${i}`,
    email: `app-${i}@bench.example`,
    phone: "+1 555 0100",
    address: `${i} Benchmark Way`,
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    country: "US",
    shippingMethod: "standard",
    payment: { token: token.token },
    expectedTotal: quote.totals.total.amount,
  });
  return { i, cartId, body };
}

async function prepareApiBuyers(
  url: string,
  key: string,
  first: number,
  count: number,
  productIds: number[],
) {
  const agent = keepAliveAgent(PREP_CONCURRENCY);
  const client = new ApiClient(url, agent, key);
  const buyers: ApiBuyer[] = new Array(count);
  try {
    await pool(
      Array.from({ length: count }, (_, k) => first + k),
      PREP_CONCURRENCY,
      async (i, k) => {
        buyers[k] = await prepareApiBuyer(client, i, productIds);
      },
    );
  } finally {
    agent.destroy();
  }
  return buyers;
}

/** Every buyer's checkout posted over `connections` connections, each as soon as the last answered. */
async function apiClosedLoop(url: string, key: string, buyers: ApiBuyer[], connections: number) {
  const agent = keepAliveAgent(connections);
  let placed = 0;
  let failed = 0;
  const failures: string[] = [];
  const started = performance.now();
  try {
    await pool(buyers, connections, async (buyer) => {
      try {
        const reply = await send(
          agent,
          `${url}/api/v1/store/carts/${buyer.cartId}/checkout`,
          "POST",
          {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "idempotency-key": randomUUID(),
          },
          buyer.body,
        );
        if (reply.status === 201) placed++;
        else {
          failed++;
          if (failures.length < 5) failures.push(`${reply.status} ${reply.body.slice(0, 200)}`);
        }
      } catch (error) {
        failed++;
        if (failures.length < 5) failures.push(String(error));
      }
    });
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return { placed, failed, failures, seconds, ordersPerSec: placed / seconds };
}

async function placeOrderRows(ctx: BenchContext, engine: Engine, databaseUrl: string): Promise<Row[]> {
  const label = LABEL[engine];
  const C = ctx.opts.connections;
  const dir = join(ctx.tmpDir, `api-${engine}`);
  mkdirSync(dir, { recursive: true });
  const { shop, db, productIds } = await startEngineShop(ctx, engine, databaseUrl, dir, [], 0, ENV);
  try {
    const key = await publishableKey(db);
    ctx.log(`  ${label}: preparing ${WARMUP_BUYERS} + ${BURSTS * BURST_ORDERS} buyers through each…`);
    const warmPage = await prepareBuyers(ctx, shop.url, 0, WARMUP_BUYERS, productIds);
    const warmApi = await prepareApiBuyers(shop.url, key, 0, WARMUP_BUYERS, productIds);
    await closedLoop(shop.url, warmPage.buyers, C);
    await apiClosedLoop(shop.url, key, warmApi, C);
    const total = BURSTS * BURST_ORDERS;
    const page = (await prepareBuyers(ctx, shop.url, WARMUP_BUYERS, total, productIds)).buyers;
    const api = await prepareApiBuyers(shop.url, key, WARMUP_BUYERS + total, total, productIds);
    const sides = {
      page: { orders: 0, seconds: 0, failed: 0, failures: [] as string[] },
      api: { orders: 0, seconds: 0, failed: 0, failures: [] as string[] },
    };
    const ratios: number[] = [];
    for (let burst = 0; burst < BURSTS; burst++) {
      const slice = <T>(list: T[]) => list.slice(burst * BURST_ORDERS, (burst + 1) * BURST_ORDERS);
      const runs: Record<"page" | "api", number> = { page: 0, api: 0 };
      for (const side of burst % 2 === 0 ? (["api", "page"] as const) : (["page", "api"] as const)) {
        const run =
          side === "page"
            ? await closedLoop(shop.url, slice<Buyer>(page), C)
            : await apiClosedLoop(shop.url, key, slice(api), C);
        sides[side].orders += run.placed;
        sides[side].seconds += run.seconds;
        sides[side].failed += run.failed;
        sides[side].failures.push(...run.failures.slice(0, 2));
        runs[side] = run.ordersPerSec;
      }
      ratios.push(runs.api / runs.page);
    }
    const apiRate = sides.api.orders / sides.api.seconds;
    const pageRate = sides.page.orders / sides.page.seconds;
    const failures = [...sides.api.failures, ...sides.page.failures].slice(0, 3).join(" | ");
    ctx.log(
      `  ${label}: Place Order ${Math.round(apiRate)}/s through the API, ${Math.round(pageRate)}/s through the page: ${(apiRate / pageRate).toFixed(2)}× (median burst ${median(ratios)?.toFixed(2)}×), ${sides.api.failed + sides.page.failed} failed ${failures}`,
    );
    return [
      {
        section: S,
        metric: `${label} Place Order through the page (POST /checkout), interleaved`,
        value: pageRate,
        unit: "orders/s",
        digits: 0,
        note: `${sides.page.orders} orders in ${sides.page.seconds.toFixed(1)} s, ${C} connections; ${sides.page.failed} failed`,
      },
      {
        section: S,
        metric: `${label} Place Order through the Store API (POST …/checkout), interleaved`,
        value: apiRate,
        unit: "orders/s",
        digits: 0,
        note: `${sides.api.orders} orders in ${sides.api.seconds.toFixed(1)} s; ${sides.api.failed} failed`,
      },
      {
        section: S,
        metric: `${label} Place Order through the API / through the page`,
        value: apiRate / pageRate,
        unit: "×",
        digits: 2,
        note: `${BURSTS} bursts of ${BURST_ORDERS} each; median burst ratio ${median(ratios)?.toFixed(2)}×`,
      },
    ];
  } finally {
    await db.destroy();
    await shop.stop();
  }
}

/** The p50/p95 of `runs` requests per URL maker, taking turns (after 10 turns of warm-up). */
async function timeInTurns(
  agent: Agent,
  makers: Array<(i: number) => { url: string; headers: Record<string, string> }>,
  runs: number,
) {
  const samples = makers.map((): number[] => []);
  const statuses = makers.map(() => new Map<number, number>());
  for (let turn = 0; turn < runs + 10; turn++) {
    for (const [k, make] of makers.entries()) {
      const { url, headers } = make(turn);
      const started = performance.now();
      const reply = await send(agent, url, "GET", headers);
      const ms = performance.now() - started;
      statuses[k]!.set(reply.status, (statuses[k]!.get(reply.status) ?? 0) + 1);
      if (turn >= 10) samples[k]!.push(ms);
    }
  }
  return samples.map((list, k) => {
    list.sort((a, b) => a - b);
    return {
      p50: percentile(list, 0.5),
      p95: percentile(list, 0.95),
      statuses: Object.fromEntries(statuses[k]!),
    };
  });
}

async function listingRows(ctx: BenchContext): Promise<Row[]> {
  const k = CATALOG_SIZE >= 1_000_000 ? `${CATALOG_SIZE / 1_000_000}M` : `${CATALOG_SIZE / 1000}k`;
  const dir = join(ctx.tmpDir, `api-catalog-${CATALOG_SIZE}`);
  mkdirSync(dir, { recursive: true });
  const { db } = await prepareCatalog(join(dir, "cartwheel.db"), CATALOG_SIZE, ctx.log);
  let key: string;
  try {
    key = await publishableKey(db);
  } finally {
    await db.destroy();
  }
  const build = await ctx.build();
  let shop: ShopServer | null = null;
  const unregister = onCleanup(() => shop?.stop());
  try {
    shop = await startShop(ctx.root, build.dir, dir, [], { SEED_ON_EMPTY: "false", ...ENV }, "/healthz");
    const agent = keepAliveAgent(1);
    try {
      // the shop builds its search index after start: wait until a search is answered from it
      const waitStarted = performance.now();
      for (;;) {
        const started = performance.now();
        await send(agent, `${shop.url}/api/v1/store/products?search=wireless`, "GET", {
          authorization: `Bearer ${key}`,
        });
        if (performance.now() - started < 100 || performance.now() - waitStarted > 180_000) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      ctx.log(`  ${k}: index ready after ${((performance.now() - waitStarted) / 1000).toFixed(0)} s`);
      const shapes = [
        {
          label: "category + price + sort",
          query: (i: number) => `category=clothing&sort=price-asc&minPrice=${i + 1}`,
        },
        { label: "search 'wireless' + price", query: (i: number) => `search=wireless&minPrice=${i + 1}` },
      ];
      const rows: Row[] = [];
      for (const shape of shapes) {
        const url = shop.url;
        const [api, page] = await timeInTurns(
          agent,
          [
            (i) => ({
              url: `${url}/api/v1/store/products?${shape.query(i)}`,
              headers: { authorization: `Bearer ${key}`, accept: "application/json" },
            }),
            (i) => ({ url: `${url}/products?${shape.query(i)}`, headers: { accept: "text/html" } }),
          ],
          LISTING_RUNS,
        );
        ctx.log(
          `  ${k} ${shape.label}: API p50 ${api!.p50?.toFixed(1)} p95 ${api!.p95?.toFixed(1)} ms (${JSON.stringify(api!.statuses)}), page p50 ${page!.p50?.toFixed(1)} p95 ${page!.p95?.toFixed(1)} ms (${JSON.stringify(page!.statuses)})`,
        );
        rows.push(
          {
            section: S,
            metric: `${k} products: GET /api/v1/store/products (${shape.label}) p95`,
            value: api!.p95,
            unit: "ms",
            digits: 1,
            note: `p50 ${api!.p50?.toFixed(1)} ms; ${LISTING_RUNS} distinct URLs, sequential, statuses ${JSON.stringify(api!.statuses)}`,
          },
          {
            section: S,
            metric: `${k} products: GET /products page (${shape.label}) p95`,
            value: page!.p95,
            unit: "ms",
            digits: 1,
            note: `p50 ${page!.p50?.toFixed(1)} ms; the same filters, taking turns with the API; statuses ${JSON.stringify(page!.statuses)}`,
          },
          {
            section: S,
            metric: `${k} products: API / page p95 (${shape.label})`,
            value: api!.p95 !== null && page!.p95 ? api!.p95 / page!.p95 : null,
            unit: "×",
            digits: 2,
          },
        );
      }
      return rows;
    } finally {
      agent.destroy();
    }
  } finally {
    unregister();
    await shop?.stop();
  }
}

export const api: Section = {
  name: "api",
  description:
    "the REST API beside the pages: Place Order through the Store API vs the checkout page (both engines), a page of products at 1M through the API vs /products",
  async run(ctx) {
    const rows: Row[] = [];
    const engines = (process.env.BENCH_API_ENGINES ?? "sqlite,postgres").split(",") as Engine[];
    const parts = (process.env.BENCH_API_PARTS ?? "checkout,listing").split(",");
    if (parts.includes("checkout")) {
      for (const engine of engines) {
        try {
          rows.push(
            ...(engine === "sqlite"
              ? await placeOrderRows(ctx, engine, `file:${join(ctx.tmpDir, "api-sqlite", "cartwheel.db")}`)
              : await withPostgresDatabase(ctx, (url) => placeOrderRows(ctx, engine, url))),
          );
        } catch (error) {
          ctx.log(`  ${LABEL[engine]} FAILED: ${error instanceof Error ? error.message : String(error)}`);
          rows.push({
            section: S,
            metric: `${LABEL[engine]} Place Order through the API`,
            value: null,
            unit: "orders/s",
            note: "could not run",
          });
        }
      }
    }
    if (parts.includes("listing")) {
      try {
        rows.push(...(await listingRows(ctx)));
      } catch (error) {
        ctx.log(`  listing FAILED: ${error instanceof Error ? error.message : String(error)}`);
        rows.push({
          section: S,
          metric: "GET a page of products through the API",
          value: null,
          unit: "ms",
          note: "could not run",
        });
      }
    }
    return { rows, data: {} };
  },
};
