import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { sql } from "kysely";
import { addAddress } from "../../app/domain/accounts/addresses.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { issueInvoice } from "../../app/domain/invoices/issue-documents.server.ts";
import { expect, test, visit, waitForHydration } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  insertTestOrder,
  register,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  uniqueEmail,
  uniqueTag,
  userIdOf,
} from "./shop-helpers.ts";

/**
 * WCAG 1.4.10 Reflow, which axe does not check: at 320 and 390 CSS px no page of the shop scrolls
 * sideways (document.documentElement.scrollWidth ≤ window.innerWidth). Every page of the
 * storefront, the cart with items, each checkout step, the account area signed in and the admin
 * area (signed in as the demo admin); a failure names the page, the width and the element that
 * sticks out furthest. Content that may scroll on its own (a data table in its own scroll box) is
 * allowed to, as long as the box contains it. Each page is also checked for icons a flex row
 * squeezed (narrower than tall), and product cards for prices cut off by the card.
 */
const WIDTHS = [390, 320] as const;
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

interface Overflow {
  innerWidth: number;
  scrollWidth: number;
  /** what sticks out furthest: the innermost such element, and the outermost one it is in */
  offender: string | null;
  /** icons a flex row squeezed narrower than they are tall */
  squeezedIcons: string[];
}

/** How wide the document is, which element makes it so, and which icons were squeezed. */
function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const { innerWidth } = window;
    const { scrollWidth } = document.documentElement;
    const describe = (element: Element) => {
      const rect = element.getBoundingClientRect();
      const classes = typeof element.className === "string" ? element.className.trim().split(/\s+/) : [];
      const name = [
        element.tagName.toLowerCase(),
        element.id ? `#${element.id}` : "",
        classes.length && classes[0] ? `.${classes.slice(0, 6).join(".")}` : "",
      ].join("");
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
      return `${name}${text ? ` “${text}”` : ""} at x=${Math.round(rect.left)}…${Math.round(rect.right)}`;
    };
    const visible = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return rect.width > 0 || rect.height > 0;
    };
    // lucide icons are square: one narrower than it is tall was squeezed by its flex row
    const squeezedIcons = [...document.querySelectorAll("svg.lucide")]
      .filter((icon) => {
        if (!visible(icon)) return false;
        const { width, height } = icon.getBoundingClientRect();
        return width < height - 0.5;
      })
      .map((icon) => {
        const { width, height } = icon.getBoundingClientRect();
        return `${describe(icon.parentElement ?? icon)}: icon ${icon.getAttribute("class")} is ${width.toFixed(1)}×${height.toFixed(1)} px`;
      });
    if (scrollWidth <= innerWidth) return { innerWidth, scrollWidth, offender: null, squeezedIcons };

    // Elements reaching past the right edge that no box inside the viewport clips (a table's own
    // scroll box may hold a wider table), furthest first. A box clips what lies in its containing
    // block chain: an absolutely positioned element (visually hidden text) escapes every
    // overflow box between it and its nearest positioned ancestor. Fixed elements never scroll.
    const clips = (box: Element) => {
      const style = getComputedStyle(box);
      return (
        style.overflowX !== "visible" ||
        /paint|content|strict/.test(style.contain) ||
        style.contentVisibility === "auto"
      );
    };
    const containingBlock = (element: Element): Element | null => {
      const { position } = getComputedStyle(element);
      if (position !== "absolute") return element.parentElement;
      let parent = element.parentElement;
      while (parent && parent !== document.body && getComputedStyle(parent).position === "static") {
        parent = parent.parentElement;
      }
      return parent;
    };
    const clippedInside = (element: Element) => {
      for (let box = containingBlock(element); box && box !== document.body; box = containingBlock(box)) {
        if (clips(box) && box.getBoundingClientRect().right <= innerWidth + 0.5) return true;
      }
      return false;
    };
    const offenders: { element: Element; overflow: number }[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (!visible(element) || getComputedStyle(element).position === "fixed") continue;
      const rect = element.getBoundingClientRect();
      // its box, or (when it does not clip) its content, such as a long word in a heading
      const contentRight = clips(element) ? rect.right : rect.left + element.scrollWidth;
      const overflow = Math.max(rect.right, contentRight) - innerWidth;
      if (overflow > 0.5 && !clippedInside(element)) offenders.push({ element, overflow });
    }
    if (offenders.length === 0) {
      return {
        innerWidth,
        scrollWidth,
        offender: "no element sticks out (a margin or a pseudo-element?)",
        squeezedIcons,
      };
    }
    const furthest = Math.max(...offenders.map((o) => o.overflow));
    const worst = offenders.filter((o) => o.overflow >= furthest - 0.5);
    const outer = worst[0]!.element;
    const inner = worst.filter((o) => outer.contains(o.element)).at(-1)!.element;
    return {
      innerWidth,
      scrollWidth,
      offender: inner === outer ? describe(outer) : `${describe(inner)}, inside ${describe(outer)}`,
      squeezedIcons,
    };
  });
}

