import type { Page } from "@playwright/test";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  createTestProduct,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
  uniqueTag,
} from "./shop-helpers.ts";

const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

/**
 * The admin's options editor (issue 18): options typed on a product's edit page make its variant
 * grid; the grid edits SKU, price and stock; bulk sets stock for the selected variants; the shop's
 * picker follows. The product's tax class and weights (issue 30): the class and, without options,
 * the one variant's weight on the product form; each variant's in the grid and in bulk. From the
 * keyboard, at 390 px, and without JavaScript.
 */
const main = (page: Page) => page.getByRole("main");
const optionField = (page: Page, n: number, field: "name" | "values, separated by commas") =>
  main(page).getByLabel(`Option ${n} ${field}`, { exact: true });
const grid = (page: Page) => main(page).getByRole("region", { name: "Variant grid" });

/** The product's tax class and its live variants' weights (grams, by position) as stored. */
async function storedClassAndWeights(productId: number) {
  const db = shopDatabase();
  const { taxClass } = await db
    .selectFrom("products")
    .select("taxClass")
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  const variants = await db
    .selectFrom("productVariants")
    .select("weightGrams")
    .where("productId", "=", productId)
    .where("archivedAt", "is", null)
    .orderBy("position")
    .execute();
  return { taxClass, weights: variants.map((v) => v.weightGrams) };
}

