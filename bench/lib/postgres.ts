import { randomBytes } from "node:crypto";
import pg from "pg";
import { onCleanup } from "./procs.ts";
import type { BenchContext } from "./types.ts";

/** The server sections create their throwaway databases on (BENCH_POSTGRES_URL). */
export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * A throwaway PostgreSQL database (`<prefix>_<random>`) for `fn`, dropped afterwards — also when
 * the run is interrupted (procs.ts cleanup).
 */
export async function withPostgresDatabase<T>(
  ctx: BenchContext,
  fn: (url: string) => Promise<T>,
  prefix = "cartwheel_bench",
): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  ctx.log(`  PostgreSQL: created database ${name}`);
  const drop = () => admin(`drop database if exists ${name} with (force)`);
  const unregister = onCleanup(drop);
  try {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    unregister();
    await drop();
    ctx.log(`  PostgreSQL: dropped database ${name}`);
  }
}
