import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  registerHere,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
  uniqueEmail,
} from "./shop-helpers.ts";

/**
 * The wishlist: Add to Wishlist on the product page and on product cards, the header count, the
 * signed-out round trip through sign-in (and register), /account/wishlist with Add to Cart,
 * Remove and its empty state — with JavaScript and as plain form posts without it.
 */
const SIGN_IN_FIRST = "Please sign in to save items to your wishlist.";
const wishlistBadge = (page: Page) => page.getByRole("banner").getByTestId("wishlist-badge");
const main = (page: Page) => page.getByRole("main");
/** "Remove: name" (Chromium puts a space before the visually hidden ": name"). */
const forProduct = (label: string, product: TestProduct) => new RegExp(`^${label}\\s?: ${product.name}$`);

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});
async function product(label: string, overrides = {}) {
  const created = await createTestProduct(label, overrides);
  products.push(created);
  return created;
}

test.describe("wishlist", () => {
  test("signed out on a product page: register, come back with the product saved, then remove it", async ({
    page,
  }) => {
    const lamp = await product("Wish Lamp");
    await visit(page, `/products/${lamp.slug}`);
    await main(page)
      .getByRole("button", { name: /^Add to Wishlist/ })
      .click();
    await expect(toast(page, SIGN_IN_FIRST)).toBeVisible();
    await expect(page).toHaveURL(/\/account\?redirectTo=/);
    await expectNoA11yViolations(page, "sign in to save");

    await registerHere(page, { name: "Wish Ful", email: uniqueEmail("wish"), password: "wish password" });
    await expect(page).toHaveURL(`/products/${lamp.slug}`);
    await expect(toast(page, `${lamp.name} added to wishlist!`)).toBeVisible();
    await expect(wishlistBadge(page)).toHaveText("1 saved");
    const remove = main(page).getByRole("button", { name: /^Remove from Wishlist/ });
    await expect(remove).toBeVisible();
    await expectNoA11yViolations(page, "product saved");

    await remove.click();
    await expect(toast(page, `${lamp.name} removed from wishlist`)).toBeVisible();
    await expect(wishlistBadge(page)).toHaveCount(0);
    await expect(main(page).getByRole("button", { name: /^Add to Wishlist/ })).toBeVisible();
    await main(page)
      .getByRole("button", { name: /^Add to Wishlist/ })
      .click();
    await expect(toast(page, `${lamp.name} added to wishlist!`)).toBeVisible();
    await expect(wishlistBadge(page)).toHaveText("1 saved");
  });

  test("from a product card signed out, sign in, then the wishlist page: Add to Cart, Remove, empty state", async ({
    page,
  }) => {
    const mug = await product("Wish Mug", { priceCents: 1_250 });
    const kettle = await product("Wish Kettle", { stock: 0 });
    const email = uniqueEmail("card");
    await register(page, { name: "Card Saver", email, password: "card password" });
    await visit(page, "/account/wishlist");
    await expect(main(page).getByText("Your wishlist is empty.")).toBeVisible();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(toast(page, "Successfully logged out!")).toBeVisible();

    const search = `/products?${new URLSearchParams({ search: mug.name })}`;
    await visit(page, search);
    await main(page)
      .getByRole("button", { name: `Add ${mug.name} to wishlist` })
      .click();
    await expect(toast(page, SIGN_IN_FIRST)).toBeVisible();
    await signIn(page, email, "card password");
    await expect(page).toHaveURL(search);
    await expect(toast(page, `${mug.name} added to wishlist!`)).toBeVisible();
    await expect(main(page).getByRole("button", { name: `Remove ${mug.name} from wishlist` })).toBeVisible();
    await expect(wishlistBadge(page)).toHaveText("1 saved");

    // a second product, from its page (out of stock: it can be saved, not bought)
    await visit(page, `/products/${kettle.slug}`);
    await main(page)
      .getByRole("button", { name: /^Add to Wishlist/ })
      .click();
    await expect(toast(page, `${kettle.name} added to wishlist!`)).toBeVisible();
    await expect(wishlistBadge(page)).toHaveText("2 saved");

    await page
      .getByRole("banner")
      .getByRole("link", { name: /Wishlist/ })
      .click();
    await expect(page).toHaveURL("/account/wishlist");
    const list = main(page).getByRole("region", { name: "Wishlist" });
    await expect(list.getByRole("heading", { level: 3 })).toHaveText([kettle.name, mug.name]);
    await expect(list.getByRole("button", { name: forProduct("Add to Cart", kettle) })).toBeDisabled();
    await expectNoA11yViolations(page, "wishlist page");

    await list.getByRole("button", { name: forProduct("Add to Cart", mug) }).click();
    await expect(toast(page, `${mug.name} added to cart!`)).toBeVisible();
    await expect(page).toHaveURL("/account/wishlist");
    await expect(page.getByTestId("cart-badge")).toContainText("1");

    await list.getByRole("button", { name: forProduct("Remove", mug) }).click();
    await expect(toast(page, `${mug.name} removed from wishlist`)).toBeVisible();
    await expect(list.getByRole("heading", { level: 3 })).toHaveText([kettle.name]);
    await list.getByRole("button", { name: forProduct("Remove", kettle) }).click();
    await expect(list.getByText("Your wishlist is empty.")).toBeVisible();
    await expect(wishlistBadge(page)).toHaveCount(0);
    await expectNoA11yViolations(page, "empty wishlist");
  });

  test("an archived product leaves the wishlist and the header count", async ({ page }) => {
    const chair = await product("Wish Chair");
    await register(page, {
      name: "Archive Watcher",
      email: uniqueEmail("archive"),
      password: "archive pass",
    });
    await visit(page, `/products/${chair.slug}`);
    await main(page)
      .getByRole("button", { name: /^Add to Wishlist/ })
      .click();
    await expect(wishlistBadge(page)).toHaveText("1 saved");
    await shopDatabase()
      .updateTable("products")
      .set({ archivedAt: new Date().toISOString() })
      .where("id", "=", chair.id)
      .execute();
    await visit(page, "/account/wishlist");
    await expect(main(page).getByText("Your wishlist is empty.")).toBeVisible();
    await expect(wishlistBadge(page)).toHaveCount(0);
  });

  test("without JavaScript: the round trip through sign-in and Remove are plain form posts", async ({
    noJsPage: page,
  }) => {
    const lamp = await product("NoJS Lamp");
    const email = uniqueEmail("nojs-wish");
    await visit(page, "/account?mode=register", { javaScript: false });
    await page.getByLabel("Name", { exact: true }).fill("No Script");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("plain forms");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();

    await visit(page, `/products/${lamp.slug}`, { javaScript: false });
    await main(page)
      .getByRole("button", { name: /^Add to Wishlist/ })
      .click();
    await expect(page.getByText(SIGN_IN_FIRST)).toBeVisible();
    await signIn(page, email, "plain forms");
    await expect(page).toHaveURL(`/products/${lamp.slug}`);
    await expect(page.getByText(`${lamp.name} added to wishlist!`)).toBeVisible();
    await expect(wishlistBadge(page)).toHaveText("1 saved");

    await visit(page, "/account/wishlist", { javaScript: false });
    await main(page)
      .getByRole("button", { name: forProduct("Remove", lamp) })
      .click();
    await expect(page.getByText(`${lamp.name} removed from wishlist`)).toBeVisible();
    await expect(main(page).getByText("Your wishlist is empty.")).toBeVisible();
  });
});
