import type { Page } from "@playwright/test";
import { createDatabase } from "../../app/db/database.server.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import { shopDatabaseUrl } from "./shop-env.ts";

/**
 * Products CSV in the admin area: the export downloads every product, an import with a bad row
 * lists the problems by line and imports nothing, a good one creates the product in the shop.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

/** The imported product goes again at the end: other spec files count the catalogue. */
async function removeProduct(slug: string) {
  const db = createDatabase(shopDatabaseUrl());
  try {
    await db.deleteFrom("products").where("slug", "=", slug).execute();
  } finally {
    await db.destroy();
  }
}

const HEADER =
  "id,slug,name,description,brand,category,subcategory,price,originalPrice,stock,featured,newArrival,bestSeller,specifications";

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/account?redirectTo=${encodeURIComponent(path)}`);
  await page.getByLabel("Email", { exact: true }).fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname === path);
}

test("an admin exports the catalogue and imports a CSV (bad rows first)", async ({ page, browserErrors }) => {
  browserErrors.allow(/status of 400/);
  const slug = `csv-e2e-${Date.now().toString(36)}`;
  await signInAsAdmin(page, "/admin/products/import");
  await expect(page.getByRole("heading", { name: "Import / Export products", level: 1 })).toBeVisible();
  await expectNoA11yViolations(page, "import page");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download products CSV" }).click();
  const file = await (await download).createReadStream();
  let text = "";
  for await (const chunk of file) text += chunk.toString();
  expect(text.split("\n")[0]).toBe(HEADER);
  expect(text).toContain("kestrel-x12-smartphone");

  const bad = `${HEADER}\n,${slug},,No name here.,Lumen,nowhere,,1,,1,false,false,false,{}\n`;
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await page.getByRole("button", { name: "Import Products" }).click();
  const problems = page.getByRole("list", { name: "Problems in the file" });
  await expect(problems.getByRole("listitem").first()).toHaveText(/^Line 2: /);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Nothing was imported");
  await expectNoA11yViolations(page, "import refused");

  try {
    const good = `${HEADER}\n,${slug},CSV Imported Lamp,A lamp from a file.,Lumen,toys,,500.00,,9,false,false,false,{}\n`;
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await page.getByRole("button", { name: "Import Products" }).click();
    await expect(page.getByRole("main").getByRole("status")).toContainText(
      "Import complete: 1 created, 0 updated, 0 unchanged.",
    );

    await visit(page, `/products/${slug}`);
    await expect(page.getByRole("heading", { name: "CSV Imported Lamp", level: 1 })).toBeVisible();
  } finally {
    await removeProduct(slug);
  }
});
