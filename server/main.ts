import { once } from "node:events";
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { ConfigError, parseEnv } from "../app/env.server.ts";
import { enableMetrics } from "../app/infra/metrics.server.ts";
import { startTracing, stopTracing } from "../app/infra/tracing.server.ts";
import { createServerApp } from "./app.ts";
import type { AppEntry } from "./app-entry.ts";
import { metricsHandler } from "./metrics.ts";

const logger = pino({ level: process.env.LOG_LEVEL ?? "info", base: { service: "cartwheel" } });

async function main() {
  const started = performance.now();
  const env = parseEnv();
  // observability (decision 027), before anything opens: off, neither is even loaded
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) await startTracing();
  if (env.METRICS_TOKEN || env.METRICS_PORT) await enableMetrics();
  const buildLink = resolve(process.env.BUILD_DIR ?? "build");
  if (!existsSync(resolve(buildLink, "server/index.js"))) {
    throw new ConfigError(`No production build at ${buildLink}: run "npm run build" first.`);
  }
  // `npm run build` switches build/ to a new version atomically (scripts/build.ts): this process
  // keeps the version it started with, bundle and assets alike, whatever is built meanwhile.
  const buildDir = realpathSync(buildLink);
  const serverBuild = resolve(buildDir, "server/index.js");
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const entry = build.entry.module as unknown as AppEntry;
  // the search index's worker thread and the mail process run the app's source file (Node strips its types)
  entry.setSearchIndexWorker(new URL("../app/infra/search-index/search-index-worker.ts", import.meta.url));
  entry.setSqliteReaderWorker(new URL("../app/infra/sqlite-reader-worker.ts", import.meta.url));
  entry.setMailWorker(new URL("../app/adapters/mail/mail-worker.ts", import.meta.url));

  // /metrics on the shop's port only behind a token and without a port of its own (decision 027)
  const app = createServerApp({
    build,
    entry,
    logger,
    clientDir: resolve(buildDir, "client"),
    metricsToken: env.METRICS_PORT ? undefined : env.METRICS_TOKEN,
  });
  // Listening from the start: /healthz answers once the database does, /readyz says 503 until the
  // services are open (migrations, the demo seed), and pages wait for them meanwhile.
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    logger.info({ url: `http://${env.HOST}:${info.port}` }, "Cartwheel is listening");
  });
  const metricsServer = env.METRICS_PORT
    ? serve(
        {
          fetch: new Hono().get("/metrics", metricsHandler(env.METRICS_TOKEN)).fetch,
          port: env.METRICS_PORT,
          hostname: env.METRICS_HOST,
        },
        (info) =>
          logger.info({ url: `http://${env.METRICS_HOST}:${info.port}/metrics` }, "metrics listening"),
      )
    : null;
  await once(server, "listening");
  await entry.getServices(); // migrate, and seed an empty catalogue
  const stopBackgroundJobs = entry.startBackgroundJobs();
  logger.info({ startupMs: Math.round(performance.now() - started) }, "Cartwheel is ready");

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("in-flight requests did not finish in 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    stopBackgroundJobs();
    metricsServer?.close();
    server.close(async () => {
      await entry.closeServices();
      await stopTracing();
      logger.info("stopped");
      process.exit(0);
    });
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    logger.fatal({ err: error }, "failed to start");
  }
  process.exit(1);
});
