/**
 * The build under test and the production shop server.
 *
 * Other sessions may rebuild build/ while a benchmark runs, so each run works on a private,
 * consistent copy: bench/.build/<stamp>/ (git-ignored; inside the project so the server bundle
 * still resolves node_modules). The server runs from that copy via BUILD_DIR, and the bundle and
 * Lighthouse sections read assets from it too.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { freePort, spawnTracked, type Tracked, waitFor200 } from "./procs.ts";

export interface BuildInfo {
  dir: string;
  /** "snapshot of build/" or "fresh build (--build)" */
  source: string;
  /** .br/.gz files beside the hashed assets (written by `npm run build`'s precompress step) */
  precompressed: boolean;
  builtAt: string;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function npmBuild(root: string, buildDir: string | undefined, log: (m: string) => void) {
  const started = performance.now();
  const env = { ...process.env, ...(buildDir ? { BUILD_DIR: buildDir } : {}) };
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, encoding: "utf8", env });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`npm run build failed (exit ${result.status}):\n${output}`);
  }
  log(`build done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Every /assets/* file the server bundle names exists in client/assets (i.e. not mid-rebuild). */
function consistent(dir: string): boolean {
  const serverBuild = join(dir, "server/index.js");
  if (!existsSync(serverBuild)) return false;
  const names = new Set(readFileSync(serverBuild, "utf8").match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? []);
  // client assets, or server chunks (`./assets/…` imports, e.g. the S3 file store loaded on demand)
  return (
    names.size > 0 &&
    [...names].every((name) => existsSync(join(dir, "client", name)) || existsSync(join(dir, "server", name)))
  );
}

export async function prepareBuild(
  root: string,
  stamp: string,
  force: boolean,
  log: (m: string) => void,
): Promise<BuildInfo> {
  const dir = join(root, "bench/.build", stamp);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(root, "bench/.build"), { recursive: true });
  let source: string;
  if (force) {
    log(`--build: building the current sources into ${dir.replace(`${root}/`, "")}…`);
    npmBuild(root, dir, log);
    source = "fresh build (--build)";
  } else {
    // BENCH_BUILD_DIR: measure another existing build (e.g. one made earlier with BUILD_DIR=…)
    const shared = process.env.BENCH_BUILD_DIR
      ? resolve(root, process.env.BENCH_BUILD_DIR)
      : join(root, "build");
    const label = shared.startsWith(`${root}/`) ? shared.slice(root.length + 1) : shared;
    if (process.env.BENCH_BUILD_DIR && !existsSync(join(shared, "server/index.js"))) {
      throw new Error(`BENCH_BUILD_DIR=${process.env.BENCH_BUILD_DIR} has no server/index.js`);
    }
    if (!existsSync(join(shared, "server/index.js"))) {
      log("no build/server/index.js: running npm run build…");
      npmBuild(root, undefined, log);
    }
    const sources = Math.max(newestMtime(join(root, "app")), statSync(join(root, "vite.config.ts")).mtimeMs);
    if (sources > statSync(join(shared, "server/index.js")).mtimeMs + 1000) {
      log(
        `warning: app/ has files newer than ${label}/ — measuring the existing build (use --build for a fresh one)`,
      );
    }
    // build/ may be rewritten by a concurrent `npm run build`: copy until the copy is consistent.
    for (let attempt = 1; ; attempt++) {
      rmSync(dir, { recursive: true, force: true });
      // build/ is a link to the current version (scripts/build.ts): copy what it points at
      cpSync(realpathSync(shared), dir, { recursive: true });
      if (consistent(dir)) break;
      if (attempt >= 15)
        throw new Error("build/ stayed inconsistent (a rebuild in progress?); retry or use --build");
      log("build/ is being rewritten; retrying the snapshot in 2 s…");
      await new Promise((r) => setTimeout(r, 2_000));
    }
    source = `snapshot of ${label}/`;
  }
  if (!consistent(dir)) throw new Error(`build at ${dir} is incomplete`);
  const assets = readdirSync(join(dir, "client/assets"));
  return {
    dir,
    source,
    precompressed: assets.some((n) => n.endsWith(".js.br")) && assets.some((n) => n.endsWith(".js.gz")),
    builtAt: statSync(join(dir, "server/index.js")).mtime.toISOString(),
  };
}

export interface ShopServer {
  url: string;
  port: number;
  dataDir: string;
  proc: Tracked;
  /** Spawn → first 200 on / (empty data dir: migrations + demo seed + first render). */
  startupMs: number;
  stop(): Promise<void>;
}

export async function startShop(
  root: string,
  buildDir: string,
  dataDir: string,
  extraArgs: string[] = [],
  /** overrides, applied last (e.g. DATABASE_URL=postgres://…, PAYMENT_DELAY_MS=0, SEED_ON_EMPTY=false) */
  extraEnv: Record<string, string> = {},
  /** the page whose first 200 means "started" */
  readyPath = "/",
): Promise<ShopServer> {
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    CARTWHEEL_LOCAL: "true",
    BUILD_DIR: buildDir,
    HOST: "127.0.0.1",
    PORT: String(port),
    // Canonical/og:url follow PUBLIC_URL; make it the origin Lighthouse loads, as in a deployment.
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${join(dataDir, "cartwheel.db")}`,
    FILE_STORE_URL: `file:${join(dataDir, "uploads")}`,
    MAIL_URL: `file:${join(dataDir, "mail")}`,
    LOG_LEVEL: "warn",
    // as `npm start` runs it (package.json): two malloc arenas, not one per thread (README, Operations)
    MALLOC_ARENA_MAX: "2",
    ...extraEnv,
  };
  const spawned = performance.now();
  const proc = spawnTracked(process.execPath, [...extraArgs, "server/main.ts"], { cwd: root, env });
  const ready = await waitFor200(`${url}${readyPath}`, proc, 120_000);
  return { url, port, dataDir, proc, startupMs: ready - spawned, stop: () => proc.stop() };
}
