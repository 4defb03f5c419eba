import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
} from "./shop-helpers.ts";

/**
 * Paying with a gift card (issue 31, decision 036), with JavaScript and without: a shopper applies
 * a $30 card at the payment step (a wrong code first, refused beside the field), pays the rest by
 * card and places the order; the owner sees the split on the order page and refunds it all — the
 * gateway's part to the card, the rest back to the gift card, whose balance shows it.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const OWNER = { id: "e2e-owner", email: ADMIN.email, role: "owner" as const };
const products: TestProduct[] = [];

test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`));

for (const javaScript of [true, false]) {
  test(`a gift card pays part of an order and a refund goes back to it (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
  }) => {
    const page = javaScript ? jsPage : noJsPage;
    const axe = javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs;
    const lamp = await createTestProduct("Gift Card Lamp", { stock: 5, priceCents: 4_000 });
    products.push(lamp);
    const issued = await issueGiftCard(shopDatabase(), {
      input: {
        amountCents: 3_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
        key: randomUUID(),
      },
      actor: OWNER,
    });
    if (!issued.ok || !issued.value.code) throw new Error("card not issued");
    const { code, card } = issued.value;

    // two $40 lamps: $80, free shipping, 7 % tax: $85.60
    await visit(page, `/products/${lamp.slug}`, { javaScript });
    await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `2 x ${lamp.name} added to cart!`)).toBeVisible();
    await visit(page, "/checkout", { javaScript });
    for (const [label, value] of [
      ["First Name", "Grace"],
      ["Last Name", "Hopper"],
      ["Email", `grace.${javaScript ? "js" : "nojs"}@example.com`],
      ["Phone", "+1 (555) 010-2030"],
      ["Address", "1 Compiler Road"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await field(page, label).fill(value);
    }
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");

    const codeBox = page.getByRole("textbox", { name: "Gift card code" });
    await codeBox.fill("ABCD-EFGH-JKLM-NPQR");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(codeBox).toHaveAccessibleDescription(
      "We don't know that gift card code. Please check it and try again.",
    );
    await codeBox.fill(code.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(toast(page, `Gift card ····${card.last4} applied`)).toBeVisible();
    await expect(page.getByTestId("checkout-card-part")).toHaveText("$55.60");
    await axe(page, "payment step with a gift card");

    await field(page, "Card Number").fill("4242424242424242");
    await field(page, "Cardholder Name").fill("Grace Hopper");
    await field(page, "Expiry Date").fill("12/30");
    await field(page, "CVV").fill("123");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(page).toHaveURL("/checkout?step=review");
    await expect(page.getByTestId("gift-card-totals")).toContainText(`Gift card ····${card.last4}−$30.00`);
    await expect(page.getByTestId("checkout-card-part")).toHaveText("$55.60");
    await axe(page, "review with a gift card");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");
    const number = (await page
      .getByText(/CW-[0-9A-Z]{10}/)
      .first()
      .textContent())!.match(/CW-[0-9A-Z]{10}/)![0];

    // the owner refunds it all: $55.60 back to the card paid with, $30.00 back to the gift card
    await page.goto(`/account?redirectTo=${encodeURIComponent(`/admin/orders/${number}`)}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === `/admin/orders/${number}`);
    await expect(page.getByTestId("order-gift-card-part")).toHaveText(
      "Paid by gift card or store credit: $30.00; by card: $55.60",
    );
    await page.getByLabel(/Or an amount to refund/).fill("85.60");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(toast(page, `Order ${number}: $85.60 refunded`)).toBeVisible();
    await expect(page.getByText("($30.00 back to the gift card)")).toBeVisible();
    await axe(page, "order refunded to a gift card");
    await visit(page, `/admin/gift-cards/${card.id}`, { javaScript });
    await expect(page.getByText("Refunded to the card")).toBeVisible();
    const balance = await shopDatabase()
      .selectFrom("giftCards")
      .select("balanceCents")
      .where("id", "=", card.id)
      .executeTakeFirstOrThrow();
    expect(balance.balanceCents).toBe(3_000);
  });
}
