/**
 * Helpers shared by the account-area specs (wishlist, reviews, account pages): the e2e server's
 * database (playwright.config.ts gives it the same data directory), products of a test's own,
 * registering and signing in through the UI, and the toast stack.
 */
import type { Page } from "@playwright/test";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import type { NewProduct } from "../../app/db/schema.ts";
import { deleteProducts, insertProduct } from "../helpers/catalog.ts";
import { expect, visit } from "./fixtures.ts";
import { shopDatabaseUrl } from "./shop-env.ts";

export { shopDataDir, shopMailDir } from "./shop-env.ts";

let shopDb: Database | undefined;
/** This worker's shop database (fixtures.ts gives every worker a shop of its own). */
export function shopDatabase(): Database {
  shopDb ??= createDatabase(shopDatabaseUrl());
  return shopDb;
}
export async function closeShopDatabase() {
  await shopDb?.destroy();
  shopDb = undefined;
}

export const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
export const uniqueEmail = (label: string) => `${label}-${uniqueTag()}@example.com`;

export interface TestProduct {
  id: number;
  slug: string;
  name: string;
}

/** A product of the test's own, so its rating, count and wishlist state are the test's alone. */
export async function createTestProduct(
  label: string,
  overrides: Partial<NewProduct> = {},
): Promise<TestProduct> {
  const tag = uniqueTag();
  const name = `E2E ${label} ${tag}`;
  const slug = `e2e-${label.toLowerCase().replace(/\W+/g, "-")}-${tag}`;
  const id = await insertProduct(shopDatabase(), { name, slug, ...overrides });
  return { id, slug, name };
}

export async function removeTestProducts(...products: TestProduct[]) {
  if (products.length === 0) return;
  await deleteProducts(
    shopDatabase(),
    products.map((p) => p.id),
  );
}

/**
 * A paid order of `quantity` × the product (at $1,499.99 each unless told), as if placed by a guest,
 * with an order number of the test's own and its payment captured in the test gateway's ledger
 * (so it can be refunded). Stock is left as it is. Returns the order number.
 */
export async function insertTestOrder(
  product: TestProduct,
  {
    quantity = 1,
    unitPriceCents = 149_999,
    email = "e2e.buyer@example.com",
    userId = null,
    trackable = false,
  }: {
    quantity?: number;
    unitPriceCents?: number;
    email?: string;
    userId?: string | null;
    /** a number of the real format (CW- and 10 characters), which /orders/track accepts */
    trackable?: boolean;
  } = {},
): Promise<string> {
  const tag = uniqueTag()
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "");
  const number = trackable ? `CW-${tag.slice(-10).padStart(10, "0")}` : `CW-E2E${tag}`.slice(0, 23);
  const now = new Date().toISOString();
  const subtotalCents = quantity * unitPriceCents;
  const db = shopDatabase();
  const { id } = await db
    .insertInto("orders")
    .values({
      number,
      idempotencyKey: `e2e-${number}`,
      userId,
      email,
      firstName: "Eve",
      lastName: "Buyer",
      phone: "+1 555 0100",
      address: "1 Test Street",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
      shippingMethod: "standard",
      subtotalCents,
      discountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: subtotalCents,
      couponCode: null,
      status: "paid",
      paymentBrand: "Visa",
      paymentLast4: "4242",
      paymentReference: `auth_${number}`,
      estimatedDelivery: now.slice(0, 10),
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("testGatewayPayments")
    .values({
      idempotencyKey: `e2e-${number}`,
      authorizationId: `auth_${number}`,
      amountCents: subtotalCents,
      status: "captured",
      createdAt: now,
    })
    .execute();
  const variant = await db
    .selectFrom("productVariants")
    .select(["id", "sku"])
    .where("productId", "=", product.id)
    .orderBy("position")
    .executeTakeFirst();
  await db
    .insertInto("orderItems")
    .values({
      orderId: id,
      productId: product.id,
      variantId: variant?.id ?? null,
      sku: variant?.sku ?? null,
      productSlug: product.slug,
      name: product.name,
      brand: "Testbrand",
      imageKey: null,
      unitPriceCents,
      quantity,
      lineTotalCents: subtotalCents,
    })
    .execute();
  return number;
}

/** Marks a test order shipped and then delivered `daysAgo` days ago (its events as staff would leave them). */
export async function deliverTestOrder(number: string, daysAgo = 2): Promise<void> {
  const db = shopDatabase();
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60_000).toISOString();
  const order = await db
    .selectFrom("orders")
    .select("id")
    .where("number", "=", number)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("orders")
    .set({ status: "delivered", updatedAt: at })
    .where("id", "=", order.id)
    .execute();
  await db
    .insertInto("orderEvents")
    .values([
      { orderId: order.id, fromStatus: "paid", toStatus: "shipped", actor: "e2e", createdAt: at },
      { orderId: order.id, fromStatus: "shipped", toStatus: "delivered", actor: "e2e", createdAt: at },
    ])
    .execute();
}

export async function userIdOf(email: string): Promise<string> {
  const row = await shopDatabase()
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest toast with this text (an earlier one with the same text may still be showing). */
export const toast = (page: Page, message: string) =>
  page.getByRole("region", { name: "Notifications" }).getByText(message, { exact: true }).last();

/** Fills and sends the sign-in form on the page (already on /account, signed out). */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Switches the sign-in page to Register (keeping where to come back to) and creates the account. */
export async function registerHere(
  page: Page,
  { name, email, password }: { name: string; email: string; password: string },
) {
  await page.getByRole("link", { name: "Register" }).click();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** Registers a new account from /account; ends on the account overview, signed in. */
export async function register(page: Page, account: { name: string; email: string; password: string }) {
  await visit(page, "/account");
  await registerHere(page, account);
  await expect(toast(page, "Account created successfully!")).toBeVisible();
}
