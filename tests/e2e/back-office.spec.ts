import type { Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox.ts";
import {
  expect,
  expectNoA11yViolations,
  expectNoA11yViolationsWithoutJs,
  test,
  visit,
  waitForHydration,
} from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  insertTestOrder,
  removeTestProducts,
  shopDatabase,
  shopMailDir,
  signIn,
  type TestProduct,
  toast,
  uniqueEmail,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * The back office (issue 20) in the browser: its own frame, the owner inviting a staff member by
 * e-mail, who joins through the link (/staff/join, decision 024) by choosing a password, sees only
 * what the role opens, and ships an order with a tracking number — the customer's e-mail carries
 * the tracking link, the order page shows it — and a packing slip; the invitation and its
 * cancelling without JavaScript. axe on the new pages at desktop width and at 390 px.
 */
const OWNER = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const FORBIDDEN = /status of 403/;

let products: TestProduct[] = [];

test.afterAll(async () => {
  await removeTestProducts(...products);
  products = [];
  await closeShopDatabase();
});

async function signInTo(page: Page, path: string, account: { email: string; password: string }) {
  await visit(page, `/account?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname === path);
}

async function mailTo(email: string, subject: RegExp) {
  let found: { text: string; subject: string } | undefined;
  await expect(async () => {
    found = (await readOutbox(shopMailDir()))
      .filter((m) => m.to.includes(email) && subject.test(m.subject))
      .at(-1);
    expect(found).toBeDefined();
  }).toPass();
  return found!;
}

test("the owner invites a staff member, who ships an order with a tracking number; the customer is e-mailed", async ({
  page,
  browserErrors,
}) => {
  browserErrors.allow(FORBIDDEN);
  const lamp = await createTestProduct("Slip Lamp", { priceCents: 3_000, stock: 20 });
  products.push(lamp);
  const customer = uniqueEmail("tracked");
  const order = await insertTestOrder(lamp, { email: customer, quantity: 2, trackable: true });
  const member = uniqueEmail("packer");

  // the owner's back office: its own frame, every section
  await signInTo(page, "/admin/staff", OWNER);
  await expect(page.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "View shop" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toHaveCount(0); // no storefront footer
  const sidebar = page.getByRole("navigation", { name: "Admin" });
  await expect(sidebar.getByRole("link", { name: "Staff" })).toHaveAttribute("aria-current", "page");
  await expectNoA11yViolations(page, "staff page");

  await page.getByRole("textbox", { name: "E-mail" }).fill(member);
  await page.getByRole("radio", { name: /^Staff/ }).check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(toast(page, `Invitation sent to ${member}`)).toBeVisible();
  // invited, not on the staff: listed under the invitations until the link is used
  const invitations = page.getByRole("region", { name: "Pending invitations" });
  await expect(invitations.getByRole("row", { name: new RegExp(member) })).toContainText(
    "Invited, expires on",
  );
  await expect(
    page.getByRole("region", { name: "Staff members" }).getByRole("rowheader", { name: new RegExp(member) }),
  ).toHaveCount(0);
  await expectNoA11yViolations(page, "staff page with an invitation");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(toast(page, "Successfully logged out!")).toBeVisible();

  // the invitation's link: the shop and the role, a password to choose; then the member signs in
  const invitation = await mailTo(member, /invited/);
  const link = new URL(/https?:\/\/\S+\/staff\/join\?token=\S+/.exec(invitation.text)![0]);
  await visit(page, link.pathname + link.search);
  await expect(page.getByRole("heading", { name: "Join the staff of Cartwheel", level: 1 })).toBeVisible();
  await expect(page.getByText(/You are invited to join Cartwheel's staff as Staff/)).toBeVisible();
  await page.getByLabel(/^New Password/).fill("packing all day 1");
  await page.getByLabel(/^Confirm New Password/).fill("packing all day 1");
  await page.getByRole("button", { name: "Join the staff" }).click();
  await expect(
    toast(page, "You have joined the staff. Please sign in with your new password."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/account\?redirectTo=%2Fadmin$/);
  await expectNoA11yViolations(page, "sign-in page after joining");
  // the link worked once
  await visit(page, link.pathname + link.search);
  await expect(page.getByRole("alert")).toContainText("This invitation link does not work");
  await expect(page.getByRole("button", { name: "Join the staff" })).toHaveCount(0);
  await signInTo(page, "/admin/orders", { email: member, password: "packing all day 1" });
  await expect(page.getByText(`Signed in as ${member} (Staff)`)).toBeVisible();
  await expect(sidebar.getByRole("link")).toHaveText([
    "Products",
    "Add Product",
    "Import / Export",
    "Low stock",
    "Searches",
    "Orders",
    "Reviews",
  ]);

  // staff may not open the staff page, the dashboard or the settings
  const refused = await page.goto("/admin/staff");
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();

  // ship the order with UPS and a tracking number; staff see no refund form
  await visit(page, `/admin/orders/${order}`);
  await expect(page.getByRole("heading", { name: "Refund" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Cancel order/ })).toHaveCount(0);
  await expectNoA11yViolations(page, "order page, staff");
  await page.getByLabel("Carrier (optional)").selectOption("ups");
  await page.getByLabel("Tracking number (optional)").fill("1Z999AA10123456784");
  await page.getByRole("button", { name: "Mark as shipped" }).click();
  await expect(toast(page, `Order ${order}: Shipped`)).toBeVisible();
  const tracking = page.getByRole("link", { name: /1Z999AA10123456784/ });
  await expect(tracking).toHaveAttribute("href", "https://www.ups.com/track?tracknum=1Z999AA10123456784");

  const shipped = await mailTo(customer, /has shipped/);
  expect(shipped.text).toContain("Carrier: UPS");
  expect(shipped.text).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");

  // the customer finds the tracking on /orders/track
  await page.getByRole("button", { name: "Sign out" }).click();
  await visit(page, "/orders/track");
  await page.getByRole("textbox", { name: "Order Number" }).fill(order);
  await page.getByRole("main").getByRole("textbox", { name: "Email" }).fill(customer);
  await page.getByRole("button", { name: /Track/ }).click();
  await expect(page.getByRole("link", { name: /1Z999AA10123456784/ })).toBeVisible();
});

test("without JavaScript: the owner invites two people and cancels one invitation; its link refuses, the other joins", async ({
  noJsPage: page,
  browserErrors,
}) => {
  // the refused join (mismatched passwords, a cancelled link) is answered 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const joiner = uniqueEmail("nojs-joiner");
  const dropped = uniqueEmail("nojs-dropped");
  await page.goto("/account?redirectTo=%2Fadmin%2Fstaff");
  await signIn(page, OWNER.email, OWNER.password);
  await page.waitForURL((url) => url.pathname === "/admin/staff");
  for (const [email, role] of [
    [joiner, /^Admin/],
    [dropped, /^Staff/],
  ] as const) {
    await page.getByRole("textbox", { name: "E-mail" }).fill(email);
    await page.getByRole("radio", { name: role }).check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  }
  // cancelling asks first (a disclosure, no script needed)
  const row = page
    .getByRole("region", { name: "Pending invitations" })
    .getByRole("row", { name: new RegExp(dropped) });
  await row.locator("summary", { hasText: "Cancel invitation" }).click();
  await expect(row.getByText(/The link in their e-mail stops working/)).toBeVisible();
  await expectNoA11yViolationsWithoutJs(page, "staff page, cancel question open");
  await row.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByText(`Invitation to ${dropped} cancelled`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending invitations" })).not.toContainText(dropped);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/");

  const linkTo = async (email: string) => {
    const text = (await mailTo(email, /invited/)).text;
    const url = new URL(/https?:\/\/\S+\/staff\/join\?token=\S+/.exec(text)![0]);
    return url.pathname + url.search;
  };
  // the cancelled invitation's link says so and offers no form
  await visit(page, await linkTo(dropped), { javaScript: false });
  await expect(page.getByRole("alert")).toContainText("This invitation link does not work");
  await expect(page.getByLabel(/^New Password/)).toHaveCount(0);

  // the other joins: a mismatch is said beside the field, then the password is taken
  await visit(page, await linkTo(joiner), { javaScript: false });
  await expect(page.getByText(/You are invited to join Cartwheel's staff as Admin/)).toBeVisible();
  await page.getByLabel(/^New Password/).fill("joined without js 1");
  await page.getByLabel(/^Confirm New Password/).fill("joined without js 2");
  await page.getByRole("button", { name: "Join the staff" }).click();
  await expect(page.getByText("The two passwords do not match.")).toBeVisible();
  await expectNoA11yViolationsWithoutJs(page, "join page with a refused password");
  await page.getByLabel(/^New Password/).fill("joined without js 1");
  await page.getByLabel(/^Confirm New Password/).fill("joined without js 1");
  await page.getByRole("button", { name: "Join the staff" }).click();
  await expect(
    page.getByText("You have joined the staff. Please sign in with your new password."),
  ).toBeVisible();
  await signIn(page, joiner, "joined without js 1");
  await page.waitForURL((url) => url.pathname === "/admin");
  await expect(page.getByText(`Signed in as ${joiner} (Admin)`)).toBeVisible();
});

test("a packing slip lists what goes in the parcel, without prices; the admin frame at 390 px", async ({
  page,
}) => {
  const mug = await createTestProduct("Slip Mug", { priceCents: 1_200, stock: 20 });
  products.push(mug);
  const first = await insertTestOrder(mug, { quantity: 3 });
  const second = await insertTestOrder(mug, { quantity: 1 });
  await signInTo(page, "/admin/orders", OWNER);
  await waitForHydration(page);
  await page.getByRole("checkbox", { name: `Select ${first}` }).check();
  await page.getByRole("checkbox", { name: `Select ${second}` }).check();
  await page.getByRole("button", { name: "Packing slips for the selected orders" }).click();
  await page.waitForURL(/\/admin\/orders\/packing-slips\?/);
  const slips = page.getByRole("article");
  await expect(slips).toHaveCount(2);
  const slip = slips.filter({ hasText: `Packing slip — order ${first}` });
  await expect(
    slip
      .getByRole("row", { name: /Slip Mug/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("3");
  await expect(slips.filter({ hasText: `Packing slip — order ${second}` })).toHaveCount(1);
  await expect(slips.first()).not.toContainText("$");
  await expectNoA11yViolations(page, "packing slips");

  // the same selection, marked as shipped in one go
  await visit(page, "/admin/orders");
  await page.getByRole("checkbox", { name: `Select ${first}` }).check();
  await page.getByRole("checkbox", { name: `Select ${second}` }).check();
  await page.getByRole("button", { name: "Mark the selected orders as shipped" }).click();
  await expect(toast(page, "2 orders marked as shipped")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(first) })).toContainText("Shipped");

  await page.setViewportSize({ width: 390, height: 844 });
  await visit(page, "/admin/staff");
  const menu = page.getByText(/^Menu/);
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(
    page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Orders" }),
  ).toBeVisible();
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  await expectNoA11yViolations(page, "staff page at 390 px");
});

test("axe finds nothing on any admin page at desktop width", async ({ page }) => {
  test.setTimeout(180_000);
  const lamp = await createTestProduct("Axe Admin Lamp", { priceCents: 2_000, stock: 4 });
  products.push(lamp);
  const number = await insertTestOrder(lamp);
  const zone = await shopDatabase().selectFrom("zones").select("id").orderBy("id").executeTakeFirstOrThrow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInTo(page, "/admin", OWNER);
  // one sidebar, always open at this width: exactly one link is the current page
  for (const [path, current] of [
    ["/admin/products/new", "Add Product"],
    ["/admin/products/import", "Import / Export"],
    ["/admin/orders", "Orders"],
  ] as const) {
    await visit(page, path);
    const marked = page.locator('[aria-current="page"]');
    await expect(marked).toHaveCount(1);
    await expect(marked).toHaveText(current);
    await expect(marked).toBeVisible();
  }
  for (const path of [
    "/admin",
    "/admin/dashboard",
    "/admin/products/new",
    `/admin/products/${lamp.id}`,
    `/admin/products/${lamp.id}/delete`,
    `/admin/products/${lamp.id}/stock`,
    "/admin/products/import",
    "/admin/low-stock",
    "/admin/orders",
    `/admin/orders/${number}`,
    `/admin/orders/packing-slips?number=${number}`,
    "/admin/returns",
    "/admin/promotions?with=code",
    "/admin/promotions/new?type=order-percent&coupon=1",
    "/admin/reviews",
    "/admin/staff",
    "/admin/settings",
    "/admin/settings/zones",
    "/admin/settings/zones/new",
    `/admin/settings/zones/${zone.id}`,
    "/admin/backups",
    "/admin/customers",
    "/admin/customer-groups",
    "/admin/audit",
  ]) {
    await visit(page, path);
  }
  // a customer's page, with an order
  const email = uniqueEmail("axe-customer");
  const now = new Date().toISOString();
  const id = `e2e-${uniqueTag()}`;
  await shopDatabase()
    .insertInto("users")
    .values({
      id,
      name: "Axe Customer",
      email,
      emailVerified: 0,
      image: null,
      createdAt: now,
      updatedAt: now,
      role: "customer",
      disabledAt: null,
    })
    .execute();
  await insertTestOrder(lamp, { email, userId: id });
  await visit(page, `/admin/customers?search=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { name: "Account" })).toBeVisible();
  await expectNoA11yViolations(page, "customer page");
});

