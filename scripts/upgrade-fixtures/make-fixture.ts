/**
 * Makes the upgrade fixture of one commit (tests/fixtures/upgrades/README.md):
 *
 *   npx node scripts/upgrade-fixtures/make-fixture.ts <commit>
 *
 * In a git worktree of that commit — with its own node_modules: /work's linked when the commit's
 * package-lock.json is the one installed here, else `npm ci` — it runs fill-<commit>.ts (type-checked
 * there against that version's app first) twice: once into a SQLite file, once into a fresh
 * PostgreSQL database, which is then dumped as plain SQL. Writes tests/fixtures/upgrades/<commit>/:
 * sqlite.db, postgres.sql and each engine's snapshot (sqlite.json, postgres.json). The worktree, its
 * scratch files and the PostgreSQL database are removed afterwards, whatever happened.
 *
 * PostgreSQL is reached at TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * as by the tests; pg_dump must be on the PATH.
 */
import { execFileSync, type StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { FIXTURE_PUBLIC_URL, FIXTURE_SECRET } from "./fixture-kit.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const HERE = import.meta.dirname;
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const stdio: StdioOptions = ["ignore", "inherit", "inherit"];

const given = process.argv[2];
if (!given) throw new Error("usage: npx node scripts/upgrade-fixtures/make-fixture.ts <commit>");
const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
const sha = git("rev-parse", "--verify", `${given}^{commit}`);
const short = git("rev-parse", "--short=7", sha);
const fill = join(HERE, `fill-${short}.ts`);
if (!existsSync(fill)) throw new Error(`No fill script for ${short}: write ${fill} first (see the README).`);
const out = join(ROOT, "tests/fixtures/upgrades", short);
mkdirSync(out, { recursive: true });

const work = mkdtempSync(join(tmpdir(), `cartwheel-fixture-${short}-`));
const tree = join(work, "tree");
const database = `cartwheel_fixture_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
await admin.connect();
try {
  console.log(`worktree of ${short} in ${tree}`);
  git("worktree", "add", "--detach", tree, sha);

  const lock = git("show", `${sha}:package-lock.json`);
  if (lock === readFileSync(join(ROOT, "package-lock.json"), "utf8").trim()) {
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  } else {
    console.log("its package-lock.json differs from the one installed here: npm ci");
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: tree, stdio });
  }

  // the fill script and the kit go where they live here, without the line that keeps today's
  // type-check off them: there they are checked against that version's app
  const target = join(tree, "scripts/upgrade-fixtures");
  mkdirSync(target, { recursive: true });
  copyFileSync(join(HERE, "fixture-kit.ts"), join(target, "fixture-kit.ts"));
  const source = readFileSync(fill, "utf8").replace(/^\/\/ @ts-nocheck.*\n/, "");
  writeFileSync(join(target, `fill-${short}.ts`), source);
  typeCheck(tree);

  const node = join(tree, "node_modules/.bin/node");
  const run = (url: string, engine: string) => {
    const scratch = join(work, `scratch-${engine}`);
    mkdirSync(scratch, { recursive: true });
    console.log(`filling ${engine}`);
    execFileSync(
      node,
      [
        `scripts/upgrade-fixtures/fill-${short}.ts`,
        "--database",
        url,
        "--scratch",
        scratch,
        "--snapshot",
        join(out, `${engine}.json`),
        "--commit",
        sha,
      ],
      {
        cwd: tree,
        stdio,
        env: {
          ...process.env,
          NODE_ENV: "test",
          LOG_LEVEL: "silent",
          SESSION_SECRET: FIXTURE_SECRET,
          PUBLIC_URL: FIXTURE_PUBLIC_URL,
          DATA_DIR: scratch,
          SEED_ON_EMPTY: "false",
          PAYMENT_DELAY_MS: "0",
        },
      },
    );
  };

  const sqliteFile = join(work, "fixture.db");
  run(`file:${sqliteFile}`, "sqlite");
  // a compact copy, without the write-ahead log
  rmSync(join(out, "sqlite.db"), { force: true });
  const sqlite = new DatabaseSync(sqliteFile);
  sqlite.exec(`vacuum into '${join(out, "sqlite.db").replaceAll("'", "''")}'`);
  sqlite.close();

  await admin.query(`create database ${database}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  run(url.toString(), "postgres");
  execFileSync(
    "pg_dump",
    [
      "--format=plain",
      "--no-owner",
      "--no-privileges",
      `--file=${join(out, "postgres.sql")}`,
      url.toString(),
    ],
    { stdio },
  );

  execFileSync(
    join(ROOT, "node_modules/.bin/biome"),
    ["format", "--write", join(out, "sqlite.json"), join(out, "postgres.json")],
    {
      cwd: ROOT,
      stdio,
    },
  );
  console.log(`written: ${out}`);
} finally {
  await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
  await admin.end();
  if (existsSync(tree)) {
    try {
      git("worktree", "remove", "--force", tree);
    } catch (error) {
      console.error(`could not remove the worktree ${tree}: ${(error as Error).message}`);
    }
  }
  rmSync(work, { recursive: true, force: true });
}

/**
 * The version's own TypeScript over its app with the fill script in it: the fill script's errors
 * stop the run (the rest of that tree is that commit's business, e.g. its route types not generated).
 */
function typeCheck(dir: string) {
  console.log("type-checking the fill script against its version");
  let output = "";
  try {
    execFileSync(join(dir, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? "");
  }
  const ours = output.split("\n").filter((line) => line.startsWith("scripts/upgrade-fixtures/"));
  if (ours.length > 0)
    throw new Error(`the fill script does not type-check against its version:\n${ours.join("\n")}`);
}
