/**
 * The build directory as a symbolic link to one of several versions (scripts/build.ts): a new
 * version is switched in with one atomic rename, so a server that resolved the link when it
 * started keeps its own files whatever is built meanwhile.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

/** Versions kept besides the one the link points at. */
export const KEEP_VERSIONS = 3;

let made = 0;
/** Sorts in the order the versions were made (a time, then a sequence for the same millisecond). */
const stamp = () => `${new Date().toISOString().replace(/[:.]/g, "-")}-${String(made++).padStart(4, "0")}`;

/** Where the versions of `target` live: `.build-versions/` beside `build`. */
export function versionsDirOf(target: string): string {
  return join(dirname(target), `.${basename(target)}-versions`);
}

/** A fresh, not yet existing version directory for `target`. */
export function newVersionDir(target: string): string {
  const versions = versionsDirOf(target);
  mkdirSync(versions, { recursive: true });
  return join(versions, `${stamp()}-${process.pid}`);
}

/**
 * Points `target` at `version` in one step (a new link renamed over the old one), then removes
 * all but the newest KEEP_VERSIONS other versions. A real directory at `target` (a build from
 * before versions existed) is kept as a version first. Returns the versions removed.
 */
export function switchBuild(target: string, version: string, keep = KEEP_VERSIONS): string[] {
  const versions = versionsDirOf(target);
  if (existsSync(target) && !lstatSync(target).isSymbolicLink()) {
    renameSync(target, join(versions, `${stamp()}-earlier`));
  }
  const link = `${target}.link-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(target), version), link, "dir");
  renameSync(link, target);

  const current = resolve(dirname(target), readlinkSync(target));
  const older = readdirSync(versions)
    .map((name) => join(versions, name))
    .filter((path) => path !== current)
    .sort()
    .reverse()
    .slice(keep);
  for (const path of older) rmSync(path, { recursive: true, force: true });
  return older;
}
