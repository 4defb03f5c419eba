import { randomBytes } from "node:crypto";
import { watch } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { gunzipSync } from "node:zlib";
import { sql } from "kysely";
import { create, extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openDestination,
  parseBackupLocation,
} from "../../app/adapters/backups/backup-destination.server.ts";
import { createFileStore, createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { variantKey } from "../../app/adapters/images/images.server.ts";
import { assembleServices } from "../../app/composition.server.ts";
import {
  createDatabase,
  type Database,
  type Engine,
  sqlitePathFromUrl,
} from "../../app/db/database.server.ts";
import { isArchiveName } from "../../app/domain/backups/backup-names.ts";
import { pruneBackups } from "../../app/domain/backups/backup-schedule.server.ts";
import { restoreBackup } from "../../app/domain/backups/restore-backup.server.ts";
import { takeBackup } from "../../app/domain/backups/take-backup.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { reconcilePayments } from "../../app/domain/payments/charges.server.ts";
import { REFUND_SETTLE_GRACE_MS, settlePendingRefunds } from "../../app/domain/payments/refunds.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import {
  type CliRun,
  cli,
  confirmedOrders,
  emptyTarget,
  OrderLoad,
  productWithImage,
  type RestoreTarget,
  startCli,
} from "../helpers/backup-drill.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { type S3TestServer, startS3TestServer } from "../helpers/s3-test-server.ts";

/**
 * Backups that restore (issue 29, decision 028), on each engine, through the real CLI:
 *
 * - the restore drill: a shop places and refunds orders in another process while `backup` runs;
 *   the archive is restored into a fresh directory / fresh PostgreSQL database, a shop is assembled
 *   over it, and every order confirmed before the backup began is there with its lines, its
 *   payment and refunds at the gateway and its pictures; the integrity checks pass, the stock
 *   ledger balances, and once the restored shop's jobs settle what was in flight the money books do;
 *   a second restore into that target is refused, and works with --force;
 * - a backup killed with SIGKILL while it writes its archive leaves nothing a restore accepts;
 * - a changed byte, a repacked archive whose part no longer matches its manifest, an archive from a
 *   newer schema and one of the other engine are refused, each with a plain message;
 * - an S3 destination round trip through s3rver (the shop's images on S3 too).
 */
const SECRET = "backup-drill-test-secret-0123456789abcdef";

const archivesIn = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith(".tar.gz"));

