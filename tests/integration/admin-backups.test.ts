import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { BACKUP_MESSAGES } from "../../app/domain/backups/backup-form.ts";
import {
  DEFAULT_BACKUP_SETTINGS,
  readBackupSettings,
  runBackupNow,
} from "../../app/domain/backups/backup-schedule.server.ts";
import { backupServices } from "../../app/domain/backups/take-backup.server.ts";
import { getToast } from "../../app/http/toast.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import { withJobLease } from "../../app/jobs/job-lease.server.ts";
import * as backupsRoute from "../../app/routes/admin.backups.tsx";
import * as downloadRoute from "../../app/routes/admin.backups_.$name.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { productWithImage } from "../helpers/backup-drill.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Backups (decision 028) on each engine, as the owner's browser uses it: the schedule saved
 * (audited; bad values refused beside their fields, nothing stored), "Back up now" answered at once
 * and run after the response, the run listed, its archive downloaded as an attachment; a name the
 * runs do not record is a 404; "Back up now" while another backup holds the lease is recorded as
 * not started.
 */
describe.each(ENGINES)("Admin → Backups on %s", (engine) => {
  let shop: TestShop;
  let owner = "";
  const URL = `${TEST_ORIGIN}/admin/backups`;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    const created = await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "owner@backups.example", password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("owner not made");
    owner = cookieHeader(
      (
        await auth.api.signInEmail({
          body: { email: "owner@backups.example", password: "correct horse" },
          returnHeaders: true,
        })
      ).headers,
    );
    await productWithImage(shop.db, shop.services.files, 1_500);
  });
  afterAll(async () => {
    await settleAfterResponseTasks();
    await shop?.destroy();
  });

  const page = async () => {
    const answer = await callRoute(backupsRoute, "loader", URL, { cookie: owner, context: shop.context() });
    return answer.data as unknown as Awaited<ReturnType<typeof backupsRoute.loader>>;
  };
  const post = (fields: Record<string, string>) =>
    callRoute(backupsRoute, "action", URL, { cookie: owner, fields, context: shop.context() });
  const toastOf = async (response: Response) => {
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("cw_toast="));
    const { toast } = await getToast(
      new Request("http://shop.test/", { headers: { Cookie: cookie!.split(";")[0]! } }),
    );
    return toast?.message;
  };
  const refusal = (answer: Awaited<ReturnType<typeof post>>) => {
    const result = (answer.data as unknown as { result: { error: Record<string, string[]> } }).result;
    return { status: answer.status, errors: result.error };
  };

  it("shows the defaults, saves the schedule with an audit entry, and says when nothing changed", async () => {
    const before = await page();
    expect(before.settings).toEqual(DEFAULT_BACKUP_SETTINGS);
    expect(before.runs).toEqual([]);
    expect(before.defaultDirectory).toBe(join(shop.dir, "backups"));
    expect(before.nextDue).toBeNull();

    const fields = { intent: "save", enabled: "on", hour: "3", keep: "5", destination: "" };
    const saved = await post(fields);
    expect(saved.response?.status).toBe(302);
    expect(await toastOf(saved.response!)).toBe(BACKUP_MESSAGES.saved);
    expect(await readBackupSettings(shop.db)).toMatchObject({
      enabled: true,
      hourUtc: 3,
      keepCount: 5,
      destination: "",
    });
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["summary", "entityId"])
      .where("entityId", "=", "backups")
      .execute();
    expect(audit).toEqual([
      {
        entityId: "backups",
        summary: `Backups every day at 03:00 UTC, keeping 5, to ${join(shop.dir, "backups")}`,
      },
    ]);
    expect((await page()).nextDue).not.toBeNull();

    const again = await post(fields);
    expect(await toastOf(again.response!)).toBe(BACKUP_MESSAGES.unchanged);
  });

  it("refuses a wrong hour, count or destination beside its field, and stores nothing", async () => {
    const stored = await readBackupSettings(shop.db);
    const cases: [Record<string, string>, string, string | RegExp][] = [
      [{ hour: "24" }, "hour", BACKUP_MESSAGES.hour],
      [{ hour: "two" }, "hour", BACKUP_MESSAGES.hour],
      [{ keep: "0" }, "keep", BACKUP_MESSAGES.keep],
      [{ keep: "1001" }, "keep", BACKUP_MESSAGES.keep],
      [{ destination: "relative/backups" }, "destination", BACKUP_MESSAGES.destination],
      [{ destination: "/srv/../etc" }, "destination", BACKUP_MESSAGES.destination],
      [{ destination: "s3://Not_A_Bucket" }, "destination", /not a valid bucket name/],
      [{ destination: join(shop.dir, "uploads", "backups") }, "destination", /inside the file store/],
    ];
    for (const [change, field, message] of cases) {
      const answer = refusal(
        await post({ intent: "save", enabled: "on", hour: "4", keep: "9", destination: "", ...change }),
      );
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.errors[field]?.[0], JSON.stringify(change)).toMatch(message);
      expect(answer.errors[""]?.[0]).toBe(BACKUP_MESSAGES.invalid);
    }
    const unknown = refusal(await post({ intent: "explode" }));
    expect(unknown).toMatchObject({ status: 400, errors: { "": [BACKUP_MESSAGES.unknownAction] } });
    expect(await readBackupSettings(shop.db)).toEqual(stored);
  });

  it("backs up after the response to “Back up now”, lists the run and downloads its archive", async () => {
    const answer = await post({ intent: "run" });
    expect(answer.response?.status).toBe(302);
    expect(await toastOf(answer.response!)).toBe(BACKUP_MESSAGES.started);
    await settleAfterResponseTasks();

    const [run, ...older] = (await page()).runs;
    expect(older).toEqual([]);
    expect(run).toMatchObject({
      status: "ok",
      origin: "manual",
      requestedBy: "owner@backups.example",
      destination: join(shop.dir, "backups"),
      error: null,
      downloadable: true,
    });
    const name = run!.archiveName!;
    const file = join(shop.dir, "backups", name);
    const download = await callRoute(downloadRoute, "loader", `${URL}/${name}`, {
      cookie: owner,
      params: { name },
      context: shop.context(),
    });
    const response = download.response!;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${name}"`);
    expect(response.headers.get("Content-Type")).toBe("application/gzip");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(run!.sizeBytes);
    expect(Buffer.compare(bytes, await readFile(file))).toBe(0);

    // only archives the runs recorded, where they were written: anything else is a 404
    const stray = name.replace(/-[0-9a-f]{6}\.tar\.gz$/, "-ffffff.tar.gz");
    await copyFile(file, join(shop.dir, "backups", stray));
    for (const other of [stray, "../cartwheel.db", "cartwheel-backup-nope.tar.gz", ""]) {
      const refused = await callRoute(downloadRoute, "loader", `${URL}/x`, {
        cookie: owner,
        params: { name: other },
        context: shop.context(),
      });
      expect(refused.thrown, other).toBe(404);
    }
  });

  it("records “Back up now” as not started while another backup holds the lease", async () => {
    const services = backupServices(shop.services);
    const outcome = await withJobLease(shop.db, "backup", { ttlMs: 60_000 }, () =>
      runBackupNow(services, { requestedBy: "owner@backups.example" }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/another backup was running/) },
    });
    const [latest] = (await page()).runs;
    expect(latest).toMatchObject({ status: "failed", archiveName: null, downloadable: false });
    expect(latest?.error).toMatch(/another backup was running/);
  });
});
