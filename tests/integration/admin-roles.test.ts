import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SECTIONS, sectionsFor } from "../../app/components/admin/admin-nav.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { can, type Permission, ROLES, type Role } from "../../app/lib/staff-roles.ts";
import * as adminIndex from "../../app/routes/admin._index.tsx";
import * as adminApiKeys from "../../app/routes/admin.api-keys.tsx";
import * as adminAudit from "../../app/routes/admin.audit.tsx";
import * as adminBackups from "../../app/routes/admin.backups.tsx";
import * as adminBackupDownload from "../../app/routes/admin.backups_.$name.tsx";
import * as adminCoupons from "../../app/routes/admin.coupons._index.tsx";
import * as adminCoupon from "../../app/routes/admin.coupons.$id.tsx";
import * as adminCouponNew from "../../app/routes/admin.coupons.new.tsx";
import * as adminCustomerGroups from "../../app/routes/admin.customer-groups._index.tsx";
import * as adminCustomerGroup from "../../app/routes/admin.customer-groups.$id.tsx";
import * as adminCustomerGroupImport from "../../app/routes/admin.customer-groups.$id_.import.tsx";
import * as adminCustomerGroupPrices from "../../app/routes/admin.customer-groups.$id_.prices.tsx";
import * as adminCustomerGroupPricesImport from "../../app/routes/admin.customer-groups.$id_.prices_.import.tsx";
import * as adminCustomers from "../../app/routes/admin.customers._index.tsx";
import * as adminCustomer from "../../app/routes/admin.customers.$id.tsx";
import * as adminDashboard from "../../app/routes/admin.dashboard.tsx";
import * as adminGiftCards from "../../app/routes/admin.gift-cards._index.tsx";
import * as adminGiftCard from "../../app/routes/admin.gift-cards.$id.tsx";
import * as adminGiftCardNew from "../../app/routes/admin.gift-cards.new.tsx";
import * as adminLowStock from "../../app/routes/admin.low-stock.tsx";
import * as adminOrders from "../../app/routes/admin.orders._index.tsx";
import * as adminOrder from "../../app/routes/admin.orders.$number.tsx";
import * as adminOrderInvoice from "../../app/routes/admin.orders.invoices.$document.tsx";
import * as adminPackingSlips from "../../app/routes/admin.orders.packing-slips.tsx";
import * as adminProduct from "../../app/routes/admin.products.$id.tsx";
import * as adminProductDelete from "../../app/routes/admin.products.$id_.delete.tsx";
import * as adminProductStock from "../../app/routes/admin.products.$id_.stock.tsx";
import * as adminProductsExport from "../../app/routes/admin.products.export[.csv].tsx";
import * as adminProductsImport from "../../app/routes/admin.products.import.tsx";
import * as adminProductNew from "../../app/routes/admin.products.new.tsx";
import * as adminPromotions from "../../app/routes/admin.promotions._index.tsx";
import * as adminPromotion from "../../app/routes/admin.promotions.$id.tsx";
import * as adminPromotionCodes from "../../app/routes/admin.promotions.$id_.codes[.csv].tsx";
import * as adminPromotionNew from "../../app/routes/admin.promotions.new.tsx";
import * as adminPromotionsSimulate from "../../app/routes/admin.promotions.simulate.tsx";
import * as adminReturns from "../../app/routes/admin.returns._index.tsx";
import * as adminReturn from "../../app/routes/admin.returns.$number.tsx";
import * as adminReviews from "../../app/routes/admin.reviews.tsx";
import * as adminSearches from "../../app/routes/admin.searches.tsx";
import * as adminSettings from "../../app/routes/admin.settings.tsx";
import * as adminZones from "../../app/routes/admin.settings_.zones._index.tsx";
import * as adminZone from "../../app/routes/admin.settings_.zones.$id.tsx";
import * as adminZoneNew from "../../app/routes/admin.settings_.zones.new.tsx";
import * as adminStaff from "../../app/routes/admin.staff.tsx";
import * as admin from "../../app/routes/admin.tsx";
import * as adminWebhooks from "../../app/routes/admin.webhooks.tsx";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { callRoute, type RouteModule, routeStatus } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Every admin route × every role, loader and action, called as the server calls them: a role
 * without the permission the route needs gets 403 before anything is read or changed; a role with
 * it gets past the check (its answer may still be a 400 or a 404 for the made-up input). The table
 * names the permission of each route file; a route file that is not in it fails the test, so a new
 * admin page cannot be added without saying who may open it.
 */
