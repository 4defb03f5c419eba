import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuild } from "../tests/helpers/build.ts";
import { createServerApp } from "./app.ts";
import type { AppEntry } from "./app-entry.ts";

/**
 * /readyz of the real build before its services are open (server/main.ts listens first, then opens
 * them): a process that has not finished starting is not ready, whatever its database says; once
 * getServices has resolved (migrations applied, on SQLite here; tests/integration/
 * metrics-endpoint.test.ts starts a real process on both engines) it is.
 */
const ENV_KEYS = ["DATABASE_URL", "FILE_STORE_URL", "MAIL_URL", "DATA_DIR", "SEED_ON_EMPTY"];
let dir: string;
let saved: Record<string, string | undefined>;
let entry: AppEntry;
let app: ReturnType<typeof createServerApp>;

beforeAll(async () => {
  const buildDir = ensureBuild();
  saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  dir = mkdtempSync(join(tmpdir(), "cartwheel-readiness-"));
  Object.assign(process.env, {
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "cartwheel.db")}`,
    FILE_STORE_URL: `file:${join(dir, "uploads")}`,
    MAIL_URL: `file:${join(dir, "mail")}`,
    SEED_ON_EMPTY: "false",
  });
  const build = (await import(pathToFileURL(join(buildDir, "server", "index.js")).href)) as ServerBuild;
  entry = build.entry.module as unknown as AppEntry;
  app = createServerApp({
    build,
    entry,
    logger: pino({ level: "silent" }),
    clientDir: join(buildDir, "client"),
  });
});

afterAll(async () => {
  await entry?.closeServices();
  for (const [key, value] of Object.entries(saved ?? {})) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("is not ready before its services are open, and ready once they are", async () => {
  const starting = await app.request("/readyz");
  expect(starting.status).toBe(503);
  expect(await starting.json()).toEqual({ ok: false, started: false });

  await entry.getServices();
  const ready = await app.request("/readyz");
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ ok: true });

  await entry.closeServices();
  const stopped = await app.request("/readyz");
  expect(stopped.status).toBe(503);
  expect(await stopped.json()).toEqual({ ok: false, started: false });
});
