/**
 * Backups and restores (decision 028), through the real CLI as an owner runs them (each timing
 * includes starting Node and loading the CLI, ~0.5 s):
 *
 * - the demo shop: `npm start`'s configuration on a fresh data directory (demo catalogue, pictures
 *   and history), backed up while it serves, then restored into a fresh directory;
 * - BENCH_BACKUP_ORDERS synthetic orders (default 1 000 000, `orders:generate`) on a fresh SQLite
 *   database and on a fresh PostgreSQL database, each backed up and restored into an empty one.
 *
 * On SQLite the same backup also runs inside this process, its event loop's delay sampled (a
 * backup in the serving process — the schedule, "Back up now" — must not stall requests).
 *
 * References measured in the same run: for SQLite, copying the database file (and the uploads) as
 * they lie — what the bytes alone cost to move; for PostgreSQL, a bare `pg_dump --format=custom`.
 * Times and sizes are reported, never asserted.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { promisify } from "node:util";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { type BackupServices, takeBackup } from "../../app/domain/backups/take-backup.server.ts";
import { withPostgresDatabase } from "../lib/postgres.ts";
import { spawnTracked } from "../lib/procs.ts";
import { startShop } from "../lib/shop.ts";
import type { BenchContext, Row, Section } from "../lib/types.ts";

const MB = 1024 * 1024;

interface CliResult {
  seconds: number;
  output: string;
}

async function cli(ctx: BenchContext, args: string[], env: Record<string, string>): Promise<CliResult> {
  const started = performance.now();
  const proc = spawnTracked(process.execPath, ["cli/main.ts", ...args], {
    cwd: ctx.root,
    env: { ...process.env, LOG_LEVEL: "warn", SEED_ON_EMPTY: "false", ...env },
  });
  const code = await proc.exited;
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`cli ${args[0]} exited ${code}: ${proc.output().slice(-2_000)}`);
  return { seconds, output: proc.output() };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
}

/** Backs up with `env`'s database and files, restores into `target`; the figures. */
async function roundTrip(
  ctx: BenchContext,
  label: string,
  env: Record<string, string>,
  target: { args: string[] },
  reference: { label: string; seconds: number; bytes: number },
): Promise<Row[]> {
  const backups = join(ctx.tmpDir, `backups-${label.replace(/\W+/g, "-")}`);
  const backup = await cli(ctx, ["backup", "--to", backups], env);
  const archive = backup.output.match(/Wrote (\S+\.tar\.gz) /)?.[1];
  if (!archive) throw new Error(`no archive named in: ${backup.output}`);
  const bytes = (await stat(archive)).size;
  const parts = backup.output.match(/: (the .*)\./)?.[1] ?? "";
  ctx.log(`  ${label}: backup ${backup.seconds.toFixed(1)} s, ${(bytes / MB).toFixed(1)} MB (${parts})`);
  const restore = await cli(ctx, ["restore", archive, ...target.args], env);
  const checks = restore.output.match(/^ok {3}.*$/gm)?.length ?? 0;
  const rows = restore.output.match(/Rows: .*$/m)?.[0] ?? "";
  ctx.log(`  ${label}: restore ${restore.seconds.toFixed(1)} s, ${checks} checks passed; ${rows}`);
  await rm(backups, { recursive: true, force: true });
  return [
    {
      section: "backups",
      metric: `${label}: backup`,
      value: backup.seconds,
      unit: "s",
      digits: 1,
      note: `archive ${(bytes / MB).toFixed(1)} MB: ${parts}`,
    },
    {
      section: "backups",
      metric: `${label}: archive size`,
      value: bytes / MB,
      unit: "MB",
      digits: 1,
      note: `${reference.label} is ${(reference.bytes / MB).toFixed(1)} MB`,
    },
    {
      section: "backups",
      metric: `${label}: restore (verify, restore, migrate, files, checks)`,
      value: restore.seconds,
      unit: "s",
      digits: 1,
      note: `${checks} checks passed; ${rows}`,
    },
    {
      section: "backups",
      metric: `${label}: backup / ${reference.label}`,
      value: backup.seconds / reference.seconds,
      unit: "×",
      digits: 2,
      note: `${reference.label} ${reference.seconds.toFixed(2)} s, same run`,
    },
  ];
}

async function demoShop(ctx: BenchContext): Promise<Row[]> {
  const dataDir = join(ctx.tmpDir, "backup-demo-shop");
  const build = await ctx.build();
  const shop = await startShop(ctx.root, build.dir, dataDir);
  try {
    ctx.log(
      `  demo shop started in ${(shop.startupMs / 1000).toFixed(1)} s (demo catalogue, pictures, history)`,
    );
    const env = {
      DATABASE_URL: `file:${join(dataDir, "cartwheel.db")}`,
      FILE_STORE_URL: `file:${join(dataDir, "uploads")}`,
      DATA_DIR: dataDir,
    };
    const copy = join(ctx.tmpDir, "backup-demo-copy");
    const seconds = await timed(async () => {
      await mkdir(copy, { recursive: true });
      await cp(join(dataDir, "cartwheel.db"), join(copy, "cartwheel.db"));
      await cp(join(dataDir, "uploads"), join(copy, "uploads"), { recursive: true });
    });
    const bytes = await directoryBytes(copy);
    await rm(copy, { recursive: true, force: true });
    const into = join(ctx.tmpDir, "backup-demo-restored");
    return await roundTrip(
      ctx,
      "demo shop (SQLite, serving)",
      env,
      { args: ["--into", into] },
      {
        label: "copying its database file and uploads",
        seconds,
        bytes,
      },
    );
  } finally {
    await shop.stop();
  }
}

