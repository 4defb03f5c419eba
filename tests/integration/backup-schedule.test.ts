import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import {
  pruneBackups,
  readBackupSettings,
  runScheduledBackup,
  saveBackupSettings,
} from "../../app/domain/backups/backup-schedule.server.ts";
import type { BackupServices } from "../../app/domain/backups/take-backup.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { productWithImage } from "../helpers/backup-drill.ts";

/**
 * The daily backup (decision 028) on each engine, as the job's turn runs it (the job itself, in
 * app/jobs/background-jobs.server.ts, only calls runScheduledBackup under the "backup" lease each
 * hour): nothing while off or before the owner's hour; one backup when due, once a day; the
 * archives beyond the retention count deleted after it, other files left alone; a failure recorded
 * with its error and not retried the same day.
 */
const OWNER = { id: "owner-1", email: "owner@example.com" };
const day = (d: number, time: string) => new Date(`2026-11-${String(d).padStart(2, "0")}T${time}:00.000Z`);

describe.each(ENGINES)("the daily backup on %s", (engine) => {
  let t: TestDatabase;
  let services: BackupServices;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    const uploads = join(t.dir, "uploads");
    services = {
      db: t.db,
      databaseUrl: t.url,
      files: createLocalFileStore(uploads),
      fileStoreUrl: `file:${uploads}`,
      dataDir: t.dir,
      s3: parseEnv(process.env),
    };
    await productWithImage(t.db, services.files, 1_000);
    dir = await mkdtemp(join(tmpdir(), "cartwheel-daily-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t?.destroy();
  });
  const archives = async () => (await readdir(dir)).filter((name) => name.endsWith(".tar.gz")).sort();
  const runs = () => t.db.selectFrom("backupRuns").selectAll().orderBy("id").execute();

  it("backs up once a day at the owner's hour and keeps the newest N", { timeout: 60_000 }, async () => {
    expect(await runScheduledBackup(services, day(1, "03:00"))).toEqual({ ran: false }); // off
    const saved = await saveBackupSettings(services, {
      settings: { enabled: true, hourUtc: 2, keepCount: 2, destination: dir },
      actor: OWNER,
      now: day(1, "01:00"),
    });
    expect(saved).toEqual({ ok: true, value: { saved: true } });
    expect(await runScheduledBackup(services, day(1, "01:30"))).toEqual({ ran: false }); // not yet
    const first = await runScheduledBackup(services, day(1, "02:00"));
    expect(first).toMatchObject({ ran: true, outcome: { ok: true, value: { pruned: [] } } });
    expect(await runScheduledBackup(services, day(1, "09:00"))).toEqual({ ran: false }); // done today
    expect(await runScheduledBackup(services, day(2, "02:30"))).toMatchObject({
      ran: true,
      outcome: { ok: true },
    });
    expect(await archives()).toHaveLength(2);
    // a stranger's file and a fresh unfinished archive stay; one a stopped process left days ago goes
    await writeFile(join(dir, "notes.txt"), "mine");
    await writeFile(join(dir, "cartwheel-backup-2026-11-02T000000Z-aaaaaa.tar.gz.partial"), "half");
    const stale = join(dir, "cartwheel-backup-2026-10-01T000000Z-bbbbbb.tar.gz.partial");
    await writeFile(stale, "half");
    await mkdir(join(dir, "cartwheel-backup-2026-10-01T000000Z-bbbbbb.tar.gz.work"));
    const long = new Date(Date.now() - 3 * 24 * 60 * 60_000);
    await utimes(stale, long, long);
    await utimes(join(dir, "cartwheel-backup-2026-10-01T000000Z-bbbbbb.tar.gz.work"), long, long);

    const third = await runScheduledBackup(services, day(4, "05:00")); // the shop was down on the 3rd
    if (!third.ran || !third.outcome.ok) throw new Error("the third backup did not run");
    const oldest = (await runs())[0]!.archiveName!;
    expect(third.outcome.value.pruned).toEqual([oldest]);
    const left = await archives();
    expect(left).toHaveLength(2);
    expect(left).not.toContain(oldest);
    expect(left).toContain(third.outcome.value.name);
    expect((await readdir(dir)).sort()).toEqual(
      [...left, "cartwheel-backup-2026-11-02T000000Z-aaaaaa.tar.gz.partial", "notes.txt"].sort(),
    );
    expect((await runs()).map((run) => [run.origin, run.status, run.startedAt])).toEqual([
      ["schedule", "ok", day(1, "02:00").toISOString()],
      ["schedule", "ok", day(2, "02:30").toISOString()],
      ["schedule", "ok", day(4, "05:00").toISOString()],
    ]);
  });

  it("records a failed backup with its error and waits for the next day", async () => {
    const blocked = join(dir, "a-file-not-a-directory");
    await writeFile(blocked, "x");
    const saved = await saveBackupSettings(services, {
      settings: { enabled: true, hourUtc: 6, keepCount: 2, destination: blocked },
      actor: OWNER,
      now: day(10, "00:00"),
    });
    expect(saved.ok).toBe(true);
    const failed = await runScheduledBackup(services, day(10, "06:00"));
    expect(failed).toMatchObject({ ran: true, outcome: { ok: false, error: { destination: blocked } } });
    const last = (await runs()).at(-1)!;
    expect(last).toMatchObject({
      status: "failed",
      origin: "schedule",
      destination: blocked,
      archiveName: null,
    });
    expect(last.error).toMatch(/EEXIST|ENOTDIR|not a directory|file already exists/i);
    expect(await runScheduledBackup(services, day(10, "07:00"))).toEqual({ ran: false });
    // nothing of it was left next to the file
    expect((await readdir(dir)).filter((name) => name.startsWith("a-file"))).toEqual([
      "a-file-not-a-directory",
    ]);
    await expect(pruneBackups(services, await readBackupSettings(t.db))).rejects.toThrow(/ENOTDIR/);
  });
});
