import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { ConfigError, parseEnv } from "../app/env.server.ts";
import { createServerApp } from "./app.ts";
import type { AppEntry } from "./app-entry.ts";

const logger = pino({ level: process.env.LOG_LEVEL ?? "info", base: { service: "cartwheel" } });

async function main() {
  const started = performance.now();
  const env = parseEnv();
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
  // the search index's and the mail's worker threads run the app's source file (Node strips its types)
  entry.setSearchIndexWorker(new URL("../app/infra/search-index/search-index-worker.ts", import.meta.url));
  entry.setMailWorker(new URL("../app/adapters/mail/mail-worker.ts", import.meta.url));
  await entry.getServices(); // migrate, and seed an empty catalogue, before accepting traffic
  const stopBackgroundJobs = entry.startBackgroundJobs();

  const app = createServerApp({ build, entry, logger, clientDir: resolve(buildDir, "client") });
  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    logger.info(
      { url: `http://${env.HOST}:${info.port}`, startupMs: Math.round(performance.now() - started) },
      "Cartwheel is listening",
    );
  });

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
    server.close(async () => {
      await entry.closeServices();
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
