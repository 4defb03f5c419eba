import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import * as adminIndex from "../../app/routes/admin._index.tsx";
import * as adminAudit from "../../app/routes/admin.audit.tsx";
import * as adminDashboard from "../../app/routes/admin.dashboard.tsx";
import * as adminLowStock from "../../app/routes/admin.low-stock.tsx";
import * as adminOrders from "../../app/routes/admin.orders._index.tsx";
import * as adminOrder from "../../app/routes/admin.orders.$number.tsx";
import * as adminProduct from "../../app/routes/admin.products.$id.tsx";
import * as adminProductDelete from "../../app/routes/admin.products.$id_.delete.tsx";
import * as adminProductsExport from "../../app/routes/admin.products.export[.csv].tsx";
import * as adminProductsImport from "../../app/routes/admin.products.import.tsx";
import * as adminProductNew from "../../app/routes/admin.products.new.tsx";
import * as admin from "../../app/routes/admin.tsx";
import * as adminProductsMoved from "../../app/routes/admin_.products._index.tsx";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";
import { insertImage, insertProduct } from "../helpers/catalog.ts";
import { callRoute, routeStatus } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/** The form error of a refused admin form (its Conform submission result). */
const refusalMessage = (data: unknown) =>
  (data as { result?: { error?: Record<string, string[]> } }).result?.error?.[""]?.[0];

/**
 * Every admin route's loader and action called as the server calls them: anonymous → redirect
 * to sign in (and back), a customer → 403, never data; an admin gets through.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
let customerCookie = "";
let adminCookie = "";
let productId = 0;
let orderNumber = "";

type RouteModule = { loader?: (args: never) => unknown; action?: (args: never) => unknown };
const modules: Record<string, RouteModule> = {
  "/admin": admin,
  "/admin/": adminIndex,
  "/admin/dashboard": adminDashboard,
  "/admin/products/new": adminProductNew,
  "/admin/products/:id": adminProduct,
  "/admin/products/:id/delete": adminProductDelete,
  "/admin/orders": adminOrders,
  "/admin/orders/:number": adminOrder,
  "/admin/low-stock": adminLowStock,
  "/admin/audit": adminAudit,
  "/admin/products/import": adminProductsImport,
  "/admin/products/export.csv": adminProductsExport,
};

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
  const auth = shop.services.auth;
  for (const role of ["customer", "admin"] as const) {
    const email = `${role}@example.com`;
    await createOrUpdateUser({ auth, db }, { email, password: "correct horse", role });
    const { headers } = await auth.api.signInEmail({
      body: { email, password: "correct horse" },
      returnHeaders: true,
    });
    if (role === "admin") adminCookie = cookieHeader(headers);
    else customerCookie = cookieHeader(headers);
  }
});

/**
 * Each test gets its own product (with an image) and paid order, and an empty audit log: the tests
 * that delete the product or cancel the order change only their own rows, in any order.
 */
beforeEach(async () => {
  await db.deleteFrom("auditLog").execute();
  productId = await insertProduct(db, { name: "Guarded Product", stock: 4 });
  await insertImage(db, productId, 0);
  orderNumber = await insertOrder(db, { userId: null, createdAt: "2026-11-20T10:00:00.000Z" });
});

afterAll(async () => {
  await shop?.destroy();
});

function pathOf(pattern: string) {
  return pattern.replace(":id", String(productId)).replace(":number", orderNumber).replace(/\/$/, "");
}

async function call(pattern: string, kind: "loader" | "action", cookie: string) {
  const module = modules[pattern]!;
  return routeStatus(module, kind, `${ORIGIN}${pathOf(pattern)}`, {
    cookie,
    fields: kind === "action" ? { intent: "delete", to: "cancelled", confirm: "yes" } : undefined,
    params: { id: String(productId), number: orderNumber },
    context: shop.context(),
  });
}

