/**
 * `npm run bench [-- --only http,lighthouse] [--duration 10] [--connections 10] [--warmup 2]
 *                [--lighthouse-runs 1] [--build] [--profile] [--keep] [--list]`
 *
 * Runs the benchmark sections in order against a production build of the shop, each figure beside
 * a reference measured in the same run, and writes bench/results/<timestamp>.json and
 * bench/results/latest.json. Targets are reported, never asserted: the exit code is non-zero only
 * when a section could not run.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { busyPercent, load1 } from "./lib/machine.ts";
import { cleanupAll, httpGet, installExitHandlers, onCleanup, wasInterrupted } from "./lib/procs.ts";
import { meets, table } from "./lib/report.ts";
import { type BuildInfo, prepareBuild, type ShopServer, startShop } from "./lib/shop.ts";
import type { BenchContext, BenchOptions, HomePage, Row } from "./lib/types.ts";
import { sections } from "./sections/index.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const log = (message: string) =>
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    skip: { type: "string" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    "lighthouse-runs": { type: "string", default: "1" },
    build: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    list: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help || values.list) {
  console.log("Sections (in run order):");
  for (const s of sections) console.log(`  ${s.name.padEnd(12)} ${s.description}`);
  console.log(
    "\nOptions: --only a,b  --skip a,b  --duration S (10)  --connections N (10)  --warmup S (2)\n" +
      "         --lighthouse-runs N (1; median by performance score)  --build (fresh build of the current sources)\n" +
      "         --profile (http: also profile the shop under load with --cpu-prof)  --keep (keep temp dirs)",
  );
  process.exit(0);
}

const names = new Set(sections.map((s) => s.name));
const pick = (list: string | undefined) =>
  list
    ? list
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
for (const name of [...pick(values.only), ...pick(values.skip)]) {
  if (!names.has(name)) {
    console.error(`unknown section "${name}"; sections: ${[...names].join(", ")}`);
    process.exit(2);
  }
}
const only = pick(values.only);
const skip = new Set(pick(values.skip));
const selected = sections.filter((s) => (only.length === 0 || only.includes(s.name)) && !skip.has(s.name));

const positive = (name: string, raw: string | undefined, min: number) => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${min}`);
    process.exit(2);
  }
  return n;
};
const opts: BenchOptions = {
  duration: positive("duration", values.duration, 1),
  connections: positive("connections", values.connections, 1),
  warmup: positive("warmup", values.warmup, 0),
  lighthouseRuns: positive("lighthouse-runs", values["lighthouse-runs"], 1),
  build: values.build ?? false,
  keep: values.keep ?? false,
  profile: values.profile ?? false,
};

const stamp = new Date()
  .toISOString()
  .replace(/:/g, "-")
  .replace(/\.\d+Z$/, "Z");
// BENCH_RESULTS_DIR: elsewhere (the checkout section's own rounds write theirs to a temp dir)
const resultsDir = process.env.BENCH_RESULTS_DIR ?? join(root, "bench/results");
const tmpDir = mkdtempSync(join(tmpdir(), "cartwheel-bench-"));

installExitHandlers();
onCleanup(() => {
  if (opts.keep) log(`kept temp dir ${tmpDir}`);
  else rmSync(tmpDir, { recursive: true, force: true });
});

let buildPromise: Promise<BuildInfo> | undefined;
let shopPromise: Promise<ShopServer> | undefined;
let homePromise: Promise<HomePage> | undefined;
const ctx: BenchContext = {
  root,
  opts,
  tmpDir,
  reportsDir: join(resultsDir, "reports", stamp),
  log,
  build() {
    buildPromise ??= (async () => {
      const build = await prepareBuild(root, stamp, opts.build, log);
      onCleanup(() => {
        if (opts.keep) return;
        rmSync(build.dir, { recursive: true, force: true });
        try {
          rmdirSync(dirname(build.dir)); // bench/.build, when no other run is using it
        } catch {}
      });
      return build;
    })();
    return buildPromise;
  },
  shop() {
    shopPromise ??= (async () => {
      const build = await ctx.build();
      log("starting the production shop on an empty data dir…");
      const shop = await startShop(root, build.dir, join(tmpDir, "shop-data"));
      onCleanup(() => shop.stop());
      log(`shop ready at ${shop.url} after ${Math.round(shop.startupMs)} ms`);
      return shop;
    })();
    return shopPromise;
  },
  fetchHome() {
    homePromise ??= (async () => {
      const shop = await ctx.shop();
      const url = `${shop.url}/`;
      const res = await httpGet(url); // no Accept-Encoding: the uncompressed bytes
      const contentType = String(res.headers["content-type"] ?? "text/html; charset=utf-8");
      return { url, status: res.status, contentType, bytes: res.body };
    })();
    return homePromise;
  },
};

function git(args: string[]) {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

async function main() {
  log(`sections: ${selected.map((s) => s.name).join(", ")}`);
  const busyBefore = await busyPercent();
  const loadBefore = load1();
  log(`machine: ${busyBefore}% CPU busy before the run, load average ${loadBefore}`);
  if (busyBefore > 20) {
    log("warning: other work is using the CPU — absolute figures and ratios will be noisy");
  }
  const rows: Row[] = [];
  const results: Record<string, unknown> = {};
  let failed = 0;
  for (const section of selected) {
    log(`── ${section.name}: ${section.description}`);
    const t0 = performance.now();
    try {
      const result = await section.run(ctx);
      for (const row of result.rows) {
        if (row.target) row.pass = meets(row.value, row.target, row.digits ?? 3);
        rows.push(row);
      }
      results[section.name] = {
        ok: true,
        seconds: round1((performance.now() - t0) / 1000),
        loadAverageAfter: load1(),
        ...result.data,
      };
    } catch (error) {
      if (wasInterrupted()) return;
      failed++;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`${section.name} FAILED: ${message}`);
      results[section.name] = {
        ok: false,
        seconds: round1((performance.now() - t0) / 1000),
        error: String(message).slice(0, 2000),
      };
      rows.push({
        section: section.name,
        metric: "(section failed)",
        value: null,
        unit: "",
        note: String(error).slice(0, 120),
      });
    }
  }

  await cleanupAll();

  const output = {
    schema: 1,
    timestamp: new Date().toISOString(),
    totalSeconds: round1((performance.now() - started) / 1000),
    git: { commit: git(["rev-parse", "HEAD"]), dirty: (git(["status", "--porcelain"]) ?? "") !== "" },
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? "",
      busyPercentBeforeRun: busyBefore,
      loadAverageBeforeRun: loadBefore,
    },
    options: opts,
    sections: selected.map((s) => s.name),
    build: buildPromise
      ? await buildPromise.then(
          (b) => ({ source: b.source, builtAt: b.builtAt, precompressed: b.precompressed }),
          () => null,
        )
      : null,
    targetsMet: rows.filter((r) => r.target).every((r) => r.pass),
    rows: rows.map((r) => ({
      ...r,
      value: r.value === null ? null : Number(r.value.toFixed(Math.max(r.digits ?? 3, 3))),
    })),
    results,
  };
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(output, null, 2)}\n`;
  writeFileSync(join(resultsDir, `${stamp}.json`), json);
  writeFileSync(join(resultsDir, "latest.json"), json);

  console.log(
    `\nCartwheel benchmark — ${output.timestamp} — ${output.git.commit?.slice(0, 7) ?? "?"}${output.git.dirty ? "+dirty" : ""}, Node ${process.version}, ${output.machine.cpus} cores\n`,
  );
  console.log(table(rows));
  if (busyBefore > 20)
    console.log(
      `\n! the machine was ${busyBefore}% busy with other work when the run started (load ${loadBefore})`,
    );
  const withTarget = rows.filter((r) => r.target);
  console.log(
    `\n${withTarget.filter((r) => r.pass).length}/${withTarget.length} targets met · ${output.totalSeconds} s · bench/results/${stamp}.json (also latest.json)` +
      (selected.some((s) => s.name === "lighthouse")
        ? ` · full Lighthouse reports: ${join("bench/results/reports", stamp)}/`
        : ""),
  );
  process.exitCode = failed > 0 ? 1 : 0;
}

function round1(n: number) {
  return Math.round(n * 10) / 10;
}

main().catch(async (error) => {
  console.error(error);
  await cleanupAll();
  process.exit(1);
});
