import type { Page } from "@playwright/test";
import { createDatabase } from "../../app/db/database.server.ts";
import { deleteProducts } from "../helpers/catalog.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import { shopDatabaseUrl } from "./shop-env.ts";

/**
 * Products CSV in the admin area: the export downloads every product, an import with a bad row
 * lists the problems by line and imports nothing, a good one creates the product in the shop; a
 * file with the tax class and weight columns (issue 30) sets them, one without keeps them.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

/** The imported product goes again at the end: other spec files count the catalogue. */
async function removeProduct(slug: string) {
  const db = createDatabase(shopDatabaseUrl());
  try {
    const rows = await db.selectFrom("products").select("id").where("slug", "=", slug).execute();
    await deleteProducts(
      db,
      rows.map((row) => row.id),
    );
  } finally {
    await db.destroy();
  }
}

/** The layout before variants (product columns only): still imported. */
const HEADER =
  "id,slug,name,description,brand,category,subcategory,price,originalPrice,stock,featured,newArrival,bestSeller,specifications";
/** What the export writes: one row per variant, with the product's tax class and the variant's weight. */
const EXPORT_HEADER = `${HEADER},taxClass,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,sku,variant_price,variant_original_price,variant_stock,barcode,variant_weight_kg,currency`;

/** The product's id by its slug. */
async function productId(slug: string): Promise<number> {
  const db = createDatabase(shopDatabaseUrl());
  try {
    return (await db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirstOrThrow())
      .id;
  } finally {
    await db.destroy();
  }
}

async function downloadCsv(page: Page): Promise<string> {
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download products CSV" }).click();
  let text = "";
  for await (const chunk of await (await download).createReadStream()) text += chunk.toString();
  return text;
}

async function importCsv(page: Page, name: string, text: string) {
  await page.getByLabel("CSV file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await page.getByRole("button", { name: "Import Products" }).click();
}

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

  const text = await downloadCsv(page);
  expect(text.split("\n")[0]).toBe(EXPORT_HEADER);
  expect(text).toContain("kestrel-x12-smartphone");
  // the book: reduced, 0.75 kg
  expect(text.split("\n").find((row) => row.includes(",the-patient-garden-hardcover,"))).toMatch(
    /,reduced,.*,0\.75,USD$/,
  );

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

    // the same product again, with a tax class and a weight: set, and shown on its edit page
    await visit(page, "/admin/products/import");
    const weighed = `${HEADER},taxClass,variant_weight_kg\n,${slug},CSV Imported Lamp,A lamp from a file.,Lumen,toys,,500.00,,9,false,false,false,{},Reduced,2.35\n`;
    await importCsv(page, "weighed.csv", weighed);
    await expect(page.getByRole("main").getByRole("status")).toContainText(
      "Import complete: 0 created, 1 updated, 0 unchanged.",
    );
    await visit(page, `/admin/products/${await productId(slug)}`);
    await expect(page.getByRole("main").getByLabel("Tax class", { exact: true })).toHaveValue("reduced");
    await expect(page.getByRole("main").getByLabel("Weight (kg)", { exact: true })).toHaveValue("2.35");
  } finally {
    await removeProduct(slug);
  }
});

test("a product with variants goes through export and import in the browser", async ({ page }) => {
  await signInAsAdmin(page, "/admin/products/import");
  const exported = await downloadCsv(page);
  const rows = exported.trimEnd().split("\n");
  const products = new Set(rows.slice(1).map((row) => row.split(",")[0])).size;
  // the headphones: one row per colour, each with its SKU and stock
  const sand = rows.find((row) => row.includes(",Colour,Sand,") && row.includes(",AUR-ANC-SND,"));
  expect(sand).toBeDefined();
  expect(rows.filter((row) => row.includes(",AUR-ANC-"))).toHaveLength(2);

  // the file as exported: nothing to do
  await importCsv(page, "products.csv", exported);
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    `Import complete: 0 created, 0 updated, ${products} unchanged.`,
  );

  const cells = sand!.split(",");
  const stockAt = cells.length - 4; // variant_stock, then barcode, variant_weight_kg and currency
  expect(cells[stockAt]).not.toBe("0");
  const soldOut = [...cells.slice(0, stockAt), "0", ...cells.slice(stockAt + 1)].join(",");
  try {
    await importCsv(page, "sold-out.csv", exported.replace(sand!, soldOut));
    await expect(page.getByRole("main").getByRole("status")).toContainText(
      `Import complete: 0 created, 1 updated, ${products - 1} unchanged.`,
    );
    await visit(page, "/products/aurora-anc-headphones");
    const main = page.getByRole("main");
    // a click on the choice (the radio itself is visually hidden behind it)
    await main
      .getByRole("group", { name: /^Colour/ })
      .locator("label")
      .filter({ hasText: "Sand" })
      .click();
    await expect(main.getByText("SKU: AUR-ANC-SND")).toBeVisible();
    await expect(main.getByTestId("stock-message")).toHaveText("Out of Stock");

    // exported again: that variant's stock is 0 (the product's summed stock fell with it)
    await visit(page, "/admin/products/import");
    const again = (await downloadCsv(page)).split("\n").find((row) => row.includes(",AUR-ANC-SND,"));
    expect(again!.split(",").at(-4)).toBe("0");
  } finally {
    await visit(page, "/admin/products/import");
    await importCsv(page, "products.csv", exported);
    await expect(page.getByRole("main").getByRole("status")).toContainText("Import complete: 0 created,");
  }
});