describe("admin routes", () => {
  const patterns = Object.keys(modules);

  it.each(patterns)(
    "%s: an anonymous visitor is sent to sign in (loader and action), never data",
    async (pattern) => {
      for (const kind of ["loader", "action"] as const) {
        const outcome = await call(pattern, kind, "");
        if (outcome === null) continue;
        expect(outcome.status, `${kind} of ${pattern}`).toBe(302);
        expect(outcome.location).toBe(
          `/account?redirectTo=${encodeURIComponent(pathOf(pattern) || "/admin")}`,
        );
      }
    },
  );

  it.each(patterns)("%s: a customer gets 403 (loader and action), never data", async (pattern) => {
    for (const kind of ["loader", "action"] as const) {
      const outcome = await call(pattern, kind, customerCookie);
      if (outcome === null) continue;
      expect(outcome, `${kind} of ${pattern}`).toMatchObject({ status: 403, thrown: true });
    }
    // nothing changed behind the refusal
    const product = await db
      .selectFrom("products")
      .select(["archivedAt"])
      .where("id", "=", productId)
      .executeTakeFirst();
    expect(product?.archivedAt).toBeNull();
    const order = await db
      .selectFrom("orders")
      .select("status")
      .where("number", "=", orderNumber)
      .executeTakeFirst();
    expect(order?.status).toBe("paid");
  });

  it("an admin reaches every page", async () => {
    for (const pattern of patterns) {
      const outcome = await call(pattern, "loader", adminCookie);
      if (outcome === null) continue;
      expect(outcome, pattern).toMatchObject({ status: 200 });
    }
  });

  it("an admin's delete that was not confirmed lands on the question and deletes nothing", async () => {
    const module = modules["/admin/products/:id/delete"]!;
    const outcome = await routeStatus(module, "action", `${ORIGIN}${pathOf("/admin/products/:id/delete")}`, {
      cookie: adminCookie,
      fields: { intent: "delete" },
      params: { id: String(productId) },
      context: shop.context(),
    });
    expect(outcome).toMatchObject({ status: 303, location: `/admin/products/${productId}/delete` });
    const row = await db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
    expect(row).toBeDefined();
  });

  it("an admin's delete answers with the spec's toast and removes the product from the shop", async () => {
    const outcome = await call("/admin/products/:id/delete", "action", adminCookie);
    expect(outcome).toMatchObject({ status: 302, location: "/admin" });
    const row = await db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
    expect(row).toBeUndefined();
    const audit = await db.selectFrom("auditLog").select(["action", "actorEmail"]).execute();
    expect(audit).toEqual([{ action: "product.delete", actorEmail: "admin@example.com" }]);
  });
});

describe("cancelling an order (restores stock, cannot be undone)", () => {
  const cancel = async (fields: Record<string, string>) => {
    const module = modules["/admin/orders/:number"]!;
    return callRoute(module, "action", `${ORIGIN}/admin/orders/${orderNumber}`, {
      cookie: adminCookie,
      fields,
      params: { number: orderNumber },
      context: shop.context(),
    });
  };
  const status = async () =>
    (
      await db
        .selectFrom("orders")
        .select("status")
        .where("number", "=", orderNumber)
        .executeTakeFirstOrThrow()
    ).status;

  it("is refused with 400 without the confirm step's field; the order stays paid", async () => {
    for (const fields of [
      { intent: "move", to: "cancelled" } as Record<string, string>,
      { intent: "move", to: "cancelled", confirm: "" },
      { intent: "move", to: "cancelled", confirm: "no" },
    ]) {
      const answer = await cancel(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(refusalMessage(answer.data)).toEqual(
        "The order was not cancelled: confirm with “Yes, cancel order” to cancel it.",
      );
    }
    expect(await status()).toBe("paid");
  });

  it("goes through from the confirm step", async () => {
    const answer = await cancel({ intent: "move", to: "cancelled", confirm: "yes" });
    expect(answer.response?.status).toBe(302);
    expect(answer.response?.headers.get("Location")).toBe(`/admin/orders/${orderNumber}`);
    expect(await status()).toBe("cancelled");
  });
});

describe("/admin/products, moved to /admin", () => {
  it("answers a permanent redirect to /admin with the query kept, for anyone (/admin checks who asks)", async () => {
    const module = adminProductsMoved;
    for (const cookie of ["", customerCookie, adminCookie]) {
      expect(
        await routeStatus(module, "loader", `${ORIGIN}/admin/products`, { cookie, context: shop.context() }),
      ).toEqual({
        status: 308,
        location: "/admin",
      });
      expect(
        await routeStatus(module, "loader", `${ORIGIN}/admin/products?search=desk+lamp&page=2`, {
          cookie,
          context: shop.context(),
        }),
      ).toEqual({ status: 308, location: "/admin?search=desk+lamp&page=2" });
    }
    // a padded query is not copied into the Location header
    expect(
      await routeStatus(module, "loader", `${ORIGIN}/admin/products?search=${"a".repeat(8_000)}`, {
        context: shop.context(),
      }),
    ).toEqual({ status: 308, location: "/admin" });
  });

  it("the product list itself is /admin: an admin gets the products with their stock", async () => {
    await insertProduct(db, { name: "Listed Lantern", stock: 7 });
    const answer = await callRoute(adminIndex, "loader", `${ORIGIN}/admin?search=lantern`, {
      cookie: adminCookie,
      context: shop.context(),
    });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      search: "lantern",
      total: 1,
      products: [expect.objectContaining({ name: "Listed Lantern", stock: 7 })],
    });
  });
});

