/** Shared shapes for benchmark sections and their results. */
import type { BuildInfo, ShopServer } from "./shop.ts";

export interface Target {
  op: ">=" | "<=" | "=";
  value: number;
}

/** One line of the final table (and of results.rows in the JSON). */
export interface Row {
  section: string;
  metric: string;
  /** null when the figure could not be measured. */
  value: number | null;
  unit: string;
  /** Digits after the decimal point when printing. */
  digits?: number;
  target?: Target;
  /** Set by the runner from value and target. */
  pass?: boolean;
  note?: string;
}

export interface SectionResult {
  rows: Row[];
  /** Section-specific detail kept in the JSON (keep it small: no full reports). */
  data: Record<string, unknown>;
}

export interface BenchOptions {
  /** autocannon connections */
  connections: number;
  /** autocannon measured seconds per target */
  duration: number;
  /** autocannon warm-up seconds per target (discarded) */
  warmup: number;
  /** Lighthouse runs per page; the run with the median performance score is reported */
  lighthouseRuns: number;
  /** rebuild the app even if build/server/index.js exists */
  build: boolean;
  /** also profile the shop under load (node --cpu-prof) in the http section */
  profile: boolean;
  /** keep temp data dirs for inspection */
  keep: boolean;
}

export interface HomePage {
  url: string;
  status: number;
  contentType: string;
  bytes: Buffer;
}

export interface BenchContext {
  /** Project root (/work/main). */
  root: string;
  opts: BenchOptions;
  /** Per-run scratch directory (removed at the end unless --keep). */
  tmpDir: string;
  /** Where full, uncommitted artefacts go (Lighthouse reports): bench/results/reports/<stamp>/. */
  reportsDir: string;
  /** This run's private, consistent copy of the build (see lib/shop.ts). */
  build(): Promise<BuildInfo>;
  /** The production shop, started once on first use with an empty data dir. */
  shop(): Promise<ShopServer>;
  /** GET / on the shop without Accept-Encoding (uncompressed, exact bytes). */
  fetchHome(): Promise<HomePage>;
  log(message: string): void;
}

export interface Section {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<SectionResult>;
}
