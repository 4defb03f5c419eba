/**
 * metrics: what /metrics costs the shop (decision 027). Two production shops of their own on the
 * same build, each on a fresh SQLite data dir with the demo catalogue: one with metrics off (the
 * default), one with METRICS_TOKEN set (every request counted and timed by route pattern, every
 * statement timed, Node's default metrics collected). Each page is loaded on one, then the other,
 * then the other again, then the first (ABBA, so a machine that gets busier mid-run moves both
 * sides alike), after a warm-up load of each (a process's first load runs colder code), in
 * several rounds (alternately ABBA and BAAB); each round's pages/s on is divided by its pages/s
 * off, and the median of the rounds is the figure. Target ≥ 0.95×. The pages: GET / from the
 * page cache (the cheapest page, where a fixed cost per request shows most) and GET /products
 * rendered on every request (a Cookie header bypasses the cache). A scrape of /metrics is timed
 * too (informational).
 */
import { join } from "node:path";
import { httpGet } from "../lib/procs.ts";
import { type ShopServer, startShop } from "../lib/shop.ts";
import type { BenchContext, Row, Section } from "../lib/types.ts";
import { autocannon, type LoadResult } from "./http.ts";

const S = "metrics";
const TOKEN = "bench-metrics-token-0123456789";
const TARGET = 0.95;
/** ABBA rounds per page (BENCH_METRICS_ROUNDS) */
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 4);

const PAGES: { label: string; path: string; headers: Record<string, string> }[] = [
  { label: "GET / (page cache)", path: "/", headers: {} },
  { label: "GET /products (rendered)", path: "/products", headers: { cookie: "cw_bench=1" } },
];

async function measure(
  ctx: BenchContext,
  shop: ShopServer,
  path: string,
  headers: Record<string, string>,
  seconds: number,
) {
  if (ctx.opts.warmup > 0) await autocannon(ctx, `${shop.url}${path}`, ctx.opts.warmup, headers);
  const result = await autocannon(ctx, `${shop.url}${path}`, seconds, headers);
  if (result.non2xx > 0 || result.errors > 0) {
    ctx.log(`  warning: ${result.non2xx} non-2xx, ${result.errors} errors on ${path}`);
  }
  return result;
}

const mean = (results: LoadResult[]) => results.reduce((sum, r) => sum + r.reqPerSec, 0) / results.length;

export const metrics: Section = {
  name: "metrics",
  description: "pages/s with /metrics on (METRICS_TOKEN) vs off, two shops in the same run (target ≥ 0.95×)",
  async run(ctx) {
    const build = await ctx.build();
    ctx.log("  starting a shop with metrics off and one with metrics on…");
    const off = await startShop(ctx.root, build.dir, join(ctx.tmpDir, "metrics-off"));
    const on = await startShop(ctx.root, build.dir, join(ctx.tmpDir, "metrics-on"), [], {
      METRICS_TOKEN: TOKEN,
    });
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    try {
      for (const page of PAGES) {
        // each process's first load of a page runs colder code than the rest: both warmed first
        for (const shop of [off, on]) {
          await autocannon(ctx, `${shop.url}${page.path}`, Math.max(3, ctx.opts.warmup * 2), page.headers);
        }
        const offRuns: LoadResult[] = [];
        const onRuns: LoadResult[] = [];
        // ROUNDS of ABBA, each run half the duration: the ratio of each round (its two runs of a
        // side side by side in time) and their median, so a machine whose speed wanders over a
        // minute (a shared VM's does, by up to 30 %) moves both sides of a round alike
        const ratios: number[] = [];
        const seconds = Math.max(3, Math.round(ctx.opts.duration / 2));
        for (let round = 0; round < ROUNDS; round++) {
          const rates = { off: 0, on: 0 };
          const order =
            round % 2 === 0 ? (["off", "on", "on", "off"] as const) : (["on", "off", "off", "on"] as const);
          for (const side of order) {
            ctx.log(
              `  ${page.label}, round ${round + 1}, metrics ${side}: ${seconds} s × ${ctx.opts.connections} connections`,
            );
            const result = await measure(ctx, side === "on" ? on : off, page.path, page.headers, seconds);
            (side === "on" ? onRuns : offRuns).push(result);
            rates[side] += result.reqPerSec;
          }
          ratios.push(rates.on / rates.off);
        }
        const offRate = mean(offRuns);
        const onRate = mean(onRuns);
        const sorted = [...ratios].sort((a, b) => a - b);
        const median = (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
        rows.push(
          { section: S, metric: `${page.label}, metrics off`, value: offRate, unit: "pages/s", digits: 0 },
          { section: S, metric: `${page.label}, metrics on`, value: onRate, unit: "pages/s", digits: 0 },
          {
            section: S,
            metric: `${page.label}: on ÷ off (median of ${ROUNDS} ABBA rounds)`,
            value: median,
            unit: "×",
            digits: 3,
            target: { op: ">=", value: TARGET },
            note: `rounds ${ratios.map((r) => r.toFixed(3)).join(", ")}; all runs ${(onRate / offRate).toFixed(3)}×`,
          },
        );
        data[page.path] = {
          off: offRuns.map((r) => ({ reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms })),
          on: onRuns.map((r) => ({ reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms })),
        };
      }
      // one scrape, as Prometheus would make it every 15 s or so
      const started = performance.now();
      const scrape = await httpGet(`${on.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
      const scrapeMs = performance.now() - started;
      rows.push({
        section: S,
        metric: "one scrape of /metrics",
        value: scrapeMs,
        unit: "ms",
        digits: 1,
        note: `${scrape.status}, ${(scrape.body.length / 1024).toFixed(1)} KB`,
      });
      data.scrape = { status: scrape.status, bytes: scrape.body.length, ms: scrapeMs };
    } finally {
      await Promise.all([off.stop(), on.stop()]);
    }
    return { rows, data };
  },
};