async function signInTo(page: Page, path: string) {
  await page.goto(`/account?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === path);
}

test.describe("admin options editor", () => {
  const products: TestProduct[] = [];
  test.afterEach(async () => {
    await removeTestProducts(...products.splice(0));
  });

  test("options make the grid; SKU, price, stock and weight edited, stock and weight bulk-set; the shop's picker follows", async ({
    page,
    browserErrors,
  }) => {
    // the refused weight answers 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const product = await createTestProduct("Editor Tee", { priceCents: 2_000, stock: 6 });
    products.push(product);
    const sku = `ED-${uniqueTag().toUpperCase()}`;
    await signInTo(page, `/admin/products/${product.id}`);
    await expectNoA11yViolations(page, "edit page, no options");

    // without options the product form has its one variant's weight, beside its tax class
    const taxClass = main(page).getByLabel("Tax class", { exact: true });
    const weight = main(page).getByLabel("Weight (kg)", { exact: true });
    await expect(taxClass).toHaveValue("standard");
    await expect(weight).toHaveValue("0");
    await taxClass.selectOption({ label: "Reduced" });
    await weight.fill("0.2.5");
    await main(page).getByRole("button", { name: "Save changes" }).click();
    await expect(weight).toHaveAttribute("aria-invalid", "true");
    await expect(weight).toHaveAccessibleDescription("Enter a weight in kg, like 0.25.");
    await weight.fill("0.25");
    await main(page).getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, "Product updated")).toBeVisible();
    expect(await storedClassAndWeights(product.id)).toEqual({ taxClass: "reduced", weights: [250] });
    await page.reload();
    await expect(taxClass).toHaveValue("reduced");
    await expect(weight).toHaveValue("0.25");

    // keyboard only: type the options, Enter saves
    await optionField(page, 1, "name").focus();
    await page.keyboard.type("Size");
    await page.keyboard.press("Tab");
    await page.keyboard.type("S, M");
    await optionField(page, 2, "name").focus();
    await page.keyboard.type("Colour");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Black, White");
    await page.keyboard.press("Enter");
    await expect(toast(page, "Options saved: 4 variants (3 added, 0 removed)")).toBeVisible();

    const rows = grid(page).getByRole("row");
    await expect(rows).toHaveCount(5);
    await expect(grid(page).getByRole("rowheader")).toHaveText([
      "Size: S · Colour: Black",
      "Size: S · Colour: White",
      "Size: M · Colour: Black",
      "Size: M · Colour: White",
    ]);
    // the product's one variant became S/Black with its stock; the others start at its price, no stock
    await expect(grid(page).getByLabel("Stock for Size: S · Colour: Black", { exact: true })).toHaveValue(
      "6",
    );
    await expect(grid(page).getByLabel("Price for Size: M · Colour: White", { exact: true })).toHaveValue(
      "20.00",
    );
    await expect(grid(page).getByLabel("Stock for Size: M · Colour: White", { exact: true })).toHaveValue(
      "0",
    );
    // the new variants weigh what the one they came from did; the weight is now per variant
    await expect(
      grid(page).getByLabel("Weight (kg) for Size: M · Colour: White", { exact: true }),
    ).toHaveValue("0.25");
    await expect(main(page).getByLabel("Weight (kg)", { exact: true })).toHaveCount(0);
    await expectNoA11yViolations(page, "variant grid");

    await grid(page).getByLabel("SKU for Size: M · Colour: Black", { exact: true }).fill(`${sku}-M-BLK`);
    await grid(page).getByLabel("Price for Size: M · Colour: Black", { exact: true }).fill("24.00");
    await grid(page).getByLabel("Stock for Size: M · Colour: Black", { exact: true }).fill("3");
    await grid(page).getByLabel("Weight (kg) for Size: M · Colour: Black", { exact: true }).fill("0.3");
    await grid(page).getByRole("button", { name: "Save variant grid" }).click();
    await expect(toast(page, "Variants saved: 1 variant changed")).toBeVisible();
    await expect(grid(page).getByLabel("SKU for Size: M · Colour: Black", { exact: true })).toHaveValue(
      `${sku}-M-BLK`,
    );
    await expect(
      grid(page).getByLabel("Weight (kg) for Size: M · Colour: Black", { exact: true }),
    ).toHaveValue("0.3");

    // bulk: stock for the two White ones
    await grid(page).getByLabel("Select Size: S · Colour: White", { exact: true }).check();
    await grid(page).getByLabel("Select Size: M · Colour: White", { exact: true }).check();
    await grid(page).getByLabel("Set stock to", { exact: true }).fill("7");
    await grid(page).getByLabel("Set weight (kg) to", { exact: true }).fill("0.28");
    await grid(page).getByRole("button", { name: "Apply to selected" }).click();
    await expect(toast(page, "Selected variants updated: 2 variants")).toBeVisible();
    await expect(
      grid(page).getByLabel("Weight (kg) for Size: S · Colour: White", { exact: true }),
    ).toHaveValue("0.28");
    // S/Black, S/White, M/Black, M/White
    expect(await storedClassAndWeights(product.id)).toEqual({
      taxClass: "reduced",
      weights: [250, 280, 300, 280],
    });
    await expect(grid(page).getByLabel("Stock for Size: M · Colour: White", { exact: true })).toHaveValue(
      "7",
    );
    await expect(grid(page).getByLabel("Stock for Size: S · Colour: White", { exact: true })).toHaveValue(
      "7",
    );
    await expect(grid(page).getByLabel("Select Size: M · Colour: White", { exact: true })).not.toBeChecked();

    // the shop offers the new choices
    await visit(page, `/products/${product.slug}`);
    const sizes = main(page).getByRole("group", { name: /^Size/ });
    const colours = main(page).getByRole("group", { name: /^Colour/ });
    await expect(sizes.getByRole("radio")).toHaveCount(2);
    await expect(colours.getByRole("radio")).toHaveCount(2);
    await sizes.locator("label").filter({ hasText: /^M$/ }).click();
    await expect(main(page).getByText(`SKU: ${sku}-M-BLK`)).toBeVisible();
    await expect(main(page).getByText("$24.00").first()).toBeVisible();
    await expect(main(page).getByTestId("stock-message")).toHaveText("Only 3 left in stock - order soon");
  });

  test("at 390 px the page does not scroll sideways; the grid scrolls in its own focusable region", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const tag = uniqueTag();
    const { productId } = await insertProductWithVariants(shopDatabase(), {
      name: `E2E Editor Narrow ${tag}`,
      slug: `e2e-editor-narrow-${tag}`,
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: `NAR-${tag}-S`, priceCents: 1_000, stock: 1 },
        { values: ["M"], sku: `NAR-${tag}-M`, priceCents: 1_000, stock: 2 },
      ],
    });
    products.push({ id: productId, slug: `e2e-editor-narrow-${tag}`, name: "" });
    await signInTo(page, `/admin/products/${productId}`);
    const scroller = main(page).getByRole("region", { name: "Variant table, scrolls sideways" });
    await expect(scroller).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await scroller.focus();
    await expect(scroller).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectNoA11yViolations(page, "edit page at 390 px");
  });

  test("without JavaScript: removing a value asks first; a bad price or weight is refused beside its field; the tax class saves", async ({
    noJsPage: page,
    browserErrors,
  }) => {
    // the refused grid answers 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const tag = uniqueTag();
    const slug = `e2e-editor-nojs-${tag}`;
    const { productId } = await insertProductWithVariants(shopDatabase(), {
      name: `E2E Editor NoJS ${tag}`,
      slug,
      options: [{ name: "Size", values: ["S", "M", "L"] }],
      variants: [
        { values: ["S"], sku: `NOJS-${tag}-S`, priceCents: 1_000, stock: 1 },
        { values: ["M"], sku: `NOJS-${tag}-M`, priceCents: 1_000, stock: 2 },
        { values: ["L"], sku: `NOJS-${tag}-L`, priceCents: 1_000, stock: 3 },
      ],
    });
    products.push({ id: productId, slug, name: "" });
    await signInTo(page, `/admin/products/${productId}`);

    await optionField(page, 1, "values, separated by commas").fill("S, M");
    await main(page).getByRole("button", { name: "Save options" }).click();
    await expect(main(page).getByText("Saving these options removes 1 variant:")).toBeVisible();
    await expect(main(page).getByText(`Size: L (SKU NOJS-${tag}-L, 3 in stock) — deleted`)).toBeVisible();
    // the typed values are still there
    await expect(optionField(page, 1, "values, separated by commas")).toHaveValue("S, M");
    await main(page).getByRole("button", { name: "Yes, save and remove 1 variant" }).click();
    await expect(page.getByText("Options saved: 2 variants (0 added, 1 removed)")).toBeVisible();
    await expect(grid(page).getByRole("rowheader")).toHaveText(["Size: S", "Size: M"]);

    await grid(page).getByLabel("Price for Size: M", { exact: true }).fill("12,50");
    await grid(page).getByLabel("Stock for Size: M", { exact: true }).fill("9");
    const weight = grid(page).getByLabel("Weight (kg) for Size: M", { exact: true });
    await weight.fill("1,2");
    await grid(page).getByRole("button", { name: "Save variant grid" }).click();
    const price = grid(page).getByLabel("Price for Size: M", { exact: true });
    await expect(price).toHaveAttribute("aria-invalid", "true");
    await expect(price).toHaveAccessibleDescription("Enter an amount of 0 or more, in steps of 0.01");
    await expect(weight).toHaveAttribute("aria-invalid", "true");
    await expect(weight).toHaveAccessibleDescription("Enter a weight in kg, like 0.25.");
    await expect(weight).toHaveValue("1,2");
    await expect(grid(page).getByLabel("Stock for Size: M", { exact: true })).toHaveValue("9");
    await price.fill("12.50");
    await weight.fill("1.2");
    await grid(page).getByRole("button", { name: "Save variant grid" }).click();
    await expect(page.getByText("Variants saved: 1 variant changed")).toBeVisible();
    await expect(grid(page).getByLabel("Price for Size: M", { exact: true })).toHaveValue("12.50");
    await expect(grid(page).getByLabel("Stock for Size: M", { exact: true })).toHaveValue("9");
    await expect(weight).toHaveValue("1.2");

    // the tax class on the product form (no weight there: it is sold in variants)
    await expect(main(page).getByLabel("Weight (kg)", { exact: true })).toHaveCount(0);
    await main(page).getByLabel("Tax class", { exact: true }).selectOption("zero");
    await main(page).getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Product updated")).toBeVisible();
    await expect(main(page).getByLabel("Tax class", { exact: true })).toHaveValue("zero");
    expect(await storedClassAndWeights(productId)).toEqual({ taxClass: "zero", weights: [0, 1_200] });
  });
});
