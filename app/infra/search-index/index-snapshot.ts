import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { IndexParts } from "./index-parts.ts";

/**
 * The last index of a large catalogue kept on disk (decision 041), so that a restarted shop answers
 * from it — stale by at most the time it was down — while its first build runs, instead of by SQL
 * that takes seconds at a million products. Written and read in the index's worker thread, with
 * v8's serializer (typed arrays and strings as they are in memory). A snapshot written by other
 * index code (any change to this directory's sources or the option keys they use) is never read.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCES = [HERE, join(HERE, "../../lib/variants.ts")];

let format: string | null = null;

/** A hash of the code that shapes an index's parts: this directory's sources and lib/variants.ts. */
export function indexFormat(): string {
  if (format) return format;
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    const files = source.endsWith(".ts")
      ? [source]
      : readdirSync(source)
          .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
          .sort()
          .map((name) => join(source, name));
    for (const file of files) hash.update(file.slice(file.lastIndexOf("/"))).update(readFileSync(file));
  }
  format = hash.digest("hex");
  return format;
}

/** Writes `parts` to `path` whole or not at all (a temporary file renamed over it). */
export function writeSnapshot(path: string, parts: IndexParts): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, serialize({ format: indexFormat(), parts }));
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * The parts kept at `path`, each typed array in a buffer of its own (so they can be moved to the
 * app's thread); null when there is none, it cannot be read, or other code wrote it.
 */
export function readSnapshot(path: string): IndexParts | null {
  let kept: unknown;
  try {
    kept = deserialize(readFileSync(path));
  } catch {
    return null;
  }
  if (typeof kept !== "object" || kept === null) return null;
  const { format: written, parts } = kept as { format?: unknown; parts?: unknown };
  if (written !== indexFormat() || typeof parts !== "object" || parts === null) return null;
  return ownBuffers(parts) as IndexParts;
}

/** The value with every typed array copied out of the one buffer v8 read them into. */
function ownBuffers(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return (value as unknown as { slice(): unknown }).slice();
  if (Array.isArray(value)) return value.map(ownBuffers);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, ownBuffers(inner)]));
  }
  return value;
}
