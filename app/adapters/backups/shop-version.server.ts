import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

/**
 * The running shop's version for a backup's manifest: package.json's `version` (found by walking
 * up from this module, in the sources and in the bundled build alike) and the git commit of that
 * checkout when it is one and git is installed (null otherwise, e.g. in the container image).
 */
export interface ShopVersion {
  version: string;
  commit: string | null;
}

let known: Promise<ShopVersion> | undefined;

export function shopVersion(): Promise<ShopVersion> {
  known ??= (async () => {
    let directory = import.meta.dirname;
    for (;;) {
      const file = join(directory, "package.json");
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
        if (pkg.name === "cartwheel")
          return { version: pkg.version ?? "0.0.0", commit: await gitCommit(directory) };
      }
      const parent = dirname(directory);
      if (parent === directory) return { version: "unknown", commit: null };
      directory = parent;
    }
  })();
  return known;
}

async function gitCommit(directory: string): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)("git", ["rev-parse", "HEAD"], {
      cwd: directory,
      timeout: 5_000,
    });
    const commit = stdout.trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
