import { existsSync } from "node:fs";
import { sql } from "kysely";
import {
  diskSpace,
  probeBucket,
  probeSmtp,
  probeStripe,
  probeWritableDirectory,
} from "../app/adapters/doctor-probes.server.ts";
import { parseFileStoreUrl } from "../app/adapters/files/file-store-url.ts";
import { createDatabase, isPostgresUrl, sqlitePathFromUrl } from "../app/db/database.server.ts";
import { migrationState } from "../app/db/migrate.server.ts";
import { ConfigError, type Env, parseEnv } from "../app/env.server.ts";

/**
 * `npm run cli -- doctor` (decision 027): what is wrong with this installation, in plain words, one
 * line per check — the configuration, the database (reachable, its schema against this code's),
 * free disk at DATA_DIR, the mail transport, the file store, the payment gateway's credentials.
 * Nothing is changed (a probe file is written and removed; a missing mail or upload directory is
 * made, as the shop would). Exit code 1 when any check finds a problem.
 */
export type Verdict = "ok" | "warning" | "problem";
export interface Check {
  verdict: Verdict;
  name: string;
  message: string;
}

const GB = 1024 ** 3;
/** How long a check may wait for the network before it says so. */
const PROBE_TIMEOUT_MS = 15_000;

/** Free disk: a warning under 1 GB or under 5 % of the filesystem. */
export function diskVerdict(freeBytes: number, totalBytes: number): Verdict {
  return freeBytes < GB || freeBytes < totalBytes * 0.05 ? "warning" : "ok";
}

