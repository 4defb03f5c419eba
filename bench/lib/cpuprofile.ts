/** Summarises a V8 .cpuprofile: self time by function and by package/file, for `--profile`. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface HotSpot {
  name: string;
  selfMs: number;
  percent: number;
}

/** node_modules/<pkg> (or <scope>/<pkg>), the project-relative file, or the V8 category. */
function owner(url: string, root: string): string {
  if (!url) return "(native/V8)";
  const path = url.replace(/^file:\/\//, "");
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm?.[1]) return nm[1];
  if (path.startsWith("node:")) return path;
  return path.startsWith(root)
    ? path.slice(root.length + 1).replace(/^bench\/\.build\/[^/]+\//, "build/")
    : path;
}

/**
 * `window` limits the samples to a span of the monotonic clock in µs (V8's profile timestamps and
 * process.hrtime share CLOCK_MONOTONIC on Linux), e.g. just the measured load, not startup.
 */
export function summarise(file: string, root: string, window?: { fromUs: number; toUs: number }, top = 15) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  let idleUs = 0;
  let busyUs = 0;
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === "(idle)") {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const where = owner(frame.url, root);
    const fn = `${frame.functionName || "(anonymous)"} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byOwner.set(where, (byOwner.get(where) ?? 0) + us);
  }
  /** Percentages are of busy (non-idle) time. */
  const list = (map: Map<string, number>): HotSpot[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        selfMs: Math.round(us / 1000),
        percent: busyUs > 0 ? Math.round((1000 * us) / busyUs) / 10 : 0,
      }));
  return {
    busyMs: Math.round(busyUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    byFunction: list(byFunction),
    byOwner: list(byOwner),
  };
}

/**
 * CPU ms spent with each of `names` anywhere on the stack (inclusive time), within `window`.
 * Async functions only count their synchronous stretches (and what those call): after an `await`
 * the stack starts at the resumed function, not at its caller.
 */
export function inclusiveByName(
  file: string,
  names: string[],
  window?: { fromUs: number; toUs: number },
): Record<string, number> {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const wanted = new Set(names);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const memo = new Map<number, string[]>();
  const onStack = (id: number): string[] => {
    const cached = memo.get(id);
    if (cached) return cached;
    const found = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName;
      if (name && wanted.has(name)) found.add(name);
    }
    const list = [...found];
    memo.set(id, list);
    return list;
  };
  const totals = new Map<string, number>(names.map((n) => [n, 0]));
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window.fromUs || t > window.toUs)) return;
    for (const name of onStack(id)) totals.set(name, (totals.get(name) ?? 0) + delta);
  });
  return Object.fromEntries([...totals].map(([name, us]) => [name, Math.round(us / 100) / 10]));
}

/**
 * The main thread's profile in a `--cpu-prof-dir`: files are named
 * CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, and worker threads (the search index
 * worker) write profiles of their own beside it.
 */
export function mainThreadProfile(dir: string): string {
  const file = readdirSync(dir)
    .filter((n) => /\.\d+\.0\.\d+\.cpuprofile$/.test(n))
    .sort()
    .pop();
  if (!file) throw new Error(`no main-thread .cpuprofile written in ${dir}`);
  return join(dir, file);
}
