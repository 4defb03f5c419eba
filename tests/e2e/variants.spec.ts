import type { Page } from "@playwright/test";
import { setStockLevels } from "../../app/domain/inventory/inventory.server.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  register,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
  uniqueTag,
} from "./shop-helpers.ts";

const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

/**
 * Products in sizes and colours (issue 18): the product page's picker (one radio group per
 * option, keyboard operable, the choice in the URL, a GET form without JavaScript), the price,
 * stock message and SKU following the choice, and the chosen variant in the cart.
 */
interface VariantProduct extends TestProduct {
  sku: string;
  variants: Record<string, number>;
}

/** A tee in S/M × Black/White: S/White does not exist, M/White is sold out, M/Black costs more. */
async function createTee(): Promise<VariantProduct> {
  const tag = uniqueTag();
  const name = `E2E Variant Tee ${tag}`;
  const slug = `e2e-variant-tee-${tag}`;
  const sku = `TEE-${tag.toUpperCase()}`;
  const combos = [
    { values: ["S", "Black"], priceCents: 2_000, stock: 12 },
    { values: ["M", "Black"], priceCents: 2_400, stock: 4 },
    { values: ["M", "White"], priceCents: 2_400, stock: 0 },
  ];
  const { productId, variantIds } = await insertProductWithVariants(shopDatabase(), {
    name,
    slug,
    categoryId: "clothing",
    subcategoryId: "men",
    options: [
      { name: "Size", values: ["S", "M"] },
      { name: "Colour", values: ["Black", "White"] },
    ],
    variants: combos.map((combo) => ({ ...combo, sku: `${sku}-${combo.values.join("-")}` })),
  });
  return {
    id: productId,
    slug,
    name,
    sku,
    variants: Object.fromEntries(combos.map((combo, i) => [combo.values.join("/"), variantIds[i]!])),
  };
}

const main = (page: Page) => page.getByRole("main");
const sizes = (page: Page) => main(page).getByRole("group", { name: /^Size/ });
const colours = (page: Page) => main(page).getByRole("group", { name: /^Colour/ });