/**
 * The page as it is now, at each width: no horizontal scrolling, no squeezed icon. Soft, so one
 * run lists every page that fails.
 */
async function expectReflow(page: Page, label: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const result = await measure(page);
    expect
      .soft(
        result.scrollWidth,
        `${label} (${page.url()}) at ${width} px scrolls sideways: the document is ${result.scrollWidth} px wide; widest offender: ${result.offender}`,
      )
      .toBeLessThanOrEqual(result.innerWidth);
    expect.soft(result.squeezedIcons, `${label} (${page.url()}) at ${width} px: squeezed icons`).toEqual([]);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
}

/** Visits (axe included, at 390 px) and checks the reflow at both widths. */
async function check(page: Page, path: string, { status = 200, label = path } = {}) {
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
  await visit(page, path, { status });
  await expectReflow(page, label);
}

test.use({ viewport: { width: 390, height: 800 } });

test.describe("reflow at 320 and 390 px", () => {
  test("catalogue pages, signed out", async ({ page }) => {
    // every page runs axe too: slow on a loaded machine
    test.setTimeout(300_000);
    // no original price: other spec files count the deals listing
    const product = await createTestProduct("Reflow Product Page", { priceCents: 149_999, stock: 40 });
    products.push(product);
    for (const path of [
      "/",
      "/products",
      "/products?category=electronics",
      "/products?category=clothing&subcategory=shoes",
      "/products?search=reflow",
      "/products?featured=true",
      "/products/new-arrivals",
      "/products/deals",
      `/products/${product.slug}`,
      "/cart",
    ]) {
      await check(page, path);
    }
    // the mobile menu open
    await visit(page, "/");
    await page.getByRole("banner").locator("summary", { hasText: "Menu" }).click();
    await expectReflow(page, "home with the mobile menu open");
  });

  test("account sign-in, help, contact, sitemap, tracking and 404 pages, signed out", async ({
    page,
    browserErrors,
  }) => {
    test.setTimeout(300_000);
    browserErrors.allow(/status of 404/);
    for (const path of [
      "/account",
      "/account?mode=register",
      "/forgot-password",
      "/reset-password?token=not-a-real-token",
      "/staff/join?token=not-a-real-token",
      "/help",
      "/help/shipping",
      "/help/returns",
      "/help/faq",
      "/help/terms",
      "/help/privacy",
      "/help/cookies",
      "/api/reference",
      "/contact",
      "/sitemap",
      "/orders/track",
      "/gift-cards/balance",
    ]) {
      await check(page, path);
    }
    // a staff invitation's page with its form, for a long address
    const token = randomBytes(32).toString("base64url");
    const now = new Date();
    await shopDatabase()
      .insertInto("staffInvitations")
      .values({
        email: uniqueEmail("reflow.invitee.with.a.rather.long.address"),
        role: "staff",
        tokenHash: createHash("sha256").update(token).digest("hex"),
        invitedBy: "reflow",
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
      })
      .execute();
    await check(page, `/staff/join?token=${token}`, { label: "staff invitation page" });
    await check(page, "/no-such-page-here", { status: 404, label: "404 page" });
  });

  test("cart with items, each checkout step, and every account section, signed in", async ({ page }) => {
    test.setTimeout(300_000);
    const tag = uniqueTag();
    const lamp = await createTestProduct("Reflow Lamp With A Rather Long Name For Narrow Screens", {
      priceCents: 149_999,
      stock: 40,
    });
    const mug = await createTestProduct("Reflow Mug", { priceCents: 1_250, stock: 40 });
    products.push(lamp, mug);
    // a long address, as people have: it shows on the review step, the confirmation and the account
    const email = uniqueEmail("reflow.checker.with.a.rather.long.address");
    await register(page, { name: "Reflow Checker", email, password: "reflow password" });
    const userId = await userIdOf(email);

    // the cart with two lines, by the product page's own form
    for (const product of [lamp, mug]) {
      await visit(page, `/products/${product.slug}`);
      await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
      await expect(page.getByRole("banner").getByTestId("cart-badge")).toBeVisible();
    }
    await check(page, "/cart", { label: "cart with items" });

    // checkout: shipping → payment → review → confirmation
    await check(page, "/checkout", { label: "checkout, shipping step" });
    for (const [label, value] of [
      ["First Name", "Rita"],
      ["Last Name", "Reflow"],
      ["Phone", "+1 555 0100"],
      ["Address", "1 Narrow Street"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await page.getByLabel(new RegExp(`^${label.replace(/[/]/g, "\\/")}\\s*\\*?$`)).fill(value);
    }
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    await waitForHydration(page);
    await expectReflow(page, "checkout, payment step");
    await page.getByLabel(/^Card Number/).fill("4242424242424242");
    await page.getByLabel(/^Cardholder Name/).fill("Rita Reflow");
    await page.getByLabel(/^Expiry Date/).fill("12/30");
    await page.getByLabel(/^CVV/).fill("123");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(page).toHaveURL("/checkout?step=review");
    await expectReflow(page, "checkout, review step");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");
    await expectReflow(page, "checkout, confirmation step");
    const number = (await page.getByTestId("order-number").textContent()) ?? "";
    expect(number).toMatch(/^CW-/);

    // every account section, with something in it
    const db = shopDatabase();
    await addAddress(db, userId, {
      firstName: "Rita",
      lastName: "Reflow",
      phone: "+1 555 0100",
      address: "1 Narrow Street",
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
      cardholderName: "Rita Reflow",
      gatewayToken: `tok_reflow_${tag}`,
    });
    await db
      .insertInto("wishlistItems")
      .values({ userId, productId: lamp.id, addedAt: new Date().toISOString() })
      .execute();
    // its invoice, issued when it was paid
    const { number: invoice } = await db
      .selectFrom("invoices")
      .innerJoin("orders", "orders.id", "invoices.orderId")
      .select("invoices.number")
      .where("orders.number", "=", number)
      .executeTakeFirstOrThrow();
    for (const path of [
      "/account",
      "/account/orders",
      `/account/orders/${number}`,
      `/account/invoices/${invoice}`,
      "/account/wishlist",
      "/account/addresses",
      "/account/payment-methods",
      "/account/settings",
      "/account/edit-profile",
    ]) {
      await check(page, path);
    }

    // tracking the order as a guest would
    await check(page, "/orders/track", { label: "order tracking" });
    await page.getByRole("textbox", { name: "Order Number" }).fill(number);
    await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await page.getByRole("button", { name: /Track/i }).click();
    await expect(page.getByRole("main")).toContainText(number);
    await expectReflow(page, "order tracking result");
  });

  test("every admin page", async ({ page }) => {
    test.setTimeout(300_000);
    const lamp = await createTestProduct("Reflow Admin Lamp With A Rather Long Name", {
      priceCents: 149_999,
      stock: 4,
    });
    products.push(lamp);
    const number = await insertTestOrder(lamp, {
      email: "reflow.buyer.with.a.rather.long.address@example.com",
    });
    // its invoice, as paying it issues one (unless the background job was first)
    const { id: orderId } = await shopDatabase()
      .selectFrom("orders")
      .select("id")
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    await shopDatabase()
      .transaction()
      .execute((trx) => issueInvoice(trx, orderId));
    const { number: invoice } = await shopDatabase()
      .selectFrom("invoices")
      .select("number")
      .where("orderId", "=", orderId)
      .where("kind", "=", "invoice")
      .executeTakeFirstOrThrow();
    // a reported review with words longer than a phone is wide, as shoppers type them
    const now = new Date().toISOString();
    await shopDatabase()
      .insertInto("reviews")
      .values({
        productId: lamp.id,
        userId: null,
        authorName: "Reviewer-with-a-name-that-never-ends-in-one-word",
        rating: 1,
        title: "Unbelievablydisappointingandoverpricedlampthatbrokeonthefirstday",
        body: "https://example.com/a/very/long/link/that/has/no/spaces/in/it/at/all/anywhere",
        reported: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    // a coupon: a promotion with its code (migration 0780), as the seed makes WELCOME10
    const coupon = await shopDatabase()
      .selectFrom("promotions")
      .select("id")
      .where("code", "=", "WELCOME10")
      .executeTakeFirstOrThrow();
    // the staff page's pending invitations, with a long address
    await shopDatabase()
      .insertInto("staffInvitations")
      .values({
        email: uniqueEmail("reflow.pending.invitee.with.a.rather.long.address"),
        role: "admin",
        tokenHash: createHash("sha256").update(randomBytes(32)).digest("hex"),
        invitedBy: "reflow",
        createdAt: now,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      })
      .execute();

    // the demo product whose variants have the longest names, for the stock history's variant list
    const { productId: variedProduct, sku: longSku } = await shopDatabase()
      .selectFrom("productVariants")
      .select(["productId", "sku"])
      .orderBy(sql`length(coalesce(option1, '')) + length(coalesce(option2, '')) + length(sku)`, "desc")
      .executeTakeFirstOrThrow();

    const zone = await shopDatabase()
      .selectFrom("zones")
      .select("id")
      .orderBy("id")
      .executeTakeFirstOrThrow();

    // a customer group with a long name and a member (its page and its CSV import)
    const stamp = new Date().toISOString();
    const group = await shopDatabase()
      .insertInto("customerGroups")
      .values({
        name: `Reflow group ${"with-a-very-long-unbroken-name-".repeat(3)}${Date.now()}`,
        description: "",
        rule: JSON.stringify({ type: "spent-over", cents: 5_000_000 }),
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const member = await shopDatabase()
      .selectFrom("users")
      .select("id")
      .where((eb) => eb.or([eb("role", "=", "customer"), eb("role", "is", null)]))
      .orderBy("id")
      .executeTakeFirst();
    if (member) {
      await shopDatabase()
        .insertInto("customerGroupMembers")
        .values({ groupId: group.id, userId: member.id, source: "hand", addedAt: stamp })
        .execute();
    }

    // a gift card with a long recipient, spent in part (its page lists its movements)
    const issued = await issueGiftCard(shopDatabase(), {
      input: {
        key: randomUUID(),
        amountCents: 250_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: uniqueEmail("reflow.gift.recipient.with.a.rather.long.address"),
        recipientName: "Recipient-with-a-name-that-never-ends-in-one-word",
        message: "A message with a link https://example.com/a/very/long/link/that/never/breaks/anywhere",
      },
      actor: { id: "reflow", email: ADMIN.email, role: "owner" },
    });
    if (!issued.ok) throw new Error("gift card not issued");
    const giftCard = issued.value.card;

    await page.goto("/account?redirectTo=%2Fadmin");
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === "/admin");
    for (const path of [
      "/admin",
      "/admin?search=reflow",
      "/admin/dashboard",
      "/admin/products/new",
      `/admin/products/${lamp.id}`,
      `/admin/products/${lamp.id}/delete`,
      `/admin/products/${lamp.id}/stock`,
      `/admin/products/${variedProduct}/stock`,
      "/admin/products/import",
      "/admin/orders",
      `/admin/orders/${number}`,
      "/admin/low-stock",
      "/admin/searches",
      // Admin → Coupons: the promotions with a code, a new one, one of them
      "/admin/promotions?with=code",
      "/admin/promotions/new?type=order-percent&coupon=1",
      `/admin/promotions/${coupon.id}`,
      "/admin/promotions",
      "/admin/promotions/new",
      "/admin/promotions/new?type=buy-x-get-y",
      "/admin/promotions/new?type=free-shipping",
      "/admin/promotions/simulate",
      // a result, its long names wrapping
      `/admin/promotions/simulate?sku=${encodeURIComponent(longSku)}&quantity=2&country=US`,
      "/admin/gift-cards",
      "/admin/gift-cards/new",
      "/admin/reviews",
      "/admin/audit",
      "/admin/staff",
      "/admin/settings",
      "/admin/settings/zones",
      "/admin/settings/zones/new",
      `/admin/settings/zones/${zone.id}`,
      "/admin/backups",
      "/admin/api-keys",
      "/admin/webhooks",
      "/admin/customers",
      "/admin/customer-groups",
      `/admin/customer-groups/${group.id}`,
      `/admin/customer-groups/${group.id}/import`,
      `/admin/customer-groups/${group.id}/prices`,
      `/admin/customer-groups/${group.id}/prices/import`,
      `/admin/gift-cards/${giftCard.id}`,
      `/admin/orders/packing-slips?number=${number}`,
      `/admin/orders/invoices/${invoice}`,
    ]) {
      await check(page, path);
    }
    // the confirm steps, open
    await check(page, `/admin/orders/${number}`, { label: "admin order" });
    await page.locator("summary", { hasText: "Cancel order" }).click();
    await expectReflow(page, "admin order, cancel question open");
    await check(page, "/admin/staff", { label: "admin staff" });
    await page.locator("summary", { hasText: "Cancel invitation" }).first().click();
    await expectReflow(page, "admin staff, cancel invitation question open");
  });

  test("gift cards: a gift card's product page, the payment step and review with a card applied, the balance page", async ({
    page,
  }) => {
    const card = await createTestProduct("Reflow Gift Card With A Rather Long Name", {
      priceCents: 5_000,
      stock: 40,
      giftCard: 1,
    });
    const lamp = await createTestProduct("Reflow Gift Lamp", { priceCents: 12_000, stock: 40 });
    products.push(card, lamp);
    const issued = await issueGiftCard(shopDatabase(), {
      input: {
        key: randomUUID(),
        amountCents: 3_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
      },
      actor: { id: "reflow", email: ADMIN.email, role: "owner" },
    });
    if (!issued.ok || !issued.value.code) throw new Error("gift card not issued");
    const { code } = issued.value;

    await check(page, `/products/${card.slug}`, { label: "a gift card's product page" });
    await visit(page, `/products/${lamp.slug}`);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(page.getByRole("banner").getByTestId("cart-badge")).toBeVisible();
    await visit(page, "/checkout");
    for (const [label, value] of [
      ["First Name", "Rita"],
      ["Last Name", "Reflow"],
      ["Email", uniqueEmail("reflow.gift.payer.with.a.rather.long.address")],
      ["Phone", "+1 555 0100"],
      ["Address", "1 Narrow Street"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await page.getByLabel(new RegExp(`^${label.replace(/[/]/g, "\\/")}\\s*\\*?$`)).fill(value);
    }
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    await page.getByRole("textbox", { name: "Gift card code" }).fill(code);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("checkout-card-part")).toBeVisible();
    await waitForHydration(page);
    await expectReflow(page, "checkout, payment step with a gift card applied");
    await page.getByLabel(/^Card Number/).fill("4242424242424242");
    await page.getByLabel(/^Cardholder Name/).fill("Rita Reflow");
    await page.getByLabel(/^Expiry Date/).fill("12/30");
    await page.getByLabel(/^CVV/).fill("123");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(page).toHaveURL("/checkout?step=review");
    await expectReflow(page, "checkout, review step with a gift card");
    await check(page, "/gift-cards/balance", { label: "gift card balance" });
  });

  test("product cards, two to a row on a phone, show the whole price with the struck-through original", async ({
    page,
  }) => {
    // every demo product is on sale; the laptop's prices are the widest
    for (const path of ["/", "/products/deals"]) {
      await visit(page, path);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const clipped = await page.evaluate(() =>
          [...document.querySelectorAll("article")].flatMap((card) => {
            const box = card.getBoundingClientRect();
            return [...card.querySelectorAll("p:has(> s) > span, p:has(> s) > s")]
              .filter((price) => {
                const rect = price.getBoundingClientRect();
                return rect.right > box.right + 0.5 || rect.left < box.left - 0.5;
              })
              .map((price) => `${card.querySelector("h3")?.textContent}: “${price.textContent}”`);
          }),
        );
        expect.soft(clipped, `${path} at ${width} px: prices cut off by their card`).toEqual([]);
        const struck = await page.locator("article s").count();
        expect(struck, `${path}: cards with a struck-through price`).toBeGreaterThan(0);
      }
    }
  });
});
