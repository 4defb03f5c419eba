/**
 * memory: the shop process's resident memory (RSS) when it has started on an empty data dir
 * (migrations, demo seed, first render), at its peak and right after 5 000 mixed requests, and
 * settled after a minute without traffic — against a bare node:http process that served the same
 * number of requests (Node's own footprint, measured in the same run).
 *
 * The mix is what a shop sees, hostile visitors included: cached and rendered pages (a Cookie
 * header bypasses the page cache), listings with filters and searches, product pages and images,
 * cart adds, and requests the shop must refuse cheaply (4 MB form bodies, JSON bodies).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnTracked, waitForListening } from "../lib/procs.ts";
import { startShop } from "../lib/shop.ts";
import type { Row, Section } from "../lib/types.ts";

const REQUESTS = 5_000;
const CONCURRENCY = 8;
const SETTLE_MS = 60_000;

/** Resident memory of a process, in MB (Linux: /proc). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

type Probe = (base: string, i: number) => Promise<Response>;

/** The request mix, one probe per request in turn. */
function mix(paths: { products: string[]; images: string[] }): Probe[] {
  const get =
    (path: string, headers: Record<string, string> = {}) =>
    (base: string) =>
      fetch(`${base}${path}`, { headers, redirect: "manual" });
  const form = "application/x-www-form-urlencoded";
  return [
    get("/"),
    get("/", { Cookie: "cw_bench=1" }),
    get("/products"),
    get("/products?category=electronics&sort=price-asc", { Cookie: "cw_bench=1" }),
    (base, i) => fetch(`${base}/products?search=${["wireless", "pro", "set", "chair"][i % 4]}`),
    (base, i) =>
      fetch(`${base}${paths.products[i % paths.products.length]}`, { headers: { Cookie: "cw_bench=1" } }),
    (base, i) => fetch(`${base}${paths.images[i % paths.images.length]}`),
    get("/help/faq"),
    (base, i) =>
      fetch(`${base}/cart`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": form },
        body: `intent=add&productId=${1 + (i % 8)}&quantity=1`,
      }),
    (base) =>
      fetch(`${base}/contact`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "x".repeat(10_000) }),
      }),
    // 4 MB of form: refused by its declared length (413) before a byte is read
    (base) =>
      fetch(`${base}/cart`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": form },
        body: `intent=add&productId=1&pad=${"a".repeat(4 * 1024 * 1024)}`,
        signal: AbortSignal.timeout(10_000),
      }),
  ];
}

async function drive(
  base: string,
  probes: Probe[],
  pid: number,
): Promise<{ peakMb: number; failed: number }> {
  let next = 0;
  let peakMb = rssMb(pid);
  let failed = 0;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(pid));
  }, 100);
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      try {
        const response = await probes[i % probes.length]!(base, i);
        await response.arrayBuffer().catch(() => {});
        if (response.status >= 500) failed++;
      } catch {
        // a refused upload closes the connection before its body was sent: that is the point
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(sampler);
  return { peakMb: Math.max(peakMb, rssMb(pid)), failed };
}

export const memory: Section = {
  name: "memory",
  description:
    "shop RSS at start (empty data dir), peak and after 5 000 mixed requests, settled after 60 s idle",
  async run(ctx) {
    const build = await ctx.build();
    const shop = await startShop(ctx.root, build.dir, join(ctx.tmpDir, "memory-data"));
    const pid = shop.proc.child.pid!;
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // the search index's first build
      const startMb = rssMb(pid);
      const listing = await (await fetch(`${shop.url}/products`)).text();
      const products = [
        ...new Set([...listing.matchAll(/href="(\/products\/[a-z0-9-]+)"/g)].map((m) => m[1]!)),
      ];
      const images = [...new Set([...listing.matchAll(/src="(\/images\/[^"]+\.webp)"/g)].map((m) => m[1]!))];
      ctx.log(`  shop: ${startMb.toFixed(0)} MB at start; ${REQUESTS} mixed requests × ${CONCURRENCY}`);
      const { peakMb, failed } = await drive(shop.url, mix({ products, images }), pid);
      const afterMb = rssMb(pid);
      ctx.log(
        `  shop: peak ${peakMb.toFixed(0)} MB, ${afterMb.toFixed(0)} MB after; idle ${SETTLE_MS / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const settledMb = rssMb(pid);

      // the reference: node:http serving the home page's bytes as many times
      const body = join(ctx.tmpDir, "memory-home.html");
      writeFileSync(body, await (await fetch(`${shop.url}/`)).arrayBuffer().then((b) => Buffer.from(b)));
      const ref = spawnTracked(process.execPath, [join(ctx.root, "bench/servers/fixed-bytes.ts"), body]);
      let refMb: number;
      try {
        const port = await waitForListening(ref);
        await drive(`http://127.0.0.1:${port}`, [(base) => fetch(`${base}/`)], ref.child.pid!);
        refMb = rssMb(ref.child.pid!);
      } finally {
        await ref.stop();
      }

      const s = "memory";
      const rows: Row[] = [
        {
          section: s,
          metric: "shop RSS at start (empty data dir, seeded)",
          value: startMb,
          unit: "MB",
          digits: 0,
        },
        {
          section: s,
          metric: `shop RSS peak during ${REQUESTS} mixed requests`,
          value: peakMb,
          unit: "MB",
          digits: 0,
        },
        { section: s, metric: "shop RSS right after them", value: afterMb, unit: "MB", digits: 0 },
        {
          section: s,
          metric: `shop RSS settled (${SETTLE_MS / 1000} s idle)`,
          value: settledMb,
          unit: "MB",
          digits: 0,
          note: failed > 0 ? `${failed} requests answered 5xx` : undefined,
        },
        {
          section: s,
          metric: "reference: bare node:http after as many requests",
          value: refMb,
          unit: "MB",
          digits: 0,
        },
        {
          section: s,
          metric: "ratio settled / start",
          value: settledMb / startMb,
          unit: "×",
          digits: 2,
          target: { op: "<=", value: 1.25 },
        },
        {
          section: s,
          metric: "ratio start / reference",
          value: startMb / refMb,
          unit: "×",
          digits: 1,
        },
        {
          section: s,
          metric: "requests answered 5xx",
          value: failed,
          unit: "",
          digits: 0,
          target: { op: "=", value: 0 },
        },
      ];
      return {
        rows,
        data: {
          startMb: Math.round(startMb),
          peakMb: Math.round(peakMb),
          afterMb: Math.round(afterMb),
          settledMb: Math.round(settledMb),
          referenceMb: Math.round(refMb),
          failed,
        },
      };
    } finally {
      await shop.stop();
    }
  },
};