describe("admin products CSV (routes)", () => {
  const HEADER =
    "id,slug,name,description,brand,category,subcategory,price,originalPrice,stock,featured,newArrival,bestSeller,specifications";

  async function importCsv(csv: string | Uint8Array<ArrayBuffer>, cookie = adminCookie) {
    const { action } = adminProductsImport;
    const form = new FormData();
    form.append("file", new Blob([csv], { type: "text/csv" }), "products.csv");
    const request = new Request(`${ORIGIN}/admin/products/import`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: form,
    });
    try {
      type Refused = {
        result: { error: Record<string, string[]> };
        problems: unknown[];
      };
      const result = (await action({
        request,
        params: {},
        context: shop.context(),
      } as never)) as
        | { type: "DataWithResponseInit"; data: Refused; init: { status: number } }
        | { imported: string };
      // what the page shows: the message above the form (the file field's repeats it) and the problems
      if ("init" in result) {
        const { error } = result.data.result;
        expect(error.file).toEqual(error[""]);
        return {
          status: result.init.status,
          type: "error",
          message: error[""]![0]!,
          problems: result.data.problems,
        };
      }
      return { status: 200, type: "success", message: result.imported, problems: [] };
    } catch (thrown) {
      const value = thrown as { init?: { status?: number }; status?: number };
      return { status: value.init?.status ?? value.status, type: "thrown", message: "", problems: [] };
    }
  }

  it("an admin imports a CSV: products are created, counted and audited", async () => {
    const csv = `${HEADER}\n,csv-lamp-one,CSV Lamp One,A lamp from a file.,Lumen,electronics,audio,19.99,,7,false,true,false,{}\n`;
    const outcome = await importCsv(csv);
    expect(outcome).toMatchObject({
      status: 200,
      type: "success",
      message: "Import complete: 1 created, 0 updated, 0 unchanged.",
    });
    const row = await db
      .selectFrom("products")
      .select(["name", "priceCents", "stock"])
      .where("slug", "=", "csv-lamp-one")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "CSV Lamp One", priceCents: 1999, stock: 7 });
    const audit = await db
      .selectFrom("auditLog")
      .select(["actorEmail", "summary"])
      .where("action", "=", "product.import")
      .execute();
    expect(audit).toEqual([
      { actorEmail: "admin@example.com", summary: "Imported products.csv: 1 created, 0 updated" },
    ]);
  });

  it("a CSV with a bad row imports nothing and lists each problem with its line", async () => {
    const csv = `${HEADER}\n,csv-good-row,Good Row,Fine.,Lumen,electronics,audio,5,,1,false,false,false,{}\n,csv-bad-row,,Missing name.,Lumen,nowhere,,-3,,1,false,false,false,{}\n`;
    const outcome = await importCsv(csv);
    expect(outcome.status).toBe(400);
    expect(outcome.message).toMatch(/^Nothing was imported: \d+ problems? in the file\.$/);
    expect(outcome.problems.length).toBeGreaterThan(0);
    for (const problem of outcome.problems as { line: number }[]) expect(problem.line).toBe(3);
    const rows = await db
      .selectFrom("products")
      .select("id")
      .where("slug", "in", ["csv-good-row", "csv-bad-row"])
      .execute();
    expect(rows).toEqual([]);
  });

  it("no file, a binary file and a file over 5 MB get clear 4xx answers", async () => {
    expect(await importCsv("")).toMatchObject({
      status: 400,
      message: "Please choose a CSV file to import.",
    });
    expect(await importCsv(new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28]))).toMatchObject({
      status: 400,
      message: "The file is not a UTF-8 text (CSV) file.",
    });
    const big = new Uint8Array(5 * 1024 * 1024 + 10).fill(0x61);
    expect(await importCsv(big)).toMatchObject({
      status: 413,
      message: "The file is too large: at most 5 MB.",
    });
  });

  it("a customer's import is refused with 403 and changes nothing", async () => {
    const csv = `${HEADER}\n,csv-customer-row,Customer Row,No.,Lumen,electronics,audio,5,,1,false,false,false,{}\n`;
    expect((await importCsv(csv, customerCookie)).status).toBe(403);
    const rows = await db
      .selectFrom("products")
      .select("id")
      .where("slug", "=", "csv-customer-row")
      .execute();
    expect(rows).toEqual([]);
  });

  it("the export is a CSV download with every live product", async () => {
    await insertProduct(db, { slug: "csv-export-lamp", name: "CSV Export Lamp" });
    const { loader } = adminProductsExport;
    const request = new Request(`${ORIGIN}/admin/products/export.csv`, { headers: { Cookie: adminCookie } });
    const response = (await loader({
      request,
      params: {},
      context: shop.context(),
    } as never)) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await response.text();
    // one row per variant: the product columns (the tax class last), then the option and variant columns
    expect(text.split("\n")[0]).toBe(
      `${HEADER},taxClass,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,sku,variant_price,variant_original_price,variant_stock,barcode,variant_weight_kg,currency`,
    );
    expect(text).toContain("csv-export-lamp");
  });
});

