import type { Attributes, Context, Span, SpanKind, Tracer } from "@opentelemetry/api";

/**
 * Optional tracing with OpenTelemetry (decision 027). With OTEL_EXPORTER_OTLP_ENDPOINT set, the
 * server calls `startTracing` before it opens anything: the SDK is imported then (and only then),
 * spans go to the collector over OTLP/HTTP (JSON, batched; the exporter reads the standard
 * OTEL_EXPORTER_OTLP_* and OTEL_BSP_* variables). Spans are made by hand at three places: each
 * request (server/app.ts, named by its route pattern, continuing a `traceparent` it carries), each
 * database statement (the Kysely log hook, app/infra/query-telemetry.server.ts, on both engines)
 * and each payment gateway call (app/adapters/payments/traced-gateway.server.ts). Unset, nothing
 * of OpenTelemetry is loaded and `tracing()` answers undefined.
 *
 * Like the metrics, the state lives on `globalThis`: the server and the app's bundle each load a
 * copy of this module.
 */

const SLOT = Symbol.for("cartwheel.tracing");

export interface Tracing {
  tracer: Tracer;
  api: typeof import("@opentelemetry/api");
  /** flushes the spans not yet sent and stops */
  shutdown(): Promise<void>;
}

type Slot = { [SLOT]?: Tracing };

/** The process's tracing, when it was started. */
export function tracing(): Tracing | undefined {
  return (globalThis as Slot)[SLOT];
}

/** Starts tracing for this process (idempotent): an OTLP/HTTP exporter behind a batching processor. */
export async function startTracing({
  serviceName = "cartwheel",
}: {
  serviceName?: string;
} = {}): Promise<void> {
  if (tracing()) return;
  const [api, sdk, exporter, resources, contextHooks, core] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
  ]);
  if (tracing()) return;
  const provider = new sdk.TracerProvider({
    resource: resources
      .defaultResource()
      .merge(
        resources.resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME ?? serviceName }),
      ),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new exporter.OTLPTraceExporter(),
        // the standard variable (sdk-trace 3 no longer reads it itself): how long spans wait for a batch
        scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 5_000,
      }),
    ],
  });
  api.context.setGlobalContextManager(new contextHooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  (globalThis as Slot)[SLOT] = {
    api,
    tracer: api.trace.getTracer("cartwheel"),
    shutdown: () => provider.shutdown(),
  };
}

/** Flushes and stops tracing (at shutdown); nothing when it was never started. */
export async function stopTracing(): Promise<void> {
  await tracing()
    ?.shutdown()
    .catch(() => {});
}

/**
 * Runs `work` inside a span of its own (a child of the active span), ended when it settles and
 * marked as an error when it throws; without tracing, just runs it.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const t = tracing();
  if (!t) return work(undefined);
  const parent = options.parent ?? t.api.context.active();
  return t.tracer.startActiveSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: (error as Error)?.message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