describe.each(ENGINES)("backups and restores on %s", (engine: Engine) => {
  let live: TestDatabase;
  let liveFiles: FileStore;
  let scratch: string;
  const targets: RestoreTarget[] = [];
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: live.url,
    FILE_STORE_URL: `file:${join(live.dir, "uploads")}`,
    DATA_DIR: live.dir,
    ...extra,
  });
  const target = async () => {
    const made = await emptyTarget(engine, await mkdtemp(join(scratch, "target-")));
    targets.push(made);
    return made;
  };

  beforeAll(async () => {
    live = await createTestDatabase(engine);
    liveFiles = createLocalFileStore(join(live.dir, "uploads"));
    scratch = await mkdtemp(join(tmpdir(), "cartwheel-backups-"));
  });
  afterAll(async () => {
    for (const made of targets) await made.drop();
    await rm(scratch, { recursive: true, force: true });
    await live?.destroy();
  });

  it("the restore drill: every order confirmed before the backup began comes back whole, and the restored shop balances", {
    timeout: 240_000,
  }, async () => {
    const products = [
      await productWithImage(live.db, liveFiles, 2_500),
      await productWithImage(live.db, liveFiles, 4_000),
      await productWithImage(live.db, liveFiles, 1_250),
    ];
    const backups = join(scratch, "drill-backups");
    // SQLite: a long read in another connection (a report, say) keeps every page written after it
    // in the WAL, none checkpointed into the database file — so a backup that copied the file
    // would lose every order of the drill, not merely the newest ones
    const reader = engine === "sqlite" ? new DatabaseSync(sqlitePathFromUrl(live.url)) : null;
    reader?.exec("begin");
    reader?.prepare("select count(*) from orders").get();
    const load = new OrderLoad(live.url, SECRET, products);
    let before: Awaited<ReturnType<typeof confirmedOrders>>;
    let backup: CliRun;
    try {
      await load.until(() => load.placed.length >= 30 && load.refunded.length >= 8);
      before = await confirmedOrders(live.db);
      const placedBefore = load.placed.length;
      backup = await cli(["backup", "--to", backups], env());
      // the shop went on taking orders after the backup, so the restore must not simply be "now"
      await load.until(() => load.placed.length >= placedBefore + 10);
    } finally {
      await load.kill();
      reader?.exec("commit");
      reader?.close();
    }
    expect(backup.code, backup.out).toBe(0);
    expect(before.length).toBeGreaterThanOrEqual(30);
    expect(before.filter((entry) => entry.refunds.length > 0).length).toBeGreaterThanOrEqual(4);
    const [archive, ...others] = await archivesIn(backups);
    expect(others).toEqual([]);

    const into = await target();
    const restore = await cli(["restore", join(backups, archive!), ...into.args], env());
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/ok {3}stock ledger: every level equals its ledger/);
    expect(restore.out).toMatch(
      /ok {3}product images: all \d+ files the products name are in the file store/,
    );
    if (engine === "sqlite") expect(restore.out).toMatch(/ok {3}SQLite integrity_check: ok/);
    expect(restore.out).toMatch(/Rows: \d+ orders, \d+ order items, \d+ refunds, \d+ products\./);

    // a shop over the restored database and files
    const db = createDatabase(into.databaseUrl, { poolSize: 4 });
    try {
      const config = parseEnv({
        ...process.env,
        DATABASE_URL: into.databaseUrl,
        FILE_STORE_URL: `file:${join(into.dir, "uploads")}`,
        DATA_DIR: into.dir,
        MAIL_URL: `file:${join(into.dir, "mail")}`,
      });
      const shop = assembleServices(config, { db, files: createLocalFileStore(join(into.dir, "uploads")) });
      const restored = await confirmedOrders(db);
      const byNumber = new Map(restored.map((entry) => [entry.order.number, entry]));
      for (const entry of before) {
        const back = byNumber.get(entry.order.number);
        expect(back, entry.order.number).toBeDefined();
        expect(back!.order).toEqual(entry.order);
        expect(back!.items).toEqual(entry.items);
        expect(entry.payment).not.toBeNull();
        expect(back!.payment).toEqual(entry.payment);
        // refunds made before the backup are there (later ones may be too: the snapshot came after)
        for (const refund of entry.refunds) expect(back!.refunds).toContainEqual(refund);
        for (const refund of entry.gatewayRefunds) expect(back!.gatewayRefunds).toContainEqual(refund);
        // the shop reads it as its own
        const shown = await getOrderByNumber(shop.db, entry.order.number);
        expect(shown?.items.map((item) => item.quantity)).toEqual(entry.items.map((item) => item.quantity));
      }
      // the pictures its lines show, byte for byte, from the restored shop's file store
      const keys = new Set(before.flatMap((entry) => entry.items.map((item) => item.imageKey)));
      expect(keys.size).toBe(3);
      for (const key of keys) {
        for (const width of [320, 640, 960]) {
          const file = variantKey(key!, width);
          const original = await liveFiles.get(file);
          expect(original, file).not.toBeNull();
          expect(
            Buffer.compare(Buffer.from((await shop.files.get(file))!), Buffer.from(original!)),
            file,
          ).toBe(0);
        }
      }
      // a snapshot of one moment: the orders placed after the backup are not in it
      const count = async (of: Database) =>
        Number(
          (
            await of
              .selectFrom("orders")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count(db)).toBeLessThan(await count(live.db));
      expect(await count(db)).toBeGreaterThanOrEqual(before.length);

      // the restored shop's jobs settle what the snapshot caught in flight; then the books balance
      const later = new Date(Date.now() + 24 * 60 * 60_000 + REFUND_SETTLE_GRACE_MS);
      await reconcilePayments(db, shop.gateway, { now: later, limit: 10_000 });
      await settlePendingRefunds(
        {
          db,
          gateway: shop.gateway,
          mail: { send: async () => ({ messageId: "none" }) },
          shop: { shopName: "Drill", publicUrl: "http://shop.test" },
        },
        { now: later, limit: 10_000 },
      );
      expect((await moneyBookDifferences(db)).differences).toEqual([]);
      const drift = await checkStockLedger(db);
      expect(drift.variants).toEqual([]);
      expect(drift.products).toEqual([]);
    } finally {
      await db.destroy();
    }

    // the target is a shop now: refused without --force, replaced with it
    const again = await cli(["restore", join(backups, archive!), ...into.args], env());
    expect(again.code, again.out).toBe(2);
    expect(again.out).toMatch(/target database is not empty .*--force/);
    const forced = await cli(["restore", join(backups, archive!), ...into.args, "--force"], env());
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toMatch(/every check passed/);
  });

  it("a backup killed with SIGKILL while writing its archive leaves nothing a restore accepts", {
    timeout: 120_000,
  }, async () => {
    // a large file the archive takes a moment to compress, so the kill lands mid-archive
    const uploads = join(scratch, "kill-uploads");
    await mkdir(join(uploads, "big"), { recursive: true });
    await writeFile(join(uploads, "big", "noise.bin"), randomBytes(64 * 1024 * 1024));
    const backups = join(scratch, "kill-backups");
    await mkdir(backups, { recursive: true });
    // the first archive file to appear, unfinished or not
    let appeared = "";
    const seen = new Promise<void>((resolve) => {
      const watcher = watch(backups, (_event, name) => {
        if (name?.endsWith(".partial") || name?.endsWith(".tar.gz")) {
          appeared = name;
          watcher.close();
          resolve();
        }
      });
    });
    const run = startCli(["backup", "--to", backups], env({ FILE_STORE_URL: `file:${uploads}` }));
    await seen;
    run.child.kill("SIGKILL");
    const { code } = await run.done;
    expect(code).toBeNull();
    expect(appeared).toMatch(/\.tar\.gz\.partial$/);
    const unfinished = appeared;
    // no finished archive; the unfinished one and a copy of it under a finished name are refused
    expect(await archivesIn(backups)).toEqual([]);
    const partial = join(backups, unfinished);
    const refusedPartial = await cli(["restore", partial, ...(await target()).args], env());
    expect(refusedPartial.code, refusedPartial.out).toBe(2);
    expect(refusedPartial.out).toMatch(/unfinished backup/);
    const renamed = join(scratch, "renamed.tar.gz");
    await copyFile(partial, renamed);
    const refusedRenamed = await cli(["restore", renamed, ...(await target()).args], env());
    expect(refusedRenamed.code, refusedRenamed.out).toBe(2);
    expect(refusedRenamed.out).toMatch(/damaged or incomplete|no manifest/);
  });

  it("refuses a changed byte, a part that does not match its manifest, a newer schema and the other engine", {
    timeout: 120_000,
  }, async () => {
    const t = await createTestDatabase(engine);
    try {
      await productWithImage(t.db, createLocalFileStore(join(t.dir, "uploads")), 999);
      const services = {
        db: t.db,
        databaseUrl: t.url,
        files: createLocalFileStore(join(t.dir, "uploads")),
        fileStoreUrl: `file:${join(t.dir, "uploads")}`,
        dataDir: t.dir,
        s3: parseEnv(process.env),
      };
      const backups = join(scratch, "refusals");
      const made = await takeBackup(services, { destination: backups, origin: "cli" });
      if (!made.ok) throw new Error(made.error.message);
      const archive = join(backups, made.value.name);
      const restoreInto = async (file: string) => {
        const into = await target();
        return restoreBackup({
          archive: file,
          databaseUrl: into.databaseUrl,
          fileStoreUrl: `file:${join(into.dir, "uploads")}`,
          workDirectory: into.dir,
          s3: services.s3,
        });
      };
      // untouched, it restores
      const fine = await restoreInto(archive);
      expect(fine.ok && fine.value.ok).toBe(true);

      // one changed byte in the middle of the file — one that changes what the archive holds: a bit
      // deflate ignores (the padding before a stored block) leaves the same archive, rightly restored
      const original = await readFile(archive);
      const unpackedOriginal = gunzipSync(original);
      let bytes = original;
      for (let at = Math.floor(original.length / 2); at < original.length; at++) {
        bytes = Buffer.from(original);
        bytes[at]! ^= 0x01;
        let same = false;
        try {
          same = gunzipSync(bytes).equals(unpackedOriginal);
        } catch {
          // a damaged stream: what the restore must refuse
        }
        if (!same) break;
      }
      const flipped = join(scratch, "flipped.tar.gz");
      await writeFile(flipped, bytes);
      const refusedFlip = await restoreInto(flipped);
      expect(refusedFlip.ok).toBe(false);
      if (!refusedFlip.ok) expect(["damaged", "not-verified"]).toContain(refusedFlip.error.code);
      const viaCli = await cli(["restore", flipped, ...(await target()).args], env());
      expect(viaCli.code, viaCli.out).toBe(2);
      expect(viaCli.out).toMatch(/Refused to restore .*Nothing was changed/);

      // one changed byte of gzip's CRC-32 at the end, which a tar reader never needs to reach
      const tail = await readFile(archive);
      tail[tail.length - 6]! ^= 0x01;
      const crc = join(scratch, "crc.tar.gz");
      await writeFile(crc, tail);
      expect(await restoreInto(crc)).toMatchObject({ ok: false, error: { code: "damaged" } });

      // repacked properly, but a part changed after its manifest was written
      const unpacked = join(scratch, "repack");
      await mkdir(unpacked, { recursive: true });
      await extract({ file: archive, cwd: unpacked });
      const entries = made.value.manifest.parts.map((part) => part.path);
      const image = entries.find((path) => path.startsWith("files/"))!;
      const picture = await readFile(join(unpacked, image));
      picture[picture.length - 1]! ^= 0xff;
      await writeFile(join(unpacked, image), picture);
      const repacked = join(scratch, "repacked.tar.gz");
      await create({ gzip: true, cwd: unpacked, file: repacked }, [
        "manifest.json",
        "manifest.json.sha256",
        ...entries,
      ]);
      const refusedPart = await restoreInto(repacked);
      expect(refusedPart).toMatchObject({ ok: false, error: { code: "not-verified" } });
      if (!refusedPart.ok) expect(refusedPart.error.message).toContain(image);

      // a database a newer Cartwheel migrated: the schema names a migration this code does not have
      await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-from-the-future', '2099-01-01T00:00:00.000Z')`.execute(
        t.db,
      );
      const newer = await takeBackup(services, { destination: backups, origin: "cli" });
      if (!newer.ok) throw new Error(newer.error.message);
      expect(newer.value.manifest.schemaVersion).toBe("2099-01-01T0000-from-the-future");
      const refusedNewer = await restoreInto(join(backups, newer.value.name));
      expect(refusedNewer).toMatchObject({ ok: false, error: { code: "newer-schema" } });
      if (!refusedNewer.ok) expect(refusedNewer.error.message).toMatch(/newer version.*Upgrade Cartwheel/);

      // the other engine's target
      const other =
        engine === "sqlite" ? ENGINES.includes("postgres") && (await emptyTarget("postgres", scratch)) : null;
      const otherUrl = other
        ? other.databaseUrl
        : engine === "postgres"
          ? `file:${join(scratch, "other.db")}`
          : null;
      if (otherUrl) {
        const refusedEngine = await restoreBackup({
          archive,
          databaseUrl: otherUrl,
          fileStoreUrl: `file:${join(scratch, "other-uploads")}`,
          workDirectory: scratch,
          s3: services.s3,
        });
        if (other) await other.drop();
        expect(refusedEngine).toMatchObject({ ok: false, error: { code: "other-engine" } });
        if (!refusedEngine.ok) {
          expect(refusedEngine.error.message).toMatch(
            engine === "sqlite"
              ? /holds a SQLite database and the target is PostgreSQL/
              : /holds a PostgreSQL database and the target is SQLite/,
          );
        }
      }
    } finally {
      await sql`delete from kysely_migration where name = '2099-01-01T0000-from-the-future'`.execute(t.db);
      await t.destroy();
    }
  });
});