test("the dashboard shows the sales just made, compared with the period before; a bad range is refused beside the form", async ({
  page,
}) => {
  const kettle = await createTestProduct("Dashboard Kettle", { priceCents: 1_000, stock: 50 });
  products.push(kettle);
  await signInTo(page, "/admin/dashboard", OWNER);
  await visit(page, "/admin/dashboard?period=today");
  const figure = (label: string) =>
    page
      .locator("dl > div")
      .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}`) }) })
      .locator("dd")
      .first();
  const read = async (label: string) => Number((await figure(label).textContent())!.replace(/[^0-9.]/g, ""));
  const before = {
    orders: await read("Orders"),
    revenue: await read("Revenue"),
    units: await read("Units sold"),
  };

  await insertTestOrder(kettle, { quantity: 3, unitPriceCents: 1_000 });
  await visit(page, "/admin/dashboard?period=today");
  expect(await read("Orders")).toBe(before.orders + 1);
  expect(await read("Revenue")).toBeCloseTo(before.revenue + 30, 2);
  expect(await read("Units sold")).toBe(before.units + 3);
  await expect(
    page
      .getByRole("region", { name: "Top products" })
      .or(page.locator("section", { has: page.getByRole("heading", { name: "Top products" }) })),
  ).toContainText(kettle.name);
  await expect(page.getByRole("img", { name: /Revenue per day, 1 day/ })).toBeVisible();
  await page.getByText("Show the figures as a table").click();
  await expect(page.getByRole("table", { name: "Revenue and orders per day" })).toBeVisible();

  await page.getByLabel("From", { exact: true }).fill("2026-11-30");
  await page.getByLabel("To", { exact: true }).fill("2026-11-01");
  await page.getByRole("button", { name: "Show range" }).click();
  await expect(page.getByText(/Choose a start and an end date, at most 366 days apart/)).toBeVisible();
  await expectNoA11yViolations(page, "dashboard with a refused range");
});

test("products: filter by stock, set the stock of a selection, archive it and put it back on sale", async ({
  page,
}) => {
  const tag = uniqueTag();
  const a = await createTestProduct(`Bulk Lamp ${tag}`, { priceCents: 1_000, stock: 0 });
  const b = await createTestProduct(`Bulk Mug ${tag}`, { priceCents: 1_000, stock: 40 });
  products.push(a, b);
  await signInTo(page, "/admin", OWNER);
  // the Price column sorts the list, cheapest first, then dearest
  await visit(page, `/admin?search=${tag}`);
  const price = page.getByRole("columnheader", { name: /^Price/ });
  await expect(price).toHaveAttribute("aria-sort", "none");
  await price.getByRole("link").click();
  await expect(page).toHaveURL(/sort=price-asc/);
  await expect(page.getByRole("columnheader", { name: /^Price/ })).toHaveAttribute("aria-sort", "ascending");
  await page
    .getByRole("columnheader", { name: /^Price/ })
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(page.getByRole("columnheader", { name: /^Price/ })).toHaveAttribute("aria-sort", "descending");

  await visit(page, `/admin?search=${tag}&stock=out`);
  await expect(page.getByRole("link", { name: a.name, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: b.name, exact: true })).toHaveCount(0);

  // restock the sold-out lamp from the list: it leaves the "out of stock" filter
  await page.getByRole("checkbox", { name: `Select ${a.name}` }).check();
  await page.getByLabel("Stock for the selected products").fill("12");
  await page.getByRole("button", { name: "Set stock", exact: true }).click();
  await expect(toast(page, "Stock set to 12 for 1 product")).toBeVisible();
  await expect(page.getByRole("link", { name: a.name, exact: true })).toHaveCount(0);
  await visit(page, `/admin?search=${tag}&stock=in`);
  await expect(page.getByRole("link", { name: a.name, exact: true })).toBeVisible();

  await visit(page, `/admin?search=${tag}`);
  await page.getByRole("checkbox", { name: `Select ${a.name}` }).check();
  await page.getByRole("checkbox", { name: `Select ${b.name}` }).check();
  await page.getByRole("button", { name: "Archive the selected products" }).click();
  await expect(toast(page, "2 products archived")).toBeVisible();
  await expect(page.getByText("No products found.")).toBeVisible();

  await visit(page, `/admin?search=${tag}&show=archived`);
  await page.getByRole("checkbox", { name: `Select ${a.name}` }).check();
  await page.getByRole("button", { name: "Put the selected products back on sale" }).click();
  await expect(toast(page, "1 product back on sale")).toBeVisible();
  await visit(page, `/admin?search=${tag}`);
  await expect(page.getByRole("link", { name: a.name, exact: true })).toBeVisible();
});

test("the owner's settings change the shop's currency and legal details at once; a wrong value is refused beside its field", async ({
  page,
  noJsPage,
  browserErrors,
}) => {
  test.setTimeout(120_000);
  // the refused form is answered 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const lamp = await createTestProduct("Settings Lamp", { priceCents: 4_000, stock: 20 });
  products.push(lamp);
  try {
    // a shopper's cart of $40: below the $50 threshold, so $4.99 shipping and 7 % tax
    await visit(page, `/products/${lamp.slug}`);
    await expect(page.getByText("On orders over $50")).toBeVisible();
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `${lamp.name} added to cart!`)).toBeVisible();
    await visit(page, "/cart");
    await expect(page.getByTestId("summary-shipping")).toHaveText("$4.99");
    await expect(page.getByTestId("summary-tax")).toHaveText("$2.80");
    await expect(page.getByTestId("summary-total")).toHaveText("$47.79");

    // the owner, without JavaScript: a legal name too long is refused beside its field, then saved
    // (tax and shipping are the zones': zones.spec.ts)
    await noJsPage.goto("/account?redirectTo=%2Fadmin%2Fsettings");
    await signIn(noJsPage, OWNER.email, OWNER.password);
    await noJsPage.waitForURL((url) => url.pathname === "/admin/settings");
    await expect(noJsPage.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await noJsPage.getByLabel("Legal name").fill("L".repeat(121));
    await noJsPage.getByRole("button", { name: "Save settings" }).click();
    await expect(
      noJsPage.getByText(/Enter the business's legal name in at most 120 characters/),
    ).toBeVisible();
    await expect(noJsPage.getByLabel("Legal name")).toHaveAttribute("aria-invalid", "true");
    await noJsPage.getByLabel("Legal name").fill("Cartwheel Trading Ltd");
    await noJsPage.getByLabel("Tax ID").fill("GB123456789");
    await noJsPage.getByLabel("Currency").selectOption("EUR");
    await noJsPage.getByRole("button", { name: "Save settings" }).click();
    await expect(noJsPage.getByText("Settings saved")).toBeVisible();
    await expect(noJsPage.getByLabel("Legal name")).toHaveValue("Cartwheel Trading Ltd");

    // the shopper's next page follows: the same prices and tax, in euros
    await visit(page, "/cart");
    await expect(page.getByTestId("summary-shipping")).toHaveText("4,99\u00a0€");
    await expect(page.getByTestId("summary-tax")).toHaveText("2,80\u00a0€");
    await expect(page.getByTestId("summary-total")).toHaveText("47,79\u00a0€");
    await visit(page, `/products/${lamp.slug}`);
    await expect(page.getByText("On orders over 50\u00a0€")).toBeVisible();

    // the change is in the audit log, with its time
    await visit(noJsPage, "/admin/audit", { javaScript: false });
    await expect(noJsPage.getByText(/Changed .*currency/).first()).toBeVisible();
  } finally {
    // the worker's shop goes back to the defaults for the tests after this one
    await shopDatabase().deleteFrom("shopSettings").execute();
  }
});
