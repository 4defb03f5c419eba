import type { LogEvent, RootOperationNode } from "kysely";
import { metricsEnabled, type QueryKind, recordQuery } from "./metrics.server.ts";
import { tracing } from "./tracing.server.ts";

/**
 * Kysely's `log` hook for a database (decision 027): each statement's time into the metrics'
 * histogram by kind, and, with tracing on, a span for it (a child of the request's or job's span,
 * its start put back by the time it took). Undefined when neither metrics nor tracing is on, so
 * Kysely does not even time its statements.
 */
export function queryTelemetry(engine: "sqlite" | "postgres"): ((event: LogEvent) => void) | undefined {
  const metrics = metricsEnabled();
  const traced = tracing();
  if (!metrics && !traced) return undefined;
  const system = engine === "postgres" ? "postgresql" : "sqlite";
  return (event) => {
    const kind = kindOf(event.query.query, event.query.sql);
    const failed = event.level === "error";
    if (metrics) recordQuery(kind, event.queryDurationMillis / 1000, failed);
    if (traced) {
      const end = performance.timeOrigin + performance.now();
      const span = traced.tracer.startSpan(
        kind,
        {
          kind: traced.api.SpanKind.CLIENT,
          startTime: end - event.queryDurationMillis,
          attributes: {
            "db.system.name": system,
            "db.operation.name": kind,
            // the statement with its placeholders: no parameter (no customer data) is exported
            "db.query.text": event.query.sql.slice(0, 2000),
          },
        },
        traced.api.context.active(),
      );
      if (failed) span.setStatus({ code: traced.api.SpanStatusCode.ERROR });
      span.end(end);
    }
  };
}

const KINDS: Record<string, QueryKind> = {
  SelectQueryNode: "select",
  InsertQueryNode: "insert",
  UpdateQueryNode: "update",
  DeleteQueryNode: "delete",
};

/** The kind of a statement: from Kysely's query node, or from the first word of raw SQL. */
function kindOf(node: RootOperationNode, text: string): QueryKind {
  const kind = KINDS[node.kind];
  if (kind) return kind;
  const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
  return word === "select" || word === "insert" || word === "update" || word === "delete" ? word : "other";
}
