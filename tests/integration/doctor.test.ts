import { execFile } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/lib/procs.ts";
import { diskVerdict } from "../../cli/doctor.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ROOT } from "../helpers/build.ts";

/**
 * `npm run cli -- doctor` (decision 027) as an operator runs it: one line per check, exit code 1
 * when anything is a problem — on a good installation of either engine, and on broken ones: a
 * database nobody answers for, a directory that cannot be written, an SMTP server that is not
 * there, a bad setting.
 */
const run = promisify(execFile);

async function doctor(env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await run(process.execPath, ["cli/main.ts", "doctor"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: "test", ...env },
    });
    return { code: 0, lines: stdout.trim().split("\n") };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, lines: failed.stdout.trim().split("\n") };
  }
}

const line = (lines: string[], check: string) => lines.find((l) => l.split(/\s+/)[1] === `${check}:`);

describe.each(ENGINES)("doctor, on %s", (engine) => {
  let t: TestDatabase;
  let good: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    good = {
      DATABASE_URL: t.url,
      DATA_DIR: t.dir,
      FILE_STORE_URL: `file:${join(t.dir, "uploads")}`,
      MAIL_URL: `file:${join(t.dir, "mail")}`,
    };
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("finds nothing wrong with a good installation", async () => {
    const { code, lines } = await doctor(good);
    expect(code).toBe(0);
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual([
      "ok configuration:",
      "ok database:",
      expect.stringMatching(/^(ok|warning) disk:$/), // this machine's own disk decides
      "ok mail:",
      "ok files:",
      "ok payments:",
      expect.stringMatching(/^(Everything|No)/),
    ]);
    expect(line(lines, "database")).toContain("every migration applied");
  });

  it("names each problem on its line and exits 1", async () => {
    const closedPort = await freePort();
    const blocker = join(t.dir, "a-file-not-a-directory");
    writeFileSync(blocker, "");
    const { code, lines } = await doctor({
      ...good,
      DATABASE_URL: engine === "postgres" ? `postgres://postgres:secret@127.0.0.1:${closedPort}/shop` : t.url,
      FILE_STORE_URL: `file:${join(blocker, "uploads")}`,
      MAIL_URL: `smtp://127.0.0.1:${closedPort}`,
    });
    expect(code).toBe(1);
    if (engine === "postgres") {
      expect(line(lines, "database")).toMatch(
        /^problem +database: cannot reach postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/,
      );
      expect(line(lines, "database")).toContain("ECONNREFUSED");
    } else {
      expect(line(lines, "database")).toMatch(/^ok /);
    }
    expect(line(lines, "files")).toMatch(/^problem +files: cannot write to the upload directory .*ENOTDIR/);
    expect(line(lines, "mail")).toMatch(
      /^problem +mail: the SMTP server at smtp:\/\/127\.0\.0\.1:\d+\/? does not take the shop: .*ECONNREFUSED/,
    );
    expect(lines.at(-1)).toMatch(/^[23] problems/);
    expect(lines.join("\n")).not.toContain("secret");
  });

  it("says when the database's schema is behind the code, or ahead of it", async () => {
    await t.db
      .deleteFrom("kysely_migration" as never)
      .where("name" as never, "=", "2026-11-28T0200-job-turns" as never)
      .execute();
    const behind = await doctor(good);
    expect(behind.code).toBe(0);
    expect(line(behind.lines, "database")).toMatch(
      /^warning +database: .*1 migration to apply \(2026-11-28T0200-job-turns\)/,
    );
    await t.db
      .insertInto("kysely_migration" as never)
      .values([
        { name: "2026-11-28T0200-job-turns", timestamp: new Date().toISOString() },
        { name: "2099-01-01T0000-from-the-future", timestamp: new Date().toISOString() },
      ] as never)
      .execute();
    const ahead = await doctor(good);
    expect(ahead.code).toBe(1);
    expect(line(ahead.lines, "database")).toMatch(
      /^problem +database: .*migrated by a newer version of the shop \(2099-01-01T0000-from-the-future\)/,
    );
  });
});

it("names a bad setting and checks nothing else", async () => {
  const { code, lines } = await doctor({ PORT: "eighty", PAYMENT_GATEWAY: "stripe" });
  expect(code).toBe(1);
  expect(lines[0]).toMatch(/^problem +configuration: PORT: /);
  expect(lines.some((l) => /^\S+ +database:/.test(l))).toBe(false);
});

it("refuses an SMTP server that answers but is not one", async () => {
  // something listens on the port, but it does not speak SMTP: the greeting never comes right
  const server = createServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  try {
    const { code, lines } = await doctor({
      MAIL_URL: `smtp://127.0.0.1:${port}`,
      DATABASE_URL: "file::memory:",
    });
    expect(code).toBe(1);
    expect(line(lines, "mail")).toMatch(/^problem +mail: /);
  } finally {
    server.close();
  }
});

it("warns of a disk under 1 GB or 5 % free", () => {
  const GB = 1024 ** 3;
  expect(diskVerdict(50 * GB, 100 * GB)).toBe("ok");
  expect(diskVerdict(0.9 * GB, 10 * GB)).toBe("warning");
  expect(diskVerdict(4 * GB, 100 * GB)).toBe("warning");
  expect(diskVerdict(6 * GB, 100 * GB)).toBe("ok");
});