describe("refunding an order from its admin page", () => {
  const post = async (fields: Record<string, string>, cookie = adminCookie) => {
    const number = await insertOrder(db, { userId: null, createdAt: new Date().toISOString() });
    const module = modules["/admin/orders/:number"]!;
    const answer = await callRoute(module, "action", `${ORIGIN}/admin/orders/${number}`, {
      cookie,
      fields: { intent: "refund", key: randomUUID(), ...fields },
      params: { number },
      context: shop.context(),
    });
    const order = await db
      .selectFrom("orders")
      .select(["status", "refundedCents"])
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    return { answer, order, number };
  };

  it("refunds an amount and says so", async () => {
    const { answer, order, number } = await post({ amount: "5.00", reason: "Late" });
    expect(answer.response?.status).toBe(302);
    expect(answer.response?.headers.get("Location")).toBe(`/admin/orders/${number}`);
    expect(order).toEqual({ status: "partially_refunded", refundedCents: 500 });
  });

  it.each([
    [{ amount: "5,00" }, "Enter an amount such as 12.50."],
    [{ amount: "" }, "Choose the lines to refund, or an amount."],
    [{ amount: "99999" }, "At most $38.00 can be refunded."],
    [{ key: "not-a-key", amount: "1" }, "Unknown order action."],
  ])("refuses %j with 400 and a message, refunding nothing", async (fields, message) => {
    const { answer, order } = await post(fields as Record<string, string>);
    expect(answer.status).toBe(400);
    expect(refusalMessage(answer.data)).toBe(message);
    expect(order).toEqual({ status: "paid", refundedCents: 0 });
  });

  it("is not for customers", async () => {
    const { answer, order } = await post({ amount: "1.00" }, customerCookie);
    expect(answer.response?.status ?? answer.status).not.toBe(302);
    expect(order).toEqual({ status: "paid", refundedCents: 0 });
  });
});