async function directoryBytes(dir: string): Promise<number> {
  const { stdout } = await promisify(execFile)("du", ["-sb", dir]);
  return Number(stdout.split("\t")[0]);
}

async function manyOrdersSqlite(ctx: BenchContext, count: number): Promise<Row[]> {
  const dir = join(ctx.tmpDir, "backup-orders-sqlite");
  await mkdir(dir, { recursive: true });
  const env = {
    DATABASE_URL: `file:${join(dir, "cartwheel.db")}`,
    FILE_STORE_URL: `file:${join(dir, "uploads")}`,
    DATA_DIR: dir,
  };
  const generated = await cli(ctx, ["orders:generate", "--count", String(count)], env);
  ctx.log(`  SQLite: ${count} orders generated in ${generated.seconds.toFixed(1)} s`);
  const copy = join(ctx.tmpDir, "backup-orders-copy.db");
  const seconds = await timed(() => cp(join(dir, "cartwheel.db"), copy));
  const bytes = (await stat(copy)).size;
  await rm(copy, { force: true });
  const rows = await roundTrip(
    ctx,
    `${count} orders (SQLite)`,
    env,
    { args: ["--into", join(ctx.tmpDir, "backup-orders-restored")] },
    { label: "copying the database file", seconds, bytes },
  );
  rows.push(await eventLoopDuringBackup(ctx, env, count));
  await rm(dir, { recursive: true, force: true });
  await rm(join(ctx.tmpDir, "backup-orders-restored"), { recursive: true, force: true });
  return rows;
}

/**
 * A backup inside a serving process (the schedule, "Back up now") must leave its event loop free:
 * the same backup run in this process, with the event loop's delay sampled every 10 ms.
 */
async function eventLoopDuringBackup(
  ctx: BenchContext,
  env: Record<string, string>,
  count: number,
): Promise<Row> {
  const db = createDatabase(env.DATABASE_URL!, { poolSize: 1 });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  try {
    const services: BackupServices = {
      db,
      databaseUrl: env.DATABASE_URL!,
      files: createLocalFileStore(env.FILE_STORE_URL!.slice("file:".length)),
      fileStoreUrl: env.FILE_STORE_URL!,
      dataDir: env.DATA_DIR!,
      s3: { S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: "false" },
    };
    const to = join(ctx.tmpDir, "backup-in-process");
    delay.enable();
    const started = performance.now();
    const done = await takeBackup(services, { destination: to, origin: "cli" });
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    if (!done.ok) throw new Error(done.error.message);
    await rm(to, { recursive: true, force: true });
    const worst = delay.max / 1e6;
    ctx.log(
      `  ${count} orders (SQLite) in process: ${seconds.toFixed(1)} s, longest event-loop delay ${worst.toFixed(0)} ms`,
    );
    return {
      section: "backups",
      metric: `${count} orders (SQLite): longest event-loop delay during an in-process backup`,
      value: worst,
      unit: "ms",
      digits: 0,
      note: `p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms over a ${seconds.toFixed(1)} s backup (sampled every 10 ms)`,
    };
  } finally {
    delay.disable();
    await db.destroy();
  }
}

async function manyOrdersPostgres(ctx: BenchContext, count: number): Promise<Row[]> {
  return withPostgresDatabase(
    ctx,
    (url) =>
      withPostgresDatabase(
        ctx,
        async (target) => {
          const dir = join(ctx.tmpDir, "backup-orders-postgres");
          await mkdir(dir, { recursive: true });
          const env = { DATABASE_URL: url, FILE_STORE_URL: `file:${join(dir, "uploads")}`, DATA_DIR: dir };
          const generated = await cli(ctx, ["orders:generate", "--count", String(count)], env);
          ctx.log(`  PostgreSQL: ${count} orders generated in ${generated.seconds.toFixed(1)} s`);
          const dump = join(dir, "reference.pgdump");
          const seconds = await timed(() =>
            promisify(execFile)(process.env.PG_DUMP_PATH ?? "pg_dump", [
              "--format=custom",
              "--file",
              dump,
              url,
            ]),
          );
          const bytes = (await stat(dump)).size;
          await rm(dump, { force: true });
          const rows = await roundTrip(
            ctx,
            `${count} orders (PostgreSQL)`,
            env,
            { args: ["--into", join(dir, "restored"), "--database-url", target] },
            { label: "a bare pg_dump --format=custom", seconds, bytes },
          );
          await rm(dir, { recursive: true, force: true });
          return rows;
        },
        "cartwheel_restore",
      ),
    "cartwheel_backup",
  );
}

export const backups: Section = {
  name: "backups",
  description:
    "backup and restore times and archive sizes: the demo shop, and 1M orders on SQLite and PostgreSQL",
  async run(ctx) {
    const count = Number(process.env.BENCH_BACKUP_ORDERS ?? 1_000_000);
    const rows: Row[] = [];
    rows.push(...(await demoShop(ctx)));
    rows.push(...(await manyOrdersSqlite(ctx, count)));
    rows.push(...(await manyOrdersPostgres(ctx, count)));
    return { rows, data: { orders: count } };
  },
};
