import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { getAdminProduct } from "../../app/domain/catalog/admin/product-list.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import * as newProductRoute from "../../app/routes/admin.products.new.tsx";
import { cartwheelClient } from "../../clients/typescript/client.ts";
import { ENGINES } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { ensureCategory, insertProductWithVariants } from "../helpers/catalog.ts";
import { jpegWithGps, TEXT } from "../helpers/images.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };

const FIELDS = {
  name: "Granite Kettle",
  description: "Boils fast.",
  price: "49.50",
  originalPrice: "59.00",
  category: "home",
  subcategory: "kitchen",
  brand: "Stoneware",
  stock: "4",
  weight: "1.25",
  taxClass: "reduced",
};

function formRequest(path: string, fields: Record<string, string>, image?: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (image)
    form.append("images", new File([image as Uint8Array<ArrayBuffer>], "front.jpg", { type: "image/jpeg" }));
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: ADMIN_COOKIE },
  });
}

/**
 * The Admin API's catalogue writes (issue 32) on both engines: a product added and its details saved
 * through the API are what the Add Product and edit pages make of the same fields (compared field by
 * field), refused beside the same fields with the same messages; stock levels set by SKU in the
 * stock ledger and the audit log, all or nothing.
 */
describe.each(ENGINES)("the Admin API's catalogue writes, on %s", (engine) => {
  let shop: TestShop;
  let client: ReturnType<typeof cartwheelClient>;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    await ensureCategory(shop.db, "home");
    await ensureCategory(shop.db, "kitchen", "home");
    const api = createApi(async () => shop.services);
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "PIM", kind: "secret", scopes: ["products:write"], expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    client = cartwheelClient({
      baseUrl: TEST_ORIGIN,
      apiKey: made.value.secret,
      fetch: (request) => Promise.resolve(api.fetch(request)),
    });
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const context = () => adminContext({ db: shop.db, files: shop.services.files }, OWNER);
  const header = () => ({ "idempotency-key": randomUUID() });
  const apiFields = async (name: string) => ({
    name,
    description: "Boils fast.",
    brand: "Stoneware",
    category: "home",
    subcategory: "kitchen",
    taxClass: "reduced",
    price: { amount: 4_950, currency: "USD" },
    originalPrice: { amount: 5_900 },
    weightGrams: 1_250,
    stock: 4,
    images: [{ filename: "front.jpg", data: Buffer.from(await jpegWithGps()).toString("base64") }],
  });

  /** A product as its edit page shows it, without what differs between any two (ids, dates, images). */
  async function comparable(id: number) {
    const product = await getAdminProduct(shop.db, id);
    if (!product) throw new Error(`no product ${id}`);
    const {
      id: _id,
      slug: _slug,
      name: _name,
      createdAt: _c,
      updatedAt: _u,
      images,
      variants,
      ...rest
    } = product as typeof product & { images: unknown[] };
    return {
      ...rest,
      images: images.length,
      variants: variants.map(({ id: _v, sku: _s, ...variant }) => variant),
    };
  }

  it("adds the same product as the Add Product page, and saves the same edits as its edit page", async () => {
    const page = await adminAction(
      newProductRoute.action,
      formRequest("/admin/products/new", { ...FIELDS, name: "Kettle by page" }, await jpegWithGps()),
      context(),
    );
    expect(page).toMatchObject({ ok: true });
    const { id: pageId } = await shop.db
      .selectFrom("products")
      .select("id")
      .where("name", "=", "Kettle by page")
      .executeTakeFirstOrThrow();

    const { data, response } = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: await apiFields("Kettle by API"),
    });
    expect(response.status).toBe(201);
    expect(data?.slug).toBe("kettle-by-api");
    const apiId = data?.id ?? 0;
    expect({ ...(await comparable(apiId)) }).toEqual(await comparable(pageId));
    const added = await shop.db
      .selectFrom("auditLog")
      .select("actorEmail")
      .where("action", "=", "product.create")
      .where("entityId", "=", String(apiId))
      .executeTakeFirstOrThrow();
    expect(added.actorEmail).toBe("API key PIM");

    // the edit page's form and the API's details, the same change
    const edited = { ...FIELDS, name: "Kettle by page", price: "39.00", originalPrice: "", stock: "" };
    const pageEdit = await adminAction(
      editProductRoute.action,
      formRequest(`/admin/products/${pageId}`, { intent: "update", ...edited }),
      context(),
      { id: String(pageId) },
    );
    expect(pageEdit.ok).toBe(true);
    const { stock: _s, images: _i, ...details } = await apiFields("Kettle by API");
    const saved = await client.POST("/api/v1/admin/products/{id}", {
      params: { path: { id: apiId }, header: header() },
      body: { ...details, price: { amount: 3_900 }, originalPrice: null },
    });
    expect(saved.response.status).toBe(200);
    expect(await comparable(apiId)).toEqual(await comparable(pageId));
    expect((await getAdminProduct(shop.db, apiId))?.priceCents).toBe(3_900);
  });

  it("refuses what the forms refuse, beside the same fields, and adds nothing", async () => {
    const before = await shop.db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const bad = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: { ...(await apiFields("")), category: "spaceships", price: { amount: 100, currency: "EUR" } },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.detail).toBe("Prices are in the shop's currency, USD.");
    const missing = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: { ...(await apiFields("")), category: "spaceships" },
    });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.detail).toBe("Please fill in all required fields: name");
    const wrong = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: { ...(await apiFields("Lamp")), category: "spaceships", weightGrams: 999_999_999 },
    });
    expect(wrong.error?.errors).toEqual(
      expect.arrayContaining([
        { field: "category", message: "Choose one of the categories" },
        { field: "weight", message: "Enter a weight in kg, like 0.25." },
      ]),
    );
    const notImage = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: {
        ...(await apiFields("Lamp")),
        images: [{ filename: "notes.jpg", data: Buffer.from(TEXT).toString("base64") }],
      },
    });
    expect(notImage.response.status).toBe(400);
    expect(notImage.error?.detail).toBe(
      "Some files were rejected. Only JPG, PNG, and GIF images are allowed.",
    );
    const after = await shop.db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const variants = await insertProductWithVariants(shop.db, {
      name: "Tee",
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: "TEE-S", priceCents: 1_500, stock: 3 },
        { values: ["M"], sku: "TEE-M", priceCents: 1_700, stock: 3 },
      ],
    });
    const { stock: _s, images: _i, ...details } = await apiFields("Tee");
    const perVariant = await client.POST("/api/v1/admin/products/{id}", {
      params: { path: { id: variants.productId }, header: header() },
      body: { ...details, weightGrams: undefined, price: { amount: 1 } },
    });
    expect(perVariant.response.status).toBe(409);
    expect(perVariant.error?.detail).toBe(
      "This product comes in several variants: change the price of each variant.",
    );
  });

  it("saves a variant's SKU, prices, barcode and weight as the variant grid, keeping the others", async () => {
    const tee = await insertProductWithVariants(shop.db, {
      name: "Grid Tee",
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: "GRID-S", priceCents: 1_500, stock: 3 },
        { values: ["M"], sku: "GRID-M", priceCents: 1_700, stock: 5 },
      ],
    });
    const [small, medium] = tee.variantIds as [number, number];
    const saved = await client.POST("/api/v1/admin/products/{id}/variants/{variantId}", {
      params: { path: { id: tee.productId, variantId: medium }, header: header() },
      body: {
        sku: "GRID-MED",
        price: { amount: 1_900 },
        originalPrice: { amount: 2_400 },
        barcode: "400-1",
        weightGrams: 250,
      },
    });
    expect(saved.data).toEqual({ changed: 1 });
    const product = await getAdminProduct(shop.db, tee.productId);
    expect(
      product?.variants.map((v) => [
        v.sku,
        v.priceCents,
        v.originalPriceCents,
        v.barcode,
        v.weightGrams,
        v.stock,
      ]),
    ).toEqual([
      ["GRID-S", 1_500, null, null, expect.any(Number), 3],
      ["GRID-MED", 1_900, 2_400, "400-1", 250, 5],
    ]);
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["actorEmail", "summary"])
      .where("action", "=", "product.variant")
      .where("entityId", "=", String(tee.productId))
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ actorEmail: "API key PIM", summary: 'Variants of "Grid Tee" saved: GRID-MED' });

    await insertProductWithVariants(shop.db, {
      name: "Other Tee",
      options: [{ name: "Size", values: ["S"] }],
      variants: [{ values: ["S"], sku: "ELSEWHERE-1", priceCents: 1_000, stock: 1 }],
    });
    const taken = await client.POST("/api/v1/admin/products/{id}/variants/{variantId}", {
      params: { path: { id: tee.productId, variantId: small }, header: header() },
      body: { sku: "ELSEWHERE-1" },
    });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.errors).toEqual([
      { field: "sku", message: "Another product's variant has this SKU." },
    ]);
    const badSku = await client.POST("/api/v1/admin/products/{id}/variants/{variantId}", {
      params: { path: { id: tee.productId, variantId: small }, header: header() },
      body: { sku: "has spaces" },
    });
    expect(badSku.error?.errors).toEqual([
      { field: "sku", message: "Enter a SKU: letters, digits and . _ - / (no spaces), up to 64 characters." },
    ]);
    const elsewhere = await client.POST("/api/v1/admin/products/{id}/variants/{variantId}", {
      params: { path: { id: tee.productId, variantId: 999_999 }, header: header() },
      body: { barcode: null },
    });
    expect(elsewhere.response.status).toBe(404);
  });

  it("sets a product's options and so its variants as the variant editor, asking before it removes any", async () => {
    const { data } = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: await apiFields("Optioned Kettle"),
    });
    const id = data?.id ?? 0;
    const before = await getAdminProduct(shop.db, id);
    const options = (values: string[], removeVariants?: number[]) =>
      client.POST("/api/v1/admin/products/{id}/options", {
        params: { path: { id }, header: header() },
        body: { options: [{ name: "Colour", values }], ...(removeVariants ? { removeVariants } : {}) },
      });
    const two = await options(["Slate", "Sand"]);
    expect(two.data).toEqual({ added: 1, deleted: 0, archived: 0, variants: 2 });
    const after = await getAdminProduct(shop.db, id);
    // the one variant carried over (its id, SKU and stock), the new one with none
    expect(after?.variants.map((v) => [v.id, v.title, v.stock])).toEqual([
      [before?.variants[0]?.id, "Colour: Slate", 4],
      [expect.any(Number), "Colour: Sand", 0],
    ]);
    const sand = after?.variants[1]?.id ?? 0;
    const asked = await options(["Slate"]);
    expect(asked.response.status).toBe(409);
    expect(asked.error?.errors?.map((e) => e.message)).toEqual([
      expect.stringContaining(`${sand}: Colour: Sand`),
    ]);
    expect((await getAdminProduct(shop.db, id))?.variants).toHaveLength(2);
    const removed = await options(["Slate"], [sand]);
    expect(removed.data).toEqual({ added: 0, deleted: 1, archived: 0, variants: 1 });
    const twice = await client.POST("/api/v1/admin/products/{id}/options", {
      params: { path: { id }, header: header() },
      body: {
        options: [
          { name: "Colour", values: ["Slate"] },
          { name: "Colour", values: ["Big"] },
        ],
      },
    });
    expect(twice.response.status).toBe(400);
    expect(twice.error?.errors).toEqual([
      { field: "options.1.name", message: "Each option needs a name of its own." },
    ]);
  });

  it("sets stock levels by SKU in the ledger and the audit log, all or nothing", async () => {
    const { data, response } = await client.POST("/api/v1/admin/products", {
      params: { header: header() },
      body: await apiFields("Counted Kettle"),
    });
    expect(response.status).toBe(201);
    const product = await getAdminProduct(shop.db, data?.id ?? 0);
    const sku = product?.variants[0]?.sku ?? "";
    const unknown = await client.POST("/api/v1/admin/inventory/levels", {
      params: { header: header() },
      body: {
        levels: [
          { sku, stock: 50 },
          { sku: "NOPE-1", stock: 3 },
        ],
      },
    });
    expect(unknown.error).toMatchObject({ status: 409 });
    expect(unknown.error?.detail).toBe("No live variant has the SKU NOPE-1.");
    expect((await getAdminProduct(shop.db, data?.id ?? 0))?.stock).toBe(4);

    const set = await client.POST("/api/v1/admin/inventory/levels", {
      params: { header: header() },
      body: { levels: [{ sku, stock: 50 }] },
    });
    expect(set.data).toEqual({ changed: [{ sku, before: 4, after: 50 }], unchanged: [] });
    const again = await client.POST("/api/v1/admin/inventory/levels", {
      params: { header: header() },
      body: { levels: [{ sku, stock: 50 }] },
    });
    expect(again.data).toEqual({ changed: [], unchanged: [sku] });
    expect((await getAdminProduct(shop.db, data?.id ?? 0))?.stock).toBe(50);
    const drift = await checkStockLedger(shop.db);
    expect(drift.variants).toEqual([]);
    const twice = await client.POST("/api/v1/admin/inventory/levels", {
      params: { header: header() },
      body: {
        levels: [
          { sku, stock: 1 },
          { sku, stock: 2 },
        ],
      },
    });
    expect(twice.response.status).toBe(400);
  });
});