/** a permission, or "any-staff": any of the staff roles (the admin frame) */
type Access = Permission | "any-staff";
interface RouteAccess {
  module: RouteModule;
  path: string;
  loader?: Access;
  /** the action's permission for each posted form (the first is the one most forms post) */
  actions?: { fields: Record<string, string>; needs: Access }[];
}

const post = (needs: Access, fields: Record<string, string> = { intent: "role-walk" }) => ({ fields, needs });

const ROUTES: Record<string, RouteAccess> = {
  "admin.tsx": { module: admin, path: "/admin", loader: "any-staff" },
  "admin._index.tsx": {
    module: adminIndex,
    path: "/admin",
    loader: "products",
    actions: [post("products", { intent: "archive" })],
  },
  "admin.dashboard.tsx": { module: adminDashboard, path: "/admin/dashboard", loader: "reports" },
  "admin.low-stock.tsx": { module: adminLowStock, path: "/admin/low-stock", loader: "products" },
  "admin.searches.tsx": {
    module: adminSearches,
    path: "/admin/searches",
    loader: "products",
    // refused forms (one word; no such group), so no synonyms change
    actions: [
      post("products", { intent: "add-synonyms", words: "tee" }),
      post("products", { intent: "remove-synonyms", id: "999999" }),
    ],
  },
  "admin.audit.tsx": { module: adminAudit, path: "/admin/audit", loader: "audit" },
  "admin.products.new.tsx": {
    module: adminProductNew,
    path: "/admin/products/new",
    loader: "products",
    actions: [post("products")],
  },
  "admin.products.$id.tsx": {
    module: adminProduct,
    path: "/admin/products/:id",
    loader: "products",
    actions: [post("products")],
  },
  "admin.products.$id_.delete.tsx": {
    module: adminProductDelete,
    path: "/admin/products/:id/delete",
    loader: "products",
    actions: [post("products", { intent: "delete" })],
  },
  "admin.products.$id_.stock.tsx": {
    module: adminProductStock,
    path: "/admin/products/:id/stock",
    loader: "products",
  },
  "admin.products.import.tsx": {
    module: adminProductsImport,
    path: "/admin/products/import",
    loader: "products",
    actions: [post("products")],
  },
  "admin.products.export[.csv].tsx": {
    module: adminProductsExport,
    path: "/admin/products/export.csv",
    loader: "products",
  },
  "admin.orders._index.tsx": {
    module: adminOrders,
    path: "/admin/orders",
    loader: "orders",
    actions: [post("orders", { number: "CW-NOPE" })],
  },
  "admin.orders.packing-slips.tsx": {
    module: adminPackingSlips,
    path: "/admin/orders/packing-slips?number=CW-NOPE",
    loader: "orders",
  },
  "admin.orders.invoices.$document.tsx": {
    module: adminOrderInvoice,
    path: "/admin/orders/invoices/INV-000001",
    loader: "orders",
  },
  "admin.orders.$number.tsx": {
    module: adminOrder,
    path: "/admin/orders/:number",
    loader: "orders",
    actions: [
      post("orders", { intent: "move", to: "shipped" }),
      // well-formed, so the permission is what decides (an allowed role is then refused for the
      // content: nothing to refund, a cancellation not confirmed)
      post("refunds", { intent: "refund", key: "00000000-0000-4000-8000-000000000000", amount: "0.00" }),
      post("refunds", { intent: "move", to: "cancelled" }),
    ],
  },
  "admin.returns._index.tsx": { module: adminReturns, path: "/admin/returns", loader: "returns" },
  "admin.returns.$number.tsx": {
    module: adminReturn,
    path: "/admin/returns/RT-NOPE",
    loader: "returns",
    actions: [post("returns")],
  },
  "admin.coupons._index.tsx": {
    module: adminCoupons,
    path: "/admin/coupons",
    // a redirect to the promotions (coupons are promotions with a code): no action
    loader: "discounts",
  },
  "admin.coupons.new.tsx": {
    module: adminCouponNew,
    path: "/admin/coupons/new",
    // a redirect to the promotions (coupons are promotions with a code): no action
    loader: "discounts",
  },
  "admin.coupons.$id.tsx": {
    module: adminCoupon,
    path: "/admin/coupons/999999",
    // a redirect to the promotions (coupons are promotions with a code): no action
    loader: "discounts",
  },
  "admin.promotions._index.tsx": {
    module: adminPromotions,
    path: "/admin/promotions",
    loader: "discounts",
    // well-formed but refused (no name), so nothing is created for the roles allowed
    actions: [post("discounts", { campaignName: "", budget: "" })],
  },
  "admin.promotions.new.tsx": {
    module: adminPromotionNew,
    path: "/admin/promotions/new?type=order-percent",
    loader: "discounts",
    actions: [post("discounts", { actionType: "order-percent", name: "", percent: "10" })],
  },
  "admin.promotions.$id.tsx": {
    module: adminPromotion,
    path: "/admin/promotions/999999",
    loader: "discounts",
    actions: [post("discounts", { intent: "disable" })],
  },
  "admin.promotions.$id_.codes[.csv].tsx": {
    module: adminPromotionCodes,
    path: "/admin/promotions/999999/codes.csv",
    loader: "discounts",
  },
  "admin.promotions.simulate.tsx": {
    module: adminPromotionsSimulate,
    path: "/admin/promotions/simulate",
    loader: "discounts",
  },
  "admin.gift-cards._index.tsx": { module: adminGiftCards, path: "/admin/gift-cards", loader: "refunds" },
  "admin.gift-cards.new.tsx": {
    module: adminGiftCardNew,
    path: "/admin/gift-cards/new",
    loader: "refunds",
    // refused (no amount), so no card is issued for the roles allowed
    actions: [post("refunds", { key: "00000000-0000-4000-8000-000000000000", amount: "" })],
  },
  "admin.gift-cards.$id.tsx": {
    module: adminGiftCard,
    path: "/admin/gift-cards/999999",
    loader: "refunds",
    actions: [post("refunds", { intent: "disable" })],
  },
  "admin.customers._index.tsx": { module: adminCustomers, path: "/admin/customers", loader: "customers" },
  "admin.customer-groups._index.tsx": {
    module: adminCustomerGroups,
    path: "/admin/customer-groups",
    loader: "customers",
    // refused (no name), so no group is made for the roles allowed
    actions: [post("customers", { name: "" })],
  },
  "admin.customer-groups.$id.tsx": {
    module: adminCustomerGroup,
    path: "/admin/customer-groups/999999",
    loader: "customers",
    actions: [
      post("customers", { intent: "add", emails: "customer@roles.example" }),
      post("customers", { intent: "delete", confirm: "yes" }),
    ],
  },
  "admin.customer-groups.$id_.import.tsx": {
    module: adminCustomerGroupImport,
    path: "/admin/customer-groups/999999/import",
    loader: "customers",
    actions: [post("customers")],
  },
  "admin.customer-groups.$id_.prices.tsx": {
    module: adminCustomerGroupPrices,
    path: "/admin/customer-groups/999999/prices",
    loader: "customers",
    actions: [
      post("customers", { intent: "set", sku: "ROLE-WALK-NONE", price: "1" }),
      post("customers", { intent: "remove", variantId: "1" }),
    ],
  },
  "admin.customer-groups.$id_.prices_.import.tsx": {
    module: adminCustomerGroupPricesImport,
    path: "/admin/customer-groups/999999/prices/import",
    loader: "customers",
    actions: [post("customers")],
  },
  "admin.customers.$id.tsx": {
    module: adminCustomer,
    path: "/admin/customers/nobody",
    loader: "customers",
    actions: [post("customers", { intent: "enable" })],
  },
  "admin.staff.tsx": {
    module: adminStaff,
    path: "/admin/staff",
    loader: "staff",
    actions: [post("staff"), post("staff", { intent: "remove", userId: "nobody" })],
  },
  "admin.settings.tsx": {
    module: adminSettings,
    path: "/admin/settings",
    loader: "settings",
    actions: [post("settings", { shopName: "Taken over" })],
  },
  // refused forms (a rounding that does not exist, a zone without a name): nothing changes for the roles allowed
  "admin.settings_.zones._index.tsx": {
    module: adminZones,
    path: "/admin/settings/zones",
    loader: "settings",
    actions: [post("settings", { intent: "markets", taxRounding: "never", estimateCountry: "US" })],
  },
  "admin.settings_.zones.new.tsx": {
    module: adminZoneNew,
    path: "/admin/settings/zones/new",
    loader: "settings",
    actions: [post("settings", { name: "" })],
  },
  "admin.settings_.zones.$id.tsx": {
    module: adminZone,
    path: "/admin/settings/zones/999999",
    loader: "settings",
    actions: [post("settings", { intent: "save", name: "" })],
  },
  "admin.backups.tsx": {
    module: adminBackups,
    path: "/admin/backups",
    loader: "settings",
    // well-formed but refused (no such hour), so no backup starts for the roles allowed
    actions: [post("settings", { intent: "save", hour: "99", keep: "7" })],
  },
  "admin.backups_.$name.tsx": {
    module: adminBackupDownload,
    path: "/admin/backups/cartwheel-backup-2026-01-01T000000Z-000000.tar.gz",
    loader: "settings",
  },
  "admin.api-keys.tsx": {
    module: adminApiKeys,
    path: "/admin/api-keys",
    loader: "settings",
    // refused forms (no name; a revoke not confirmed), so no key is made or revoked for the owner
    actions: [
      post("settings", { intent: "create", name: "", kind: "secret", scopes: "orders:read" }),
      post("settings", { intent: "revoke", id: "1" }),
    ],
  },
  "admin.webhooks.tsx": {
    module: adminWebhooks,
    path: "/admin/webhooks",
    loader: "settings",
    // refused forms (no URL; no such endpoint or delivery), so nothing changes for the owner
    actions: [
      post("settings", { intent: "add", url: "", events: "order.paid" }),
      post("settings", { intent: "rotate", id: "999999" }),
      post("settings", { intent: "test", id: "999999" }),
      post("settings", { intent: "enable", id: "999999" }),
      post("settings", { intent: "resend", deliveryId: "999999" }),
    ],
  },
  "admin.reviews.tsx": {
    module: adminReviews,
    path: "/admin/reviews",
    loader: "reviews",
    actions: [post("reviews")],
  },
};

