import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import { setProductsArchived } from "../../app/domain/catalog/admin/product-delete.server.ts";
import { listAdminProducts } from "../../app/domain/catalog/admin/product-list.server.ts";
import * as productsRoute from "../../app/routes/admin._index.tsx";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ADMIN_COOKIE, adminContext } from "../helpers/admin-route.ts";
import { insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";

/**
 * The admin's product list (issue 20): filters by category, stock state and archived, sorting,
 * and the bulk archive / back on sale and set stock through the route, audited; on each engine.
 */
describe.each(ENGINES)("the admin's product list on %s", (engine) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};
  const ACTOR = { id: "admin-list", email: "admin@example.com" };

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    ids.plenty = await insertProduct(t.db, { name: "Alpha Plenty", stock: 50, priceCents: 3_000 });
    ids.low = await insertProduct(t.db, { name: "Bravo Low", stock: 3, priceCents: 1_000 });
    ids.none = await insertProduct(t.db, { name: "Charlie None", stock: 0, priceCents: 2_000 });
  });

  afterAll(async () => {
    await t?.destroy();
  });

  const names = async (query: Parameters<typeof listAdminProducts>[1]) =>
    (await listAdminProducts(t.db, query)).products.map((p) => p.name);

  it("filters by stock state and category, and sorts", async () => {
    expect(await names({ stock: "in" })).toEqual(["Alpha Plenty"]);
    expect(await names({ stock: "low" })).toEqual(["Bravo Low"]);
    expect(await names({ stock: "out" })).toEqual(["Charlie None"]);
    expect(await names({ category: "beauty" })).toEqual([]);
    expect(await names({ sort: "price-asc" })).toEqual(["Bravo Low", "Charlie None", "Alpha Plenty"]);
    expect(await names({ sort: "stock-asc" })).toEqual(["Charlie None", "Bravo Low", "Alpha Plenty"]);
    expect(await names({ sort: "name", category: "electronics" })).toEqual([
      "Alpha Plenty",
      "Bravo Low",
      "Charlie None",
    ]);
  });

  it("archives the selected products and puts them back, audited; already archived ones are skipped", async () => {
    expect(
      await setProductsArchived(t.db, { ids: [ids.low!, ids.none!], archived: true, actor: ACTOR }),
    ).toBe(2);
    expect(await names({ sort: "name" })).toEqual(["Alpha Plenty"]);
    expect(await names({ archived: true, sort: "name" })).toEqual(["Bravo Low", "Charlie None"]);
    expect(await setProductsArchived(t.db, { ids: [ids.low!], archived: true, actor: ACTOR })).toBe(0);

    // through the route, as the bulk form posts it
    const form = new URLSearchParams([
      ["intent", "unarchive"],
      ["id", String(ids.low)],
      ["id", String(ids.none)],
    ]);
    const request = new Request("http://shop.test/admin?index&back=%2Fadmin%3Fshow%3Darchived", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ADMIN_COOKIE },
      body: form.toString(),
    });
    const context = adminContext({ db: t.db, files: createLocalFileStore(join(t.dir, "uploads")) }, ACTOR);
    const answer = (await productsRoute.action({ request, params: {}, context } as never)) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/admin?show=archived");
    expect(await names({ sort: "name" })).toEqual(["Alpha Plenty", "Bravo Low", "Charlie None"]);
    const audit = await t.db.selectFrom("auditLog").select(["action", "entityId"]).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual([
      "product.archive",
      "product.archive",
      "product.unarchive",
      "product.unarchive",
    ]);

    const empty = new Request("http://shop.test/admin?index", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ADMIN_COOKIE },
      body: "intent=archive",
    });
    const refused = (await productsRoute.action({ request: empty, params: {}, context } as never)) as {
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
  });

  it("sets the stock of the selected products sold without options; one sold in variants is left alone", async () => {
    const context = adminContext({ db: t.db, files: createLocalFileStore(join(t.dir, "uploads")) }, ACTOR);
    const post = async (fields: [string, string][]) =>
      productsRoute.action({
        request: new Request("http://shop.test/admin?index&back=%2Fadmin%3Fstock%3Dout", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ADMIN_COOKIE },
          body: new URLSearchParams(fields).toString(),
        }),
        params: {},
        context,
      } as never);
    const tee = await insertProductWithVariants(t.db, {
      name: "Delta Tee",
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: `LIST-TEE-S-${engine}`, priceCents: 1_500, stock: 4 },
        { values: ["M"], sku: `LIST-TEE-M-${engine}`, priceCents: 1_500, stock: 7 },
      ],
    });
    const before = await t.db.selectFrom("auditLog").select("id").execute();
    // a wrong level is refused beside the field, and nothing changes
    for (const stock of ["-1", "abc", "2000000", ""]) {
      const refused = (await post([
        ["intent", "set-stock"],
        ["stock", stock],
        ["id", String(ids.none)],
      ])) as { init: { status: number }; data: { result: { error: Record<string, string[]> } } };
      expect(refused.init.status, stock).toBe(400);
      expect(refused.data.result.error.stock?.[0]).toMatch(/a whole number from 0/);
    }
    expect((await t.db.selectFrom("auditLog").select("id").execute()).length).toBe(before.length);

    const answer = (await post([
      ["intent", "set-stock"],
      ["stock", "25"],
      ["id", String(ids.none)],
      ["id", String(ids.low)],
      ["id", String(tee.productId)],
    ])) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/admin?stock=out");
    const stockOf = async (id: number) =>
      (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow())
        .stock;
    expect(await stockOf(ids.none!)).toBe(25);
    expect(await stockOf(ids.low!)).toBe(25);
    const variants = await t.db
      .selectFrom("productVariants")
      .select("stock")
      .where("productId", "=", tee.productId)
      .execute();
    expect(variants.map((v) => v.stock).sort()).toEqual([4, 7]);
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "entityId", "summary"])
      .where("action", "=", "product.stock")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.entityId).sort()).toEqual([String(ids.low), String(ids.none)].sort());
    expect(audit.find((a) => a.entityId === String(ids.low))?.summary).toContain("set to 25 (was 3)");
  });
});
