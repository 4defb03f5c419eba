import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restoreBackup } from "../../app/domain/backups/restore-backup.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import { signIn } from "./shop-helpers.ts";

/**
 * Admin → Backups in the browser (decision 028), without JavaScript: the owner sets the daily
 * backup (a wrong count refused beside its field), presses "Back up now", sees the backup listed
 * once it is written, and downloads the archive — which restores, every check passing. axe with
 * and without JavaScript, and no sideways scrolling at 320 and 390 px with a backup in the list.
 */
const OWNER = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

test("the owner schedules backups, backs up now and downloads an archive that restores, without JavaScript", async ({
  page,
  noJsPage,
  browserErrors,
}) => {
  test.setTimeout(120_000);
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  await noJsPage.goto("/account?redirectTo=%2Fadmin%2Fbackups");
  await signIn(noJsPage, OWNER.email, OWNER.password);
  await noJsPage.waitForURL((url) => url.pathname === "/admin/backups");
  await expect(noJsPage.getByRole("heading", { name: "Backups", level: 1 })).toBeVisible();
  await expect(noJsPage.getByText("No backups yet.")).toBeVisible();

  await noJsPage.getByLabel("Back up every day").check();
  await noJsPage.getByLabel("Hour of day (UTC)").selectOption("4");
  await noJsPage.getByLabel("Backups to keep").fill("0");
  await noJsPage.getByRole("button", { name: "Save schedule" }).click();
  await expect(noJsPage.getByText(/Enter how many backups to keep/)).toBeVisible();
  await expect(noJsPage.getByLabel("Backups to keep")).toHaveAttribute("aria-invalid", "true");
  await expectNoA11yViolationsWithoutJs(noJsPage, "a refused schedule");
  await noJsPage.getByLabel("Backups to keep").fill("3");
  await noJsPage.getByRole("button", { name: "Save schedule" }).click();
  await expect(noJsPage.getByText("Backup settings saved")).toBeVisible();
  await expect(noJsPage.getByLabel("Back up every day")).toBeChecked();
  await expect(noJsPage.getByLabel("Hour of day (UTC)")).toHaveValue("4");
  await expect(noJsPage.getByText(/Next backup: .* 04:00 UTC\./)).toBeVisible();

  await noJsPage.getByRole("button", { name: "Back up now" }).click();
  await expect(noJsPage.getByText(/Backup started/)).toBeVisible();
  // written after the response: it is listed once the server has finished it
  const download = noJsPage.getByRole("link", { name: /Download cartwheel-backup-.*\.tar\.gz/ });
  await expect(async () => {
    await noJsPage.reload();
    await expect(download).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(noJsPage.getByRole("cell", { name: "OK" })).toBeVisible();
  await expectNoA11yViolationsWithoutJs(noJsPage, "a backup listed");

  const [file] = await Promise.all([noJsPage.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^cartwheel-backup-.*\.tar\.gz$/);
  const scratch = await mkdtemp(join(tmpdir(), "cartwheel-e2e-restore-"));
  try {
    const archive = join(scratch, file.suggestedFilename());
    await file.saveAs(archive);
    expect([...(await readFile(archive)).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const restored = await restoreBackup({
      archive,
      databaseUrl: `file:${join(scratch, "cartwheel.db")}`,
      fileStoreUrl: `file:${join(scratch, "uploads")}`,
      workDirectory: scratch,
      s3: parseEnv({ ...process.env, SESSION_SECRET: "e2e-restore-check-0123456789abcdef0123" }),
    });
    expect(restored.ok && restored.value.checks).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "stock ledger", ok: true })]),
    );
    expect(restored.ok && restored.value.ok).toBe(true);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }

  // with JavaScript, on a phone's widths: axe, and nothing scrolls sideways
  await page.goto("/account?redirectTo=%2Fadmin%2Fbackups");
  await signIn(page, OWNER.email, OWNER.password);
  await page.waitForURL((url) => url.pathname === "/admin/backups");
  await visit(page, "/admin/backups");
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `at ${width} px`).toBeLessThanOrEqual(0);
    await expectNoA11yViolations(page, `backups at ${width} px`);
  }
});