test.describe("product variants", () => {
  let tee: VariantProduct;
  test.beforeEach(async () => {
    tee = await createTee();
  });
  test.afterEach(async () => {
    await removeTestProducts(tee);
  });

  test("the picker chooses a variant from the keyboard: price, stock, SKU and URL follow, back returns", async ({
    page,
  }) => {
    await visit(page, `/products/${tee.slug}`);
    const m = main(page);
    // the first variant in stock is shown first
    await expect(sizes(page).getByRole("radio", { name: "S", exact: true })).toBeChecked();
    await expect(colours(page).getByRole("radio", { name: "Black", exact: true })).toBeChecked();
    await expect(m.getByText("$20.00").first()).toBeVisible();
    await expect(m.getByText(`SKU: ${tee.sku}-S-Black`)).toBeVisible();
    await expect(m.getByTestId("stock-message")).toHaveText("In Stock");
    // White with S does not exist: named unavailable
    await expect(colours(page).getByRole("radio", { name: "White (unavailable)" })).toBeVisible();

    await sizes(page).getByRole("radio", { name: "S", exact: true }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(`/products/${tee.slug}?variant=${tee.variants["M/Black"]}`);
    await expect(sizes(page).getByRole("radio", { name: "M", exact: true })).toBeChecked();
    await expect(m.getByText("$24.00").first()).toBeVisible();
    await expect(m.getByText(`SKU: ${tee.sku}-M-Black`)).toBeVisible();
    await expect(m.getByTestId("stock-message")).toHaveText("Only 4 left in stock - order soon");
    await expect(m.getByRole("spinbutton", { name: "Quantity" })).toHaveAttribute("max", "4");

    // M/White is sold out: shown, with Add to Cart disabled
    // a click on the choice (the radio itself is visually hidden behind it)
    await colours(page).locator("label").filter({ hasText: "White" }).click();
    await expect(page).toHaveURL(`/products/${tee.slug}?variant=${tee.variants["M/White"]}`);
    await expect(m.getByTestId("stock-message")).toHaveText("Out of Stock");
    await expect(m.getByRole("button", { name: "Add to Cart", exact: true })).toBeDisabled();
    await expectNoA11yViolations(page, "sold-out variant");

    await page.goBack();
    await expect(page).toHaveURL(`/products/${tee.slug}?variant=${tee.variants["M/Black"]}`);
    await expect(m.getByText(`SKU: ${tee.sku}-M-Black`)).toBeVisible();
  });

  test("the chosen variant goes into the cart, shown with its options and SKU", async ({ page }) => {
    await visit(page, `/products/${tee.slug}?variant=${tee.variants["M/Black"]}`);
    await main(page).getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(
      page.getByRole("region", { name: "Notifications" }).getByText(`${tee.name} added to cart!`),
    ).toBeVisible();
    await visit(page, "/cart");
    const line = main(page).getByRole("listitem").filter({ hasText: tee.name });
    await expect(line).toContainText("Size: M · Colour: Black");
    await expect(line).toContainText(`SKU: ${tee.sku}-M-Black`);
    await expect(line.getByRole("spinbutton")).toHaveAttribute("max", "4");
  });

  test("without JavaScript the picker is a form that shows the chosen variant", async ({
    noJsPage: page,
  }) => {
    await visit(page, `/products/${tee.slug}`, { javaScript: false });
    await sizes(page).locator("label").filter({ hasText: /^M$/ }).click();
    await main(page).getByRole("button", { name: "Show this choice" }).click();
    await expect(page).toHaveURL(`/products/${tee.slug}?variant=${tee.variants["M/Black"]}`);
    await expect(main(page).getByText(`SKU: ${tee.sku}-M-Black`)).toBeVisible();
    await main(page).getByRole("button", { name: "Add to Cart", exact: true }).click();
    await page.goto("/cart");
    await expect(main(page).getByRole("listitem").filter({ hasText: tee.name })).toContainText(
      "Size: M · Colour: Black",
    );
  });

  test("the admin changes one variant's price and stock; the shop and low stock follow", async ({
    page,
    browserErrors,
  }) => {
    // the refused change below answers 409 (the browser logs it)
    browserErrors.allow(/status of 409/);
    await page.goto(`/account?redirectTo=${encodeURIComponent(`/admin/products/${tee.id}`)}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === `/admin/products/${tee.id}`);
    const variants = page.getByRole("region", { name: "Variants" });
    const grid = page.getByRole("region", { name: "Variant grid" });
    await expect(variants).toContainText("Size: S, M · Colour: Black, White");
    await expectNoA11yViolations(page, "admin variants");

    // prices and stock are changed in the grid (the list below only removes)
    await grid.getByLabel("Price for Size: M · Colour: White", { exact: true }).fill("19.50");
    await grid.getByLabel("Stock for Size: M · Colour: White", { exact: true }).fill("6");
    await grid.getByRole("button", { name: "Save variant grid" }).click();
    await expect(toast(page, "Variants saved: 1 variant changed")).toBeVisible();
    await expect(grid.getByLabel("Stock for Size: M · Colour: White", { exact: true })).toHaveValue("6");

    // the page shows it for sale at its new price, and the product "from" the cheapest variant
    await visit(page, `/products/${tee.slug}?variant=${tee.variants["M/White"]}`);
    await expect(main(page).getByTestId("stock-message")).toHaveText("Only 6 left in stock - order soon");
    await expect(main(page).getByText("$19.50").first()).toBeVisible();

    // a variant taken below 0 is refused beside its field: the page showed 4 of M/Black, 3 sold since
    await visit(page, `/admin/products/${tee.id}`);
    await setStockLevels(shopDatabase(), [{ variantId: tee.variants["M/Black"]!, level: 1 }], {
      reason: "admin_set",
      actor: "system",
    });
    const mediumStock = grid.getByLabel("Stock for Size: M · Colour: Black", { exact: true });
    await mediumStock.fill("0");
    await grid.getByRole("button", { name: "Save variant grid" }).click();
    await expect(grid.getByRole("alert").first()).toContainText("Please correct the variants marked below.");
    await expect(mediumStock).toHaveAttribute("aria-invalid", "true");
    await expect(mediumStock).toHaveAccessibleDescription(/^Only 1 in stock now .*stock cannot go below 0/);

    await visit(page, "/admin/low-stock");
    await expect(page.getByRole("main")).toContainText(`SKU: ${tee.sku}-M-Black`);

    // removing a variant asks first; one no order holds is deleted
    await visit(page, `/admin/products/${tee.id}`);
    const small = variants.getByRole("listitem").filter({ hasText: `SKU: ${tee.sku}-S-Black` });
    await small.locator("summary", { hasText: "Remove" }).click();
    await expect(small.getByText(`Remove Size: S · Colour: Black (${tee.sku}-S-Black)?`)).toBeVisible();
    await small.getByRole("button", { name: "Yes, remove variant" }).click();
    await expect(toast(page, `Variant deleted: ${tee.sku}-S-Black`)).toBeVisible();
    await expect(variants.getByText(`SKU: ${tee.sku}-S-Black`)).toHaveCount(0);
  });

  test("the listing filters by size and colour and counts them; a SKU finds its product", async ({
    page,
  }) => {
    const filters = page.getByRole("form", { name: "Filters" });
    const showing = page.getByText(/^Showing [\d,]+ results$/);
    const tag = tee.sku.slice("TEE-".length).toLowerCase();
    await visit(page, `/products?category=clothing&search=${tag}`);
    await expect(showing).toHaveText("Showing 1 results");
    const size = filters.getByRole("group", { name: "Size" });
    const colour = filters.getByRole("group", { name: "Colour" });
    // counted over the result set: M and Black are in stock, White only in a sold-out M
    await expect(size.getByRole("checkbox", { name: "M (1)" })).toBeVisible();
    await expect(colour.getByRole("checkbox", { name: "Black (1)" })).toBeVisible();
    await expect(colour.getByRole("checkbox", { name: /^White/ })).toHaveCount(0);
    await expectNoA11yViolations(page);

    await size.getByRole("checkbox", { name: "M (1)" }).check();
    await expect(page).toHaveURL(`/products?category=clothing&search=${tag}&size=m`);
    await expect(page.getByRole("link", { name: "Remove filter Size: M" })).toBeVisible();
    await expect(showing).toHaveText("Showing 1 results");
    await page.goto(`/products?category=clothing&search=${tag}&size=m&colour=white`);
    await expect(showing).toHaveText("Showing 0 results");

    // the SKU on a label or an invoice, typed into the search
    await visit(page, `/products?search=${tee.sku}-M-Black`);
    await expect(
      page.getByRole("region", { name: "Results" }).getByRole("heading", { name: tee.name }),
    ).toBeVisible();
  });

  test("without JavaScript the option filters are checkboxes of the filter form", async ({
    noJsPage: page,
  }) => {
    const tag = tee.sku.slice("TEE-".length).toLowerCase();
    await visit(page, `/products?category=clothing&search=${tag}`, { javaScript: false });
    const filters = page.getByRole("form", { name: "Filters" });
    await filters.getByRole("group", { name: "Size" }).getByRole("checkbox", { name: "S (1)" }).check();
    await filters.getByRole("button", { name: "Apply Filters" }).click();
    await expect(page).toHaveURL(/[?&]size=s(&|$)/);
    await expect(page.getByText(/^Showing [\d,]+ results$/)).toHaveText("Showing 1 results");
  });

  test("a signed-in shopper buys a variant; the account and the admin's order show it with its SKU", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow(); // a whole checkout, then the admin in a second browser
    const tag = uniqueTag();
    const email = `variant.buyer.${tag}@example.com`;
    await register(page, { name: "Vera Variant", email, password: "variant-buyer-pass" });
    await visit(page, `/products/${tee.slug}?variant=${tee.variants["M/Black"]}`);
    await main(page).getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `${tee.name} added to cart!`)).toBeVisible();

    await visit(page, "/checkout");
    const field = (label: string) =>
      page.getByLabel(new RegExp(`^${label.replace(/[/()]/g, "\\$&")}\\s*\\*?$`));
    const shipping: Record<string, string> = {
      "First Name": "Vera",
      "Last Name": "Variant",
      Email: email,
      Phone: "+1 (555) 010-2030",
      Address: "12 Analytical Way",
      City: "Springfield",
      "State / Province": "IL",
      "ZIP / Postal Code": "62701",
    };
    for (const [label, value] of Object.entries(shipping)) await field(label).fill(value);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await field("Card Number").fill("4242424242424242");
    await field("Cardholder Name").fill("Vera Variant");
    await field("Expiry Date").fill("1230");
    await field("CVV").fill("123");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(main(page)).toContainText("Size: M · Colour: Black");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");
    const number = (await page.getByTestId("order-number").textContent()) ?? "";
    expect(number).toMatch(/^CW-/);
    const line = `Size: M · Colour: Black · SKU: ${tee.sku}-M-Black`;
    await expect(main(page)).toContainText(line);

    await visit(page, `/account/orders/${number}`);
    await expect(main(page)).toContainText(line);
    await expectNoA11yViolations(page, "account order with a variant");

    const adminContext = await browser.newContext({ baseURL });
    const admin = await adminContext.newPage();
    try {
      await admin.goto(`/account?redirectTo=${encodeURIComponent(`/admin/orders/${number}`)}`);
      await signIn(admin, ADMIN.email, ADMIN.password);
      await admin.waitForURL((url) => url.pathname === `/admin/orders/${number}`);
      await expect(admin.getByRole("main")).toContainText(line);
    } finally {
      await adminContext.close();
    }
  });
});
