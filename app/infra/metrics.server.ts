import type { Counter, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (decision 027): one registry and its named counters, off until
 * the server turns them on (`enableMetrics`, when METRICS_TOKEN or METRICS_PORT is set). Each
 * `record*` function is called at the one place that already knows the outcome (an order marked
 * paid, a job run finished, a query answered); while metrics are off it reads one global and
 * returns, and prom-client itself is never loaded.
 *
 * The registry lives on `globalThis`: the server (server/) and the app's bundle each load their
 * own copy of this module, and both must count into the same registry. Worker threads (search
 * index, mail) have globals of their own and record nothing; their work is counted on the main
 * thread where its result arrives.
 */

const SLOT = Symbol.for("cartwheel.metrics");

export type JobOutcome = "ran" | "skipped" | "failed";
export type RefundOutcome = "succeeded" | "failed" | "pending";
export type MailOutcome = "queued" | "sent" | "failed";
export type OrderEvent = "placed" | "paid" | "failed";
export type PageCacheOutcome = "HIT" | "MISS" | "BYPASS";
export type QueryKind = "select" | "insert" | "update" | "delete" | "other";

interface ShopMetrics {
  registry: Registry;
  contentType: string;
  httpRequests: Counter<"route" | "method" | "status">;
  httpDuration: Histogram<"route" | "method">;
  orders: Counter<"event">;
  paymentFailures: Counter<"reason">;
  refunds: Counter<"outcome">;
  mails: Counter<"outcome">;
  jobRuns: Counter<"job" | "outcome">;
  jobDuration: Histogram<"job" | "outcome">;
  pageCache: Counter<"outcome">;
  searchIndexBuilds: Counter<"outcome">;
  searchIndexBuildDuration: Histogram<"outcome">;
  queryDuration: Histogram<"kind">;
  queryErrors: Counter<"kind">;
}

type Slot = { [SLOT]?: ShopMetrics };
const metrics = (): ShopMetrics | undefined => (globalThis as Slot)[SLOT];

/** True once the server turned metrics on in this process. */
export function metricsEnabled(): boolean {
  return metrics() !== undefined;
}

/**
 * Turns metrics on for this process (idempotent): loads prom-client, registers the shop's metrics
 * and Node's own (memory, event-loop lag, GC, handles: `collectDefaultMetrics`).
 */
export async function enableMetrics(): Promise<void> {
  if (metrics()) return;
  const client = await import("prom-client");
  if (metrics()) return;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new client.Counter<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ) => new client.Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
  const seconds = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  (globalThis as Slot)[SLOT] = {
    registry,
    contentType: registry.contentType,
    httpRequests: counter(
      "cartwheel_http_requests_total",
      "HTTP requests answered, by route pattern, method and status",
      ["route", "method", "status"],
    ),
    httpDuration: histogram(
      "cartwheel_http_request_duration_seconds",
      "Time until the response's headers were ready, by route pattern and method",
      ["route", "method"],
      seconds,
    ),
    orders: counter(
      "cartwheel_orders_total",
      "Orders placed (reserved, awaiting payment), paid, and failed (payment failed)",
      ["event"],
    ),
    paymentFailures: counter(
      "cartwheel_payment_failures_total",
      "Orders whose payment failed, by reason (declined, insufficient_funds, expired, …)",
      ["reason"],
    ),
    refunds: counter(
      "cartwheel_refunds_total",
      "Refunds settled as succeeded or failed, and left pending because the gateway did not answer",
      ["outcome"],
    ),
    mails: counter("cartwheel_emails_total", "E-mails handed to the mailer (queued), sent, and failed", [
      "outcome",
    ]),
    jobRuns: counter(
      "cartwheel_job_runs_total",
      "Background job turns: ran, skipped (another process holds the lease or did the turn), failed",
      ["job", "outcome"],
    ),
    jobDuration: histogram(
      "cartwheel_job_duration_seconds",
      "Background job run time, by job and outcome",
      ["job", "outcome"],
      [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    ),
    pageCache: counter(
      "cartwheel_page_cache_requests_total",
      "Pages asked of the anonymous page cache: HIT, MISS (rendered and kept), BYPASS (not cacheable)",
      ["outcome"],
    ),
    searchIndexBuilds: counter(
      "cartwheel_search_index_builds_total",
      "Search index builds: built, stale (the catalogue changed meanwhile: kept, another follows), loaded (the snapshot of the last run, a build follows), patched (the products changed since the last build applied to it), failed",
      ["outcome"],
    ),
    searchIndexBuildDuration: histogram(
      "cartwheel_search_index_build_duration_seconds",
      "Search index build time",
      ["outcome"],
      [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
    ),
    queryDuration: histogram(
      "cartwheel_db_query_duration_seconds",
      "Database statement time as the app waited for it, by kind of statement",
      ["kind"],
      [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    ),
    queryErrors: counter("cartwheel_db_query_errors_total", "Database statements that failed", ["kind"]),
  };
}

/** The exposition text (Prometheus text format 0.0.4) and its content type; null while metrics are off. */
export async function metricsExposition(): Promise<{ text: string; contentType: string } | null> {
  const m = metrics();
  if (!m) return null;
  return { text: await m.registry.metrics(), contentType: m.contentType };
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One answered request; `route` is a route pattern (never the raw path: labels stay bounded). */
export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const m = metrics();
  if (!m) return;
  const verb = METHODS.has(method) ? method : "OTHER";
  m.httpRequests.inc({ route, method: verb, status: String(status) });
  m.httpDuration.observe({ route, method: verb }, seconds);
}

export function recordOrder(event: OrderEvent): void {
  metrics()?.orders.inc({ event });
}

/** A payment failed; `reason` from a closed set (the caller maps its message to one). */
export function recordPaymentFailure(reason: string): void {
  const m = metrics();
  if (!m) return;
  m.orders.inc({ event: "failed" });
  m.paymentFailures.inc({ reason });
}

export function recordRefund(outcome: RefundOutcome): void {
  metrics()?.refunds.inc({ outcome });
}

export function recordMail(outcome: MailOutcome): void {
  metrics()?.mails.inc({ outcome });
}

export function recordJobRun(job: string, outcome: JobOutcome, seconds: number): void {
  const m = metrics();
  if (!m) return;
  m.jobRuns.inc({ job, outcome });
  m.jobDuration.observe({ job, outcome }, seconds);
}

export function recordPageCache(outcome: PageCacheOutcome): void {
  metrics()?.pageCache.inc({ outcome });
}

export function recordSearchIndexBuild(
  outcome: "built" | "stale" | "loaded" | "patched" | "failed",
  seconds: number,
): void {
  const m = metrics();
  if (!m) return;
  m.searchIndexBuilds.inc({ outcome });
  m.searchIndexBuildDuration.observe({ outcome }, seconds);
}

export function recordQuery(kind: QueryKind, seconds: number, failed: boolean): void {
  const m = metrics();
  if (!m) return;
  m.queryDuration.observe({ kind }, seconds);
  if (failed) m.queryErrors.inc({ kind });
}
