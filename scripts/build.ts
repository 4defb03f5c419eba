/**
 * `npm run build`: the production build, switched into place atomically.
 *
 * The build is made in a fresh directory beside the target (`build`, or BUILD_DIR), e.g.
 * `.build-versions/2026-11-25T00-20-00-123Z-4242/`, and pre-compressed; only then is the target —
 * a symbolic link — pointed at it (scripts/build-switch.ts). A server already running resolved
 * the link when it started (server/main.ts), so it keeps serving its own bundle and assets while
 * a second `npm start` or `npm run build` in the same checkout builds.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { newVersionDir, switchBuild } from "./build-switch.ts";

const root = resolve(import.meta.dirname, "..");
const target = resolve(root, process.env.BUILD_DIR ?? "build");
const version = newVersionDir(target);

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, BUILD_DIR: version, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    rmSync(version, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
}

run(join(root, "node_modules/.bin/react-router"), ["build"]);
run(process.execPath, [join(root, "scripts/precompress.ts")]);
switchBuild(target, version);
console.log(`build: ${relative(root, target)} → ${relative(root, version)}`);
