/**
 * http: SSR throughput of GET / under autocannon, as a ratio against plain node:http sending the
 * exact same bytes. Servers and autocannon are separate processes; targets are loaded one after
 * the other so they never compete for the 2 cores.
 *
 * Visitors without cookies get / from the shop's page cache (decision 010), so the main figure is
 * that; the same page rendered on every request (a Cookie header bypasses the cache) is measured
 * and reported next to it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mainThreadProfile, summarise } from "../lib/cpuprofile.ts";
import { httpGet, spawnTracked, waitForListening } from "../lib/procs.ts";
import { startShop } from "../lib/shop.ts";
import type { BenchContext, Row, Section } from "../lib/types.ts";

interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
  total?: number;
}
interface AutocannonJson {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  duration: number;
}

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerSec: number;
}

/** Runs autocannon in its own process and parses its JSON summary. */
export async function autocannon(
  ctx: BenchContext,
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const bin = join(ctx.root, "node_modules/autocannon/autocannon.js");
  const args = [bin, "-c", String(ctx.opts.connections), "-d", String(seconds), "-j"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push(url);
  const proc = spawnTracked(process.execPath, args, { cwd: ctx.root });
  let stdout = "";
  proc.child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  const code = await proc.exited;
  const line = stdout.trim().split("\n").pop() ?? "";
  if (code !== 0 || !line.startsWith("{"))
    throw new Error(`autocannon failed (exit ${code}):\n${proc.output()}`);
  const json = JSON.parse(line) as AutocannonJson;
  return {
    reqPerSec: json.requests.average,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    meanMs: json.latency.average,
    requests: json.requests.total ?? 0,
    ok2xx: json["2xx"],
    non2xx: json.non2xx,
    errors: json.errors,
    timeouts: json.timeouts,
    bytesPerSec: json.throughput.average,
  };
}

async function load(
  ctx: BenchContext,
  label: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  if (ctx.opts.warmup > 0) {
    ctx.log(`  ${label}: warm-up ${ctx.opts.warmup} s`);
    await autocannon(ctx, url, ctx.opts.warmup, headers);
  }
  ctx.log(`  ${label}: ${ctx.opts.duration} s × ${ctx.opts.connections} connections`);
  const result = await autocannon(ctx, url, ctx.opts.duration, headers);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    ctx.log(
      `  ${label}: warning: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * --profile: a second shop (fresh data dir) under `node --cpu-prof`, loaded like the measured one;
 * the V8 profile is cut to the load window and summarised (self time by package and function).
 */
async function profileShop(ctx: BenchContext) {
  const build = await ctx.build();
  const dir = join(ctx.reportsDir, "cpu");
  mkdirSync(dir, { recursive: true });
  ctx.log("  profile: starting a second shop under --cpu-prof");
  const shop = await startShop(ctx.root, build.dir, join(ctx.tmpDir, "profile-data"), [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
  ]);
  let result: LoadResult;
  let window: { fromUs: number; toUs: number };
  try {
    ctx.log(`  profile: warm-up ${ctx.opts.warmup} s, then ${ctx.opts.duration} s of load`);
    if (ctx.opts.warmup > 0) await autocannon(ctx, `${shop.url}/`, ctx.opts.warmup);
    const fromUs = nowUs();
    result = await autocannon(ctx, `${shop.url}/`, ctx.opts.duration);
    window = { fromUs, toUs: nowUs() };
  } finally {
    await shop.stop(); // the profile is written on exit
  }
  const file = mainThreadProfile(dir);
  const summary = summarise(file, ctx.root, window, 12);
  const cpuMsPerRequest = result.requests > 0 ? summary.busyMs / result.requests : null;
  ctx.log(`  profile: ${summary.busyMs} ms busy for ${result.requests} requests; self time by package:`);
  for (const h of summary.byOwner.slice(0, 8)) ctx.log(`    ${String(h.percent).padStart(5)}%  ${h.name}`);
  ctx.log("  profile: hottest functions:");
  for (const h of summary.byFunction.slice(0, 8)) ctx.log(`    ${String(h.percent).padStart(5)}%  ${h.name}`);
  return {
    file: file.replace(`${ctx.root}/`, ""),
    reqPerSecUnderProfiler: Math.round(result.reqPerSec),
    requests: result.requests,
    cpuMsPerRequest: cpuMsPerRequest === null ? null : Math.round(cpuMsPerRequest * 100) / 100,
    ...summary,
  };
}

export const http: Section = {
  name: "http",
  description: "GET / req/s and latency under autocannon vs node:http serving the same bytes",
  async run(ctx) {
    const shop = await ctx.shop();
    const page = await ctx.fetchHome();
    if (page.status !== 200) throw new Error(`GET / answered ${page.status}`);

    const bodyFile = join(ctx.tmpDir, "home.html");
    writeFileSync(bodyFile, page.bytes);
    const ref = spawnTracked(
      process.execPath,
      [join(ctx.root, "bench/servers/fixed-bytes.ts"), bodyFile, page.contentType],
      {
        cwd: ctx.root,
      },
    );
    const refPort = await waitForListening(ref);
    const refUrl = `http://127.0.0.1:${refPort}/`;

    try {
      // as autocannon asks (no User-Agent; fetch's "node" would count as a crawler, cached apart)
      const cacheState = String((await httpGet(`${shop.url}/`)).headers["x-cache"] ?? "none");
      const shopResult = await load(ctx, "shop", `${shop.url}/`);
      const refResult = await load(ctx, "reference", refUrl);
      const renderedResult = await load(ctx, "shop rendering every request (Cookie header)", `${shop.url}/`, {
        cookie: "cw_bench=1",
      });
      // What browsers cost: the same page compressed on the fly (informational, no reference).
      const gzipResult = await load(ctx, "shop with Accept-Encoding: gzip", `${shop.url}/`, {
        "accept-encoding": "gzip",
      });
      const ratio = shopResult.reqPerSec / refResult.reqPerSec;
      const s = "http";
      const rows: Row[] = [
        {
          section: s,
          metric: "shop GET / throughput",
          value: shopResult.reqPerSec,
          unit: "req/s",
          digits: 0,
          note: `page cache: X-Cache ${cacheState} on a second GET /`,
        },
        { section: s, metric: "shop GET / latency p50", value: shopResult.p50Ms, unit: "ms", digits: 1 },
        { section: s, metric: "shop GET / latency p99", value: shopResult.p99Ms, unit: "ms", digits: 1 },
        {
          section: s,
          metric: "reference (node:http, same bytes) throughput",
          value: refResult.reqPerSec,
          unit: "req/s",
          digits: 0,
        },
        { section: s, metric: "reference latency p50", value: refResult.p50Ms, unit: "ms", digits: 1 },
        { section: s, metric: "reference latency p99", value: refResult.p99Ms, unit: "ms", digits: 1 },
        {
          section: s,
          metric: "SSR throughput ratio shop / reference",
          value: ratio,
          unit: "×",
          digits: 3,
          target: { op: ">=", value: 0.05 },
        },
        {
          section: s,
          metric: "shop GET / rendered on every request (Cookie: page cache bypassed)",
          value: renderedResult.reqPerSec,
          unit: "req/s",
          digits: 0,
          note: `p50 ${renderedResult.p50Ms} ms, p99 ${renderedResult.p99Ms} ms`,
        },
        {
          section: s,
          metric: "rendered-every-request ratio shop / reference",
          value: renderedResult.reqPerSec / refResult.reqPerSec,
          unit: "×",
          digits: 3,
        },
        {
          section: s,
          metric: "shop GET / with Accept-Encoding: gzip (as browsers ask)",
          value: gzipResult.reqPerSec,
          unit: "req/s",
          digits: 0,
          note: `p50 ${gzipResult.p50Ms} ms, p99 ${gzipResult.p99Ms} ms`,
        },
      ];
      if (shopResult.non2xx + shopResult.errors + shopResult.timeouts > 0) {
        const last = rows[0];
        if (last)
          last.note = `${shopResult.non2xx} non-2xx, ${shopResult.errors} errors, ${shopResult.timeouts} timeouts`;
      }
      // The listing and a product page, each against node:http serving that page's own bytes.
      const pages: Record<string, unknown> = {};
      for (const path of ["/products", "/products/kestrel-x12-smartphone"]) {
        const response = await fetch(`${shop.url}${path}`, { headers: { "accept-encoding": "identity" } });
        if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
        const file = join(ctx.tmpDir, `page-${Object.keys(pages).length}.html`);
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        const pageRef = spawnTracked(
          process.execPath,
          [
            join(ctx.root, "bench/servers/fixed-bytes.ts"),
            file,
            response.headers.get("content-type") ?? "text/html",
          ],
          { cwd: ctx.root },
        );
        try {
          const port = await waitForListening(pageRef);
          const shopPage = await load(ctx, `shop ${path}`, `${shop.url}${path}`);
          const refPage = await load(ctx, `reference ${path}`, `http://127.0.0.1:${port}/`);
          pages[path] = { shop: round(shopPage), reference: round(refPage) };
          rows.push(
            {
              section: s,
              metric: `shop GET ${path} throughput`,
              value: shopPage.reqPerSec,
              unit: "req/s",
              digits: 0,
              note: `p50 ${shopPage.p50Ms} ms, p99 ${shopPage.p99Ms} ms`,
            },
            {
              section: s,
              metric: `GET ${path} ratio shop / reference (same bytes)`,
              value: shopPage.reqPerSec / refPage.reqPerSec,
              unit: "×",
              digits: 3,
              note: `reference ${Math.round(refPage.reqPerSec)} req/s`,
            },
          );
        } finally {
          await pageRef.stop();
        }
      }
      const profile = ctx.opts.profile ? await profileShop(ctx) : undefined;
      if (profile) {
        rows.push({
          section: s,
          metric: "shop CPU per request (--profile run)",
          value: profile.cpuMsPerRequest,
          unit: "ms",
          digits: 2,
          note: profile.byOwner
            .slice(0, 4)
            .map((h) => `${h.name} ${h.percent}%`)
            .join(", "),
        });
      }
      return {
        rows,
        data: {
          ...(profile ? { profile } : {}),
          connections: ctx.opts.connections,
          durationS: ctx.opts.duration,
          warmupS: ctx.opts.warmup,
          pageBytes: page.bytes.length,
          contentType: page.contentType,
          shop: round(shopResult),
          reference: round(refResult),
          shopGzip: round(gzipResult),
          shopRenderedEveryRequest: round(renderedResult),
          ratio: Number(ratio.toFixed(4)),
          pages,
        },
      };
    } finally {
      await ref.stop();
    }
  },
};

function round(r: LoadResult) {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 100) / 100]));
}
