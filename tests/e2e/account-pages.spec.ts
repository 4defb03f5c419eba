import { addAddress } from "../../app/domain/accounts/addresses.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { expect, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  removeTestProducts,
  shopDatabase,
  type TestProduct,
  uniqueEmail,
  userIdOf,
} from "./shop-helpers.ts";

/**
 * axe (WCAG 2.2 AA) on every page of the account area, signed in: first with nothing saved (the
 * empty states), then with an order, an address, a card and a saved product.
 */
const PAGES = [
  ["/account", "Account Overview"],
  ["/account/orders", "Orders"],
  ["/account/wishlist", "Wishlist"],
  ["/account/addresses", "Addresses"],
  ["/account/payment-methods", "Payment Methods"],
  ["/account/settings", "Account Settings"],
  ["/account/edit-profile", "Edit Profile"],
] as const;

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

test("every account page passes axe, empty and filled, and the sidebar reaches each section", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("pages");
  await register(page, { name: "Page Checker", email, password: "page password" });

  // empty states
  for (const [path] of PAGES) await visit(page, path);

  // the sidebar leads to each section by its own URL
  const sidebar = page.getByRole("navigation", { name: "Account", exact: true });
  for (const [path, label] of PAGES.slice(1, 6)) {
    await sidebar.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(path);
  }

  // with something in every section
  const userId = await userIdOf(email);
  const db = shopDatabase();
  const number = await insertOrder(db, { userId, createdAt: new Date().toISOString() });
  await addAddress(db, userId, {
    firstName: "Page",
    lastName: "Checker",
    phone: "+1 555 0100",
    address: "1 Axe Street",
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    country: "US",
  });
  await saveCard(db, {
    userId,
    brand: "Visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2035,
    cardholderName: "Page Checker",
    gatewayToken: "tok_e2e_pages",
  });
  const lamp = await createTestProduct("Pages Lamp");
  products.push(lamp);
  await db
    .insertInto("wishlistItems")
    .values({ userId, productId: lamp.id, addedAt: new Date().toISOString() })
    .execute();

  for (const [path] of PAGES) await visit(page, path);
  await visit(page, `/account/orders/${number}`);
  await expect(page.getByRole("main")).toContainText(number);
  await visit(page, `/account/addresses?edit=${await firstAddressId(userId)}`);
});

async function firstAddressId(userId: string): Promise<number> {
  const row = await shopDatabase()
    .selectFrom("addresses")
    .select("id")
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return row.id;
}