/** Route files under /admin that check nothing themselves (a redirect outside the admin frame). */
const NOT_GUARDED = new Set(["admin_.products._index.tsx"]);

/** Every spelling of a form the parser reads as the same fields: as written, and each name after a dot. */
const spellings = (fields: Record<string, string>): Record<string, string>[] => [
  fields,
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [`.${name}`, value])),
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name === "intent" ? name : `.${name}`, value]),
  ),
];

const allowed = (role: Role, needs: Access) =>
  needs === "any-staff" ? role !== "customer" : can(role, needs);

it("the table names every admin route file, and every route module has what the table says", () => {
  const files = readdirSync(new URL("../../app/routes/", import.meta.url)).filter(
    (file) => /^admin[._]/.test(file) && !NOT_GUARDED.has(file),
  );
  expect(Object.keys(ROUTES).sort()).toEqual(files.sort());
  for (const [file, route] of Object.entries(ROUTES)) {
    expect(Boolean(route.module.loader), `${file} loader`).toBe(Boolean(route.loader));
    expect(Boolean(route.module.action), `${file} action`).toBe(Boolean(route.actions));
  }
});

describe.each(["sqlite", "postgres"] as const)("every admin route × every role, on %s", (engine) => {
  let shop: TestShop;
  const cookies = {} as Record<Role, string>;
  let productId = 0;
  let orderNumber = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { db } = shop;
    const auth = shop.services.auth;
    for (const role of ROLES) {
      const email = `${role}@roles.example`;
      await createOrUpdateUser({ auth, db }, { email, password: "correct horse", role });
      const { headers } = await auth.api.signInEmail({
        body: { email, password: "correct horse" },
        returnHeaders: true,
      });
      cookies[role] = cookieHeader(headers);
    }
    productId = await insertProduct(db, { name: "Role Walk Product", stock: 4 });
    orderNumber = await insertOrder(db, { userId: null, createdAt: "2026-11-20T10:00:00.000Z" });
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const calls = Object.entries(ROUTES).flatMap(([file, route]) => [
    ...(route.loader
      ? [{ file, route, kind: "loader" as const, needs: route.loader, fields: undefined }]
      : []),
    // each form in every spelling the form parser reads as the same fields (`to` and `.to`)
    ...(route.actions ?? []).flatMap(({ fields, needs }) =>
      spellings(fields).map((spelled) => ({ file, route, kind: "action" as const, needs, fields: spelled })),
    ),
  ]);

  it.each(ROLES)("as %s: refused with 403 exactly where the role lacks the permission", async (role) => {
    for (const { file, route, kind, needs, fields } of calls) {
      const path = route.path.replace(":id", String(productId)).replace(":number", orderNumber);
      const outcome = await routeStatus(route.module, kind, `${TEST_ORIGIN}${path}`, {
        cookie: cookies[role],
        fields,
        params: {
          id: route.path.includes(":id") ? String(productId) : (path.split("/").pop() ?? ""),
          number: route.path.includes(":number") ? orderNumber : (path.split("/").pop() ?? ""),
        },
        context: shop.context(),
      });
      const what = `${role}: ${kind} of ${file} ${JSON.stringify(fields ?? {})} (needs ${needs})`;
      if (allowed(role, needs)) {
        expect(outcome?.status, what).not.toBe(403);
        expect(outcome?.location ?? "", what).not.toMatch(/^\/account/);
      } else {
        expect(outcome, what).toMatchObject({ status: 403, thrown: true });
      }
    }
    // nothing a refused call could have changed did change
    const order = await shop.db
      .selectFrom("orders")
      .select("status")
      .where("number", "=", orderNumber)
      .executeTakeFirstOrThrow();
    expect(["paid", "shipped"]).toContain(order.status);
    const refunds = await shop.db.selectFrom("orderRefunds").select("id").execute();
    expect(refunds).toEqual([]);
  });

  it("the sidebar lists what each role may open, and only that", async () => {
    const sidebar = async (role: Role) => {
      const answer = await callRoute(admin, "loader", `${TEST_ORIGIN}/admin`, {
        cookie: cookies[role],
        context: shop.context(),
      });
      const { permissions } = answer.data as unknown as { permissions: Permission[] };
      return sectionsFor(permissions).map((section) => section.label);
    };
    expect(await sidebar("staff")).toEqual([
      "Products",
      "Add Product",
      "Import / Export",
      "Low stock",
      "Searches",
      "Orders",
      "Reviews",
    ]);
    expect(await sidebar("admin")).toEqual([
      "Dashboard",
      "Products",
      "Add Product",
      "Import / Export",
      "Low stock",
      "Searches",
      "Orders",
      "Returns",
      "Customers",
      "Customer groups",
      "Promotions",
      "Gift cards",
      "Reviews",
      "Audit log",
    ]);
    expect(await sidebar("owner")).toEqual(ADMIN_SECTIONS.map((section) => section.label));
  });
});

