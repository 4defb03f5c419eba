import { execSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The production build the in-process and spawned-server tests run against: `build/` (a link to
 * the current version, scripts/build.ts), built with `npm run build` when missing or older than
 * the app's sources. CI builds once before the tests, so there it is only checked.
 */
export const ROOT = resolve(import.meta.dirname, "../..");
const BUILD_LINK = join(ROOT, "build");

/** Newest modification time of the source files under `path` (tests left out). */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds if needed; returns the build's real directory (stable while another build switches in). */
export function ensureBuild(): string {
  const serverBuild = join(BUILD_LINK, "server", "index.js");
  const sources = [join(ROOT, "app"), join(ROOT, "vite.config.ts"), join(ROOT, "react-router.config.ts")];
  const stale =
    !existsSync(serverBuild) || Math.max(...sources.map(newestMtime)) > statSync(serverBuild).mtimeMs;
  if (stale) {
    execSync("npm run build --silent", {
      cwd: ROOT,
      stdio: "pipe",
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: BUILD_LINK },
    });
  }
  return realpathSync(BUILD_LINK);
}
