import type { Page } from "@playwright/test";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  shopDatabase,
  signIn,
  toast,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * API keys in the browser (issue 32, decision 038): the owner makes a key with a scope — refused
 * beside the field without one — sees its secret once, calls the API with it, and revokes it, after
 * which the API refuses it; with and without JavaScript, axe on the page in each state.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

async function openKeys(page: Page) {
  await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/api-keys")}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === "/admin/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
}

async function makeKey(page: Page, name: string): Promise<string> {
  await page.getByRole("textbox", { name: "Key name" }).fill(name);
  await page.getByRole("checkbox", { name: "Read Orders and fulfilment" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("heading", { name: `API key ${name} created.` })).toBeVisible();
  const secret = (await page.getByTestId("api-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^cw_sk_/);
  return secret;
}

async function ordersWith(page: Page, secret: string) {
  const response = await page.request.get("/api/v1/admin/orders", {
    headers: { Authorization: `Bearer ${secret}` },
  });
  return { status: response.status(), body: await response.json() };
}

test("the owner makes a key, uses it on the API and revokes it (with JavaScript)", async ({
  page,
  browserErrors,
}) => {
  // a refused form answers 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  await openKeys(page);
  await expectNoA11yViolations(page, "API keys");
  const name = `E2E Warehouse ${uniqueTag()}`;
  // a secret key without a scope: said beside the scopes
  await page.getByRole("textbox", { name: "Key name" }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("group", { name: "Scopes" })).toHaveAccessibleDescription(
    "Choose at least one scope for a secret key.",
  );
  await expectNoA11yViolations(page, "API keys, a refused key");
  const secret = await makeKey(page, name);
  await expectNoA11yViolations(page, "API keys, a key just made");
  expect((await ordersWith(page, secret)).status).toBe(200);
  // a POST through the real server (its request guard takes JSON on /api/v1): a read-only key is refused
  const ship = await page.request.post("/api/v1/admin/orders/CW-NONE/shipment", {
    headers: { Authorization: `Bearer ${secret}`, "Idempotency-Key": `e2e-${uniqueTag()}` },
    data: {},
  });
  expect(ship.status()).toBe(403);
  expect((await ship.json()).detail).toBe("This API key lacks the orders:write scope.");

  await page.getByRole("link", { name: "Done" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("orders:read");
  await expect(row).not.toContainText(secret);
  await row.locator("summary", { hasText: "Revoke" }).click();
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(toast(page, `API key ${name} revoked.`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  const refused = await ordersWith(page, secret);
  expect(refused.status).toBe(401);
  expect(refused.body.detail).toBe("This API key has been revoked.");
});

test("the owner makes and revokes a key without JavaScript", async ({ noJsPage: page }) => {
  await openKeys(page);
  await expectNoA11yViolationsWithoutJs(page, "API keys without JavaScript");
  const name = `E2E No-JS ${uniqueTag()}`;
  const secret = await makeKey(page, name);
  expect((await ordersWith(page, secret)).status).toBe(200);
  await page.getByRole("link", { name: "Done" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await row.locator("summary", { hasText: "Revoke" }).click();
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  expect((await ordersWith(page, secret)).status).toBe(401);
});

test("the API reference: every operation of the document, readable without JavaScript", async ({
  page,
  noJsPage,
}) => {
  const doc = await (await page.request.get("/api/v1/openapi.json")).json();
  const operations = Object.values(
    doc.paths as Record<string, Record<string, { operationId: string }>>,
  ).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
  for (const [p, label] of [
    [page, "API reference"],
    [noJsPage, "API reference without JavaScript"],
  ] as const) {
    await p.goto("/api/reference");
    await expect(p.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
    const nav = p.getByRole("navigation", { name: "Operations" });
    await expect(nav.getByRole("link")).toHaveCount(operations.length);
    for (const id of operations) await expect(p.locator(`section[id="${id}"]`)).toHaveCount(1);
    if (p === page) await expectNoA11yViolations(p, label);
    else await expectNoA11yViolationsWithoutJs(p, label);
  }
  await page.getByRole("link", { name: "POST /api/v1/admin/products/{id}/stock" }).click();
  await expect(page).toHaveURL(/#changeStock$/);
  await expect(
    page.getByRole("region", { name: "changeStock parameters" }).getByRole("rowheader", { name: /delta/ }),
  ).toBeVisible();
});

test("webhooks: the owner adds an endpoint (refused without an event), sees its secret once, sends a test event and enables one the job disabled, with and without JavaScript", async ({
  page,
  noJsPage,
  browserErrors,
}) => {
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const url = `https://93.184.215.14/hooks/${uniqueTag()}`;
  try {
    await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/webhooks")}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((u) => u.pathname === "/admin/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await expectNoA11yViolations(page, "webhooks");
    await page.getByRole("textbox", { name: "Endpoint URL" }).fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("group", { name: "Events" })).toHaveAccessibleDescription(
      "Choose at least one event.",
    );
    await page.getByRole("checkbox", { name: "Order paid" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("heading", { name: "Webhook endpoint added." })).toBeVisible();
    await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
    await expectNoA11yViolations(page, "webhooks, an endpoint just added");
    await page.getByRole("link", { name: "Done" }).click();
    await expect(page.getByRole("heading", { name: url, level: 2 })).toBeVisible();
    await expect(page.getByText("Nothing sent yet.")).toBeVisible();
    // a test event, queued for this endpoint alone
    await page.getByRole("button", { name: `Send a test event to ${url}` }).click();
    await expect(
      toast(page, "A test event is queued for this endpoint; it appears below once sent."),
    ).toBeVisible();

    await noJsPage.goto(`/account?redirectTo=${encodeURIComponent("/admin/webhooks")}`);
    await signIn(noJsPage, ADMIN.email, ADMIN.password);
    await noJsPage.waitForURL((u) => u.pathname === "/admin/webhooks");
    await noJsPage.getByRole("button", { name: `New signing secret for ${url}` }).click();
    await expect(noJsPage.getByRole("heading", { name: /A new signing secret was made/ })).toBeVisible();
    await expectNoA11yViolationsWithoutJs(noJsPage, "webhooks without JavaScript, a new secret");
    // an endpoint the delivery job disabled (failing for 3 days): shown so, and enabled again
    await shopDatabase()
      .updateTable("webhookEndpoints")
      .set({
        enabled: 0,
        disabledAt: new Date().toISOString(),
        failingSince: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      })
      .where("url", "=", url)
      .execute();
    await noJsPage.goto("/admin/webhooks");
    await expect(noJsPage.getByText(/^Disabled on .*every delivery failed for 3 days/)).toBeVisible();
    await expectNoA11yViolationsWithoutJs(noJsPage, "webhooks without JavaScript, an endpoint disabled");
    await noJsPage.getByRole("button", { name: `Enable ${url}` }).click();
    await expect(toast(noJsPage, "The endpoint is enabled again.")).toBeVisible();
    await expect(noJsPage.getByRole("button", { name: `Send a test event to ${url}` })).toBeVisible();
  } finally {
    // no other test of this worker's shop sends to it
    await shopDatabase().deleteFrom("webhookEndpoints").where("url", "=", url).execute();
    await closeShopDatabase();
  }
});

test("a headless storefront: a publishable key's cart, code and checkout through the real server, tracked on the shop's page; a browser on another origin is answered", async ({
  page,
  noJsPage,
}) => {
  const made = await createApiKey(shopDatabase(), {
    actor: { id: "e2e-owner", email: "owner@example.com", role: "owner" },
    input: { name: `E2E app ${uniqueTag()}`, kind: "publishable", scopes: [], expiresAt: null },
  });
  if (!made.ok) throw new Error(made.error.code);
  const lamp = await createTestProduct("Api Lamp", { stock: 5, priceCents: 2_000 });
  const code = `E2EAPI${uniqueTag().toUpperCase()}`;
  await insertCoupon(shopDatabase(), { code, amount: 10 });
  try {
    const headers = (post = true) => ({
      Authorization: `Bearer ${made.value.secret}`,
      ...(post ? { "Idempotency-Key": `e2e-${uniqueTag()}` } : {}),
    });
    const cart = await (
      await page.request.post("/api/v1/store/carts", { headers: headers(), data: {} })
    ).json();
    const added = await page.request.post(`/api/v1/store/carts/${cart.id}/lines`, {
      headers: headers(),
      data: { productId: lamp.id, quantity: 2 },
    });
    expect((await added.json()).message).toBe(`2 x ${lamp.name} added to cart!`);
    const applied = await page.request.post(`/api/v1/store/carts/${cart.id}/code`, {
      headers: headers(),
      data: { code },
    });
    expect((await applied.json()).cart.code.code).toBe(code);
    // DELETE through the real server's request guard
    const removed = await page.request.delete(`/api/v1/store/carts/${cart.id}/code`, {
      headers: headers(false),
    });
    expect(removed.status()).toBe(200);
    expect((await removed.json()).cart.code).toBeNull();
    const quote = await (
      await page.request.get(
        `/api/v1/store/carts/${cart.id}/quote?country=US&region=IL&shippingMethod=standard`,
        {
          headers: headers(false),
        },
      )
    ).json();
    const token = await (
      await page.request.post("/api/v1/store/payment-tokens", {
        headers: headers(),
        data: { cardNumber: "4242424242424242", cardName: "Ada Lovelace", expiryDate: "12/30", cvv: "123" },
      })
    ).json();
    const email = `api-${uniqueTag()}@example.com`;
    const placed = await page.request.post(`/api/v1/store/carts/${cart.id}/checkout`, {
      headers: headers(),
      data: {
        email,
        firstName: "Ada",
        lastName: "Lovelace",
        phone: "+1 555 0100",
        address: "1 Analytical Way",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
        shippingMethod: "standard",
        payment: { token: token.token },
        expectedTotal: quote.totals.total.amount,
      },
    });
    expect(placed.status()).toBe(201);
    const { order } = await placed.json();
    expect(order.total.amount).toBe(quote.totals.total.amount);

    // the shop's own tracking page finds it (no JavaScript)
    await noJsPage.goto("/orders/track");
    await noJsPage.getByRole("textbox", { name: "Order number" }).fill(order.number);
    await noJsPage.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await noJsPage.getByRole("button", { name: "Track Order" }).click();
    await expect(noJsPage.getByText(order.number).first()).toBeVisible();
    await expect(noJsPage.getByText(lamp.name).first()).toBeVisible();

    // a headless storefront on another origin: the preflight is answered
    const preflight = await page.request.fetch("/api/v1/store/carts", {
      method: "OPTIONS",
      headers: {
        Origin: "https://headless.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(preflight.status()).toBe(204);
    expect(preflight.headers()["access-control-allow-origin"]).toBe("*");
  } finally {
    await removeTestProducts(lamp).catch(() => undefined);
    await closeShopDatabase();
  }
});