/**
 * Issue 28, finding 1: a staff member cancelled and refunded a paid order by posting `.to=cancelled`
 * — the route decided the permission on the raw field `to` while the form parser (Conform) reads
 * `.to` as `to`. Permissions are now decided by the domain command on the parsed move, so every
 * spelling the parser accepts is refused alike. Each money-moving or role-changing form is sent
 * by every role, its fields spelled every way the parser reads as the same field, against a target
 * of its own: a role with the permission gets the change (so the spelling reaches the action), a
 * role without it gets 403 and nothing changes — no audit entry, no refund at the gateway, the
 * order as it was.
 */
describe.each(["sqlite", "postgres"] as const)("admin actions × roles × field spellings, on %s", (engine) => {
  let shop: TestShop;
  const cookies = {} as Record<Role, string>;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const auth = shop.services.auth;
    for (const role of ROLES) {
      const email = `${role}@spellings.example`;
      const created = await createOrUpdateUser(
        { auth, db: shop.db },
        { email, password: "correct horse", role },
      );
      if (!created.ok) throw new Error(`user ${role} not made`);
      const { headers } = await auth.api.signInEmail({
        body: { email, password: "correct horse" },
        returnHeaders: true,
      });
      cookies[role] = cookieHeader(headers);
    }
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  /** What a refused call must leave as it was. */
  const witness = async (orderNumber: string | null) => ({
    audit: Number(
      (
        await shop.db
          .selectFrom("auditLog")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    gatewayRefunds: Number(
      (
        await shop.db
          .selectFrom("testGatewayRefunds")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    order: orderNumber
      ? await shop.db
          .selectFrom("orders")
          .select(["status", "refundedCents", "refundPendingCents"])
          .where("number", "=", orderNumber)
          .executeTakeFirstOrThrow()
      : null,
  });

  const orderForm = async (form: "cancel" | "refund-lines" | "refund-amount" | "ship") => {
    const number = await insertOrder(shop.db, { userId: null, createdAt: new Date().toISOString() });
    const item = await shop.db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select("orderItems.id")
      .where("orders.number", "=", number)
      .orderBy("orderItems.id")
      .executeTakeFirstOrThrow();
    const fields: Record<string, string> =
      form === "cancel"
        ? { intent: "move", to: "cancelled", confirm: "yes" }
        : form === "ship"
          ? { intent: "move", to: "shipped" }
          : form === "refund-lines"
            ? { intent: "refund", key: crypto.randomUUID(), [`qty.${item.id}`]: "1" }
            : { intent: "refund", key: crypto.randomUUID(), amount: "5.00" };
    return { number, fields, needs: (form === "ship" ? "orders" : "refunds") as Permission };
  };

  for (const form of ["cancel", "refund-lines", "refund-amount", "ship"] as const) {
    it.each(ROLES.filter((role) => role !== "customer"))(`order page, ${form}: as %s`, async (role) => {
      const { fields: plain, needs } = await orderForm(form);
      for (const [index, fields] of spellings(plain).entries()) {
        // a fresh order for each spelling: an allowed change happens every time
        const { number } = await orderForm(form);
        const keyed = form.startsWith("refund")
          ? Object.fromEntries(
              Object.entries(fields).map(([name, value]) => [
                name,
                name.endsWith("key") ? crypto.randomUUID() : value,
              ]),
            )
          : fields;
        const qtyFixed = form === "refund-lines" ? await retargetLine(keyed, number) : keyed;
        const before = await witness(number);
        const outcome = await routeStatus(adminOrder, "action", `${TEST_ORIGIN}/admin/orders/${number}`, {
          cookie: cookies[role],
          fields: qtyFixed,
          params: { number },
          context: shop.context(),
        });
        const what = `${role}, spelling ${index}: ${JSON.stringify(qtyFixed)}`;
        const after = await witness(number);
        if (can(role, needs)) {
          expect(outcome, what).toMatchObject({ status: 302 });
          expect(after, what).not.toEqual(before);
        } else {
          expect(outcome, what).toMatchObject({ status: 403, thrown: true });
          expect(after, what).toEqual(before);
        }
      }
    });
  }

  /** The form's `qty.<line>` field made to name a line of this order (keeping its spelling). */
  async function retargetLine(fields: Record<string, string>, number: string) {
    const item = await shop.db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select("orderItems.id")
      .where("orders.number", "=", number)
      .orderBy("orderItems.id")
      .executeTakeFirstOrThrow();
    return Object.fromEntries(
      Object.entries(fields).map(([name, value]) =>
        /(^|\.)qty\./.test(name) ? [name.replace(/qty\.\d+$/, `qty.${item.id}`), value] : [name, value],
      ),
    );
  }

  it.each(ROLES.filter((role) => role !== "customer"))("staff page, a role change: as %s", async (role) => {
    for (const [index, fields] of spellings({ intent: "role", userId: "", role: "admin" }).entries()) {
      const email = `member-${role}-${index}@spellings.example`;
      const member = await createOrUpdateUser(
        { auth: shop.services.auth, db: shop.db },
        { email, password: "correct horse", role: "staff" },
      );
      if (!member.ok) throw new Error("member not made");
      const named = Object.fromEntries(
        Object.entries(fields).map(([name, value]) => [
          name,
          name.endsWith("userId") ? member.value.userId : value,
        ]),
      );
      const before = await witness(null);
      const outcome = await routeStatus(adminStaff, "action", `${TEST_ORIGIN}/admin/staff`, {
        cookie: cookies[role],
        fields: named,
        context: shop.context(),
      });
      const stored = await shop.db
        .selectFrom("users")
        .select("role")
        .where("id", "=", member.value.userId)
        .executeTakeFirstOrThrow();
      const what = `${role}, spelling ${index}: ${JSON.stringify(named)}`;
      if (can(role, "staff")) {
        expect(outcome, what).toMatchObject({ status: 302 });
        expect(stored.role, what).toBe("admin");
      } else {
        expect(outcome, what).toMatchObject({ status: 403, thrown: true });
        expect(stored.role, what).toBe("staff");
        expect(await witness(null), what).toEqual(before);
      }
    }
  });
});