/** A URL fit to print: without its password. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

const reason = (error: unknown) =>
  (error as { code?: string })?.code && !(error as Error).message?.includes((error as { code: string }).code)
    ? `${(error as Error).message} (${(error as { code: string }).code})`
    : ((error as Error)?.message ?? String(error));

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS / 1000} s`)),
      PROBE_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function runDoctor(source: NodeJS.ProcessEnv): Promise<Check[]> {
  const checks: Check[] = [];
  const add = (verdict: Verdict, name: string, message: string) => checks.push({ verdict, name, message });

  // the configuration, as the server reads it (a missing local secret is not generated here)
  let env: Env;
  try {
    const localSecret = source.NODE_ENV !== "production" || source.CARTWHEEL_LOCAL === "true";
    env = parseEnv(
      source.SESSION_SECRET || !localSecret
        ? source
        : { ...source, SESSION_SECRET: "doctor-placeholder-secret-0123456789abcdef" },
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const lines = error.message.split("\n").slice(1);
    for (const line of lines.length > 0 ? lines : [error.message])
      add("problem", "configuration", line.trim());
    return checks;
  }
  add(
    "ok",
    "configuration",
    `valid (${isPostgresUrl(env.DATABASE_URL) ? "PostgreSQL" : "SQLite"}, files ${env.FILE_STORE_URL.startsWith("s3://") ? "in S3" : "on local disk"}, mail ${env.MAIL_URL.startsWith("file:") ? "to files" : "over SMTP"}, ${env.PAYMENT_GATEWAY} payments)`,
  );

  await checkDatabase(env, add);

  try {
    const disk = await diskSpace(env.DATA_DIR);
    const freeGb = disk.freeBytes / GB;
    const percent = disk.totalBytes > 0 ? (disk.freeBytes / disk.totalBytes) * 100 : 0;
    const verdict = diskVerdict(disk.freeBytes, disk.totalBytes);
    add(
      verdict,
      "disk",
      `${freeGb.toFixed(1)} GB free (${percent.toFixed(0)} %) at ${disk.at}${verdict === "warning" ? ": under 1 GB or 5 %, uploads, mail and the database may soon fail to write" : ""}`,
    );
  } catch (error) {
    add("problem", "disk", `cannot read the free space at ${env.DATA_DIR}: ${reason(error)}`);
  }

  if (env.MAIL_URL.startsWith("file:")) {
    const directory = env.MAIL_URL.replace(/^file:(\/\/)?/, "");
    try {
      await probeWritableDirectory(directory);
      add("ok", "mail", `written as .eml files to ${directory}`);
    } catch (error) {
      add("problem", "mail", `cannot write to the mail directory ${directory}: ${reason(error)}`);
    }
  } else {
    try {
      await withTimeout(probeSmtp(env.MAIL_URL), "the SMTP server");
      add("ok", "mail", `the SMTP server at ${shown(env.MAIL_URL)} accepts the shop`);
    } catch (error) {
      add(
        "problem",
        "mail",
        `the SMTP server at ${shown(env.MAIL_URL)} does not take the shop: ${reason(error)}`,
      );
    }
  }

  const store = parseFileStoreUrl(env.FILE_STORE_URL);
  if (store.kind === "file") {
    try {
      await probeWritableDirectory(store.directory);
      add("ok", "files", `uploads written to ${store.directory}`);
    } catch (error) {
      add("problem", "files", `cannot write to the upload directory ${store.directory}: ${reason(error)}`);
    }
  } else {
    try {
      await withTimeout(
        probeBucket({
          bucket: store.bucket,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
        }),
        "the bucket",
      );
      add("ok", "files", `the bucket ${store.bucket} answers`);
    } catch (error) {
      add("problem", "files", `the bucket ${store.bucket} does not answer: ${reason(error)}`);
    }
  }

  if (env.PAYMENT_GATEWAY === "test") {
    add("ok", "payments", "the built-in test gateway (no real money moves)");
  } else {
    try {
      await withTimeout(probeStripe(env.STRIPE_SECRET_KEY!, env.STRIPE_API_URL), "Stripe");
      add(
        "ok",
        "payments",
        `Stripe accepts the ${env.STRIPE_SECRET_KEY!.startsWith("sk_live_") ? "live" : "test"} secret key`,
      );
    } catch (error) {
      add("problem", "payments", `Stripe refuses the secret key or cannot be reached: ${reason(error)}`);
    }
  }
  return checks;
}

async function checkDatabase(env: Env, add: (verdict: Verdict, name: string, message: string) => void) {
  const where = isPostgresUrl(env.DATABASE_URL)
    ? shown(env.DATABASE_URL)
    : sqlitePathFromUrl(env.DATABASE_URL);
  if (!isPostgresUrl(env.DATABASE_URL) && !existsSync(sqlitePathFromUrl(env.DATABASE_URL))) {
    add("warning", "database", `no database at ${where} yet: the server makes it at its first start`);
    return;
  }
  const db = createDatabase(env.DATABASE_URL, { poolSize: 1 });
  try {
    await withTimeout(sql`select 1`.execute(db), "the database");
    const { pending, unknown } = await migrationState(db);
    if (unknown.length > 0) {
      add(
        "problem",
        "database",
        `${where} was migrated by a newer version of the shop (${unknown.join(", ")}): run that version, or restore a backup made for this one`,
      );
    } else if (pending.length > 0) {
      add(
        "warning",
        "database",
        `${where} answers; ${pending.length} migration${pending.length === 1 ? "" : "s"} to apply (${pending.join(", ")}): the server applies them at start, or run npm run cli -- migrate`,
      );
    } else {
      add("ok", "database", `${where} answers, every migration applied`);
    }
  } catch (error) {
    add("problem", "database", `cannot reach ${where}: ${reason(error)}`);
  } finally {
    await db.destroy().catch(() => {});
  }
}

/** Prints each check on a line of its own; answers the exit code (1 when any problem). */
export function printChecks(checks: Check[], write: (line: string) => void = console.log): number {
  for (const check of checks) write(`${check.verdict.padEnd(8)} ${check.name}: ${check.message}`);
  const problems = checks.filter((check) => check.verdict === "problem").length;
  const warnings = checks.filter((check) => check.verdict === "warning").length;
  write(
    problems > 0
      ? `${problems} problem${problems === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`
      : warnings > 0
        ? `No problem; ${warnings} warning${warnings === 1 ? "" : "s"}.`
        : "Everything looks right.",
  );
  return problems > 0 ? 1 : 0;
}