describe("an S3 destination", () => {
  let s3: S3TestServer;
  let t: TestDatabase;
  let scratch: string;
  beforeAll(async () => {
    s3 = await startS3TestServer();
    t = await createTestDatabase("sqlite");
    scratch = await mkdtemp(join(tmpdir(), "cartwheel-s3-backups-"));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
    await t?.destroy();
    await s3?.stop();
  });

  it("backs up to a bucket and restores from it (the shop's images on S3 too)", {
    timeout: 60_000,
  }, async () => {
    const images = `s3://${s3.bucket}/shop-images`;
    const files = createFileStore(images, s3.settings);
    await productWithImage(t.db, files, 1_999);
    const env = { DATABASE_URL: t.url, FILE_STORE_URL: images, DATA_DIR: t.dir, ...s3.settings };
    const backup = await cli(["backup", "--to", `s3://${s3.bucket}/backups/nightly`], env);
    expect(backup.code, backup.out).toBe(0);
    const name = backup.out.match(/cartwheel-backup-[^ ]+\.tar\.gz/)?.[0];
    expect(name).toBeDefined();
    // nothing is left behind locally: the unfinished archive was uploaded, then removed
    expect((await readdir(join(t.dir, "backups"))).filter((entry) => !entry.startsWith("."))).toEqual([]);

    const into = join(scratch, "restored");
    const restore = await cli(["restore", `s3://${s3.bucket}/backups/nightly/${name}`, "--into", into], env);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/Restored 3 files into file:/);
    expect(restore.out).toMatch(/every check passed/);
    const restoredFiles = createLocalFileStore(join(into, "uploads"));
    for await (const key of files.list()) {
      expect(
        Buffer.compare(Buffer.from((await restoredFiles.get(key))!), Buffer.from((await files.get(key))!)),
      ).toBe(0);
    }
    const missing = await cli(
      [
        "restore",
        `s3://${s3.bucket}/backups/nightly/cartwheel-backup-none.tar.gz`,
        "--into",
        join(scratch, "none"),
      ],
      env,
    );
    expect(missing.code, missing.out).toBe(2);
    expect(missing.out).toMatch(/there is no archive at/);

    // retention in a bucket: a second backup, then only the newest kept
    const second = await cli(["backup", "--to", `s3://${s3.bucket}/backups/nightly`], env);
    expect(second.code, second.out).toBe(0);
    const newest = second.out.match(/cartwheel-backup-[^ ]+\.tar\.gz/)?.[0];
    const settings = {
      enabled: true,
      hourUtc: 2,
      keepCount: 1,
      destination: `s3://${s3.bucket}/backups/nightly`,
    };
    const services = {
      db: t.db,
      databaseUrl: t.url,
      files,
      fileStoreUrl: images,
      dataDir: t.dir,
      s3: parseEnv({ ...process.env, ...s3.settings }),
    };
    expect(await pruneBackups(services, { ...settings, updatedAt: null })).toEqual([name]);
    const kept = await openDestination(parseBackupLocation(settings.destination), {
      s3: services.s3,
      scratch: t.dir,
    }).list(isArchiveName);
    expect(kept.map((archive) => archive.name)).toEqual([newest]);
  });
});
