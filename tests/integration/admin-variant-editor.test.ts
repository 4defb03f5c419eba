import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { getAdminProduct } from "../../app/domain/catalog/admin/product-list.server.ts";
import {
  bulkSetVariants,
  saveProductOptions,
  saveVariantGrid,
} from "../../app/domain/catalog/admin/variant-editor.server.ts";
import { VARIANT_EDITOR_MESSAGES } from "../../app/domain/catalog/admin/variant-editor-form.server.ts";
import { takeStock } from "../../app/domain/inventory/inventory.server.ts";
import { kgText } from "../../app/lib/weight.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import { ENGINES } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { insertImage, insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The admin's options editor (issue 18): options regenerate the variant grid (combinations kept,
 * new ones added, gone ones removed after a confirmation — archived when an order holds them);
 * the grid saves SKU, prices, stock (as a change against what sold meanwhile), barcode and image;
 * bulk sets one price or stock level; each audited, the summary following (weights:
 * admin-variant-weights.test.ts). Domain and route action, on both engines.
 */
const ACTOR = { id: "admin-1", email: "admin@example.com" };

let orders = 0;
async function orderLine(db: Database, productId: number, variantId: number, sku: string) {
  orders++;
  const { id } = await db
    .insertInto("orders")
    .values({
      number: `CW-EDITOR-${orders}-${Math.random().toString(36).slice(2, 8)}`,
      idempotencyKey: `editor-${orders}-${Math.random()}`,
      userId: null,
      email: "a@example.com",
      firstName: "A",
      lastName: "B",
      phone: "1",
      address: "x",
      city: "y",
      state: "z",
      zipCode: "1",
      country: "US",
      shippingMethod: "standard",
      subtotalCents: 1_000,
      discountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: 1_000,
      couponCode: null,
      status: "paid",
      paymentBrand: "Visa",
      paymentLast4: "4242",
      paymentReference: "ref",
      estimatedDelivery: "2026-11-30",
      createdAt: "2026-11-20T00:00:00.000Z",
      updatedAt: "2026-11-20T00:00:00.000Z",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("orderItems")
    .values({
      orderId: id,
      productId,
      variantId,
      sku,
      productSlug: "x",
      name: "x",
      brand: "Testbrand",
      imageKey: null,
      unitPriceCents: 1_000,
      quantity: 1,
      lineTotalCents: 1_000,
    })
    .execute();
}

describe.each(ENGINES)("admin options editor on %s", (engine) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop(engine);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  /** units sold down to `level` while the page was open (as checkout takes them: the inventory) */
  const sellDownTo = async (variantId: number, level: number) => {
    const { stock } = await shop.db
      .selectFrom("productVariants")
      .select("stock")
      .where("id", "=", variantId)
      .executeTakeFirstOrThrow();
    const taken = await takeStock(shop.db, [{ variantId, quantity: stock - level }], {
      reason: "sale",
      actor: "checkout",
    });
    expect(taken.ok).toBe(true);
  };
  const live = (productId: number) =>
    shop.db
      .selectFrom("productVariants")
      .select(["id", "sku", "option1", "option2", "priceCents", "stock", "barcode", "imageId"])
      .where("productId", "=", productId)
      .where("archivedAt", "is", null)
      .orderBy("position")
      .execute();
  const summary = (id: number) =>
    shop.db
      .selectFrom("products")
      .select(["priceCents", "stock", "updatedAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const audit = (productId: number, action: string) =>
    shop.db
      .selectFrom("auditLog")
      .select(["summary", "beforeJson", "afterJson"])
      .where("entityId", "=", String(productId))
      .where("action", "=", action)
      .execute();
  const tee = (tag: string) =>
    insertProductWithVariants(shop.db, {
      name: `Tee ${tag}`,
      options: [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Black", "White"] },
      ],
      variants: [
        { values: ["S", "Black"], sku: `TEE-${tag}-SB`, priceCents: 2_000, stock: 12 },
        { values: ["S", "White"], sku: `TEE-${tag}-SW`, priceCents: 2_000, stock: 5 },
        { values: ["M", "Black"], sku: `TEE-${tag}-MB`, priceCents: 2_400, stock: 4 },
        { values: ["M", "White"], sku: `TEE-${tag}-MW`, priceCents: 2_400, stock: 0 },
      ],
    });

  describe("options", () => {
    it("a product sold as one variant gets options: its variant is the first combination, the others are new", async () => {
      const productId = await insertProduct(shop.db, { priceCents: 1_500, stock: 7 });
      const [only] = await live(productId);
      const before = await summary(productId);
      const result = await saveProductOptions(
        shop.db,
        { productId, options: [{ name: "Size", values: ["S", "M", "L"] }], confirmedRemoval: [] },
        ACTOR,
      );
      expect(result).toEqual({
        ok: true,
        value: { added: 2, deleted: 0, archived: 0, variants: 3, unchanged: false },
      });
      const rows = await live(productId);
      expect(rows.map((r) => [r.option1, r.priceCents, r.stock])).toEqual([
        ["S", 1_500, 7],
        ["M", 1_500, 0],
        ["L", 1_500, 0],
      ]);
      expect(rows[0]).toMatchObject({ id: only!.id, sku: only!.sku });
      expect(rows[1]!.sku).toBe(`CW-${productId}-${rows[1]!.id}`);
      const after = await summary(productId);
      expect(after).toMatchObject({ priceCents: 1_500, stock: 7 });
      expect(after.updatedAt).not.toBe(before.updatedAt);
      expect((await audit(productId, "product.options")).map((a) => a.summary)).toEqual([
        `Options of "${(await getAdminProduct(shop.db, productId))!.name}": Size (S, M, L) — 2 variants added, 0 removed`,
      ]);
      // the same options again: nothing to do
      expect(
        await saveProductOptions(
          shop.db,
          { productId, options: [{ name: "Size", values: ["S", "M", "L"] }], confirmedRemoval: [] },
          ACTOR,
        ),
      ).toMatchObject({ ok: true, value: { unchanged: true } });
    });

    it("removing combinations asks first (nothing written), then deletes them — or archives one an order holds", async () => {
      const { productId, variantIds } = await tee("a");
      await orderLine(shop.db, productId, variantIds[1]!, "TEE-a-SW");
      const options = [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Black"] },
      ];
      const asked = await saveProductOptions(shop.db, { productId, options, confirmedRemoval: [] }, ACTOR);
      expect(asked).toEqual({
        ok: false,
        error: {
          code: "confirm",
          removing: [
            { id: variantIds[1], title: "Size: S · Colour: White", sku: "TEE-a-SW", stock: 5, ordered: true },
            {
              id: variantIds[3],
              title: "Size: M · Colour: White",
              sku: "TEE-a-MW",
              stock: 0,
              ordered: false,
            },
          ],
        },
      });
      expect(await live(productId)).toHaveLength(4);
      // a confirmation of other variants is no confirmation
      expect(
        await saveProductOptions(shop.db, { productId, options, confirmedRemoval: [variantIds[1]!] }, ACTOR),
      ).toMatchObject({ ok: false, error: { code: "confirm" } });

      const saved = await saveProductOptions(
        shop.db,
        { productId, options, confirmedRemoval: [variantIds[1]!, variantIds[3]!] },
        ACTOR,
      );
      expect(saved).toEqual({
        ok: true,
        value: { added: 0, deleted: 1, archived: 1, variants: 2, unchanged: false },
      });
      expect((await live(productId)).map((r) => [r.id, r.sku, r.stock])).toEqual([
        [variantIds[0], "TEE-a-SB", 12],
        [variantIds[2], "TEE-a-MB", 4],
      ]);
      expect((await summary(productId)).stock).toBe(16);
      const archived = await shop.db
        .selectFrom("productVariants")
        .select(["id", "archivedAt"])
        .where("productId", "=", productId)
        .where("archivedAt", "is not", null)
        .execute();
      expect(archived.map((r) => r.id)).toEqual([variantIds[1]]);
    });

    it("removing every option keeps one variant, the first, with its SKU and stock", async () => {
      const { productId, variantIds } = await tee("b");
      const removing = variantIds.slice(1);
      const result = await saveProductOptions(
        shop.db,
        { productId, options: [], confirmedRemoval: removing },
        ACTOR,
      );
      expect(result).toMatchObject({ ok: true, value: { added: 0, deleted: 3, variants: 1 } });
      expect(await live(productId)).toEqual([
        expect.objectContaining({ id: variantIds[0], sku: "TEE-b-SB", option1: null, stock: 12 }),
      ]);
      expect((await getAdminProduct(shop.db, productId))!.options).toEqual([]);
      expect(await summary(productId)).toMatchObject({ priceCents: 2_000, stock: 12 });
    });

    it("adding an option keeps each variant under the new option's first value", async () => {
      const { productId, variantIds } = await insertProductWithVariants(shop.db, {
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          { values: ["S"], sku: "ADD-S", priceCents: 1_000, stock: 3 },
          { values: ["M"], sku: "ADD-M", priceCents: 900, originalPriceCents: 1_200, stock: 2 },
        ],
      });
      const result = await saveProductOptions(
        shop.db,
        {
          productId,
          options: [
            { name: "Size", values: ["S", "M"] },
            { name: "Colour", values: ["Red", "Blue"] },
          ],
          confirmedRemoval: [],
        },
        ACTOR,
      );
      expect(result).toMatchObject({ ok: true, value: { added: 2, deleted: 0, archived: 0 } });
      expect((await live(productId)).map((r) => [r.id, r.option1, r.option2, r.priceCents, r.stock])).toEqual(
        [
          [variantIds[0], "S", "Red", 1_000, 3],
          [expect.any(Number), "S", "Blue", 900, 0],
          [variantIds[1], "M", "Red", 900, 2],
          [expect.any(Number), "M", "Blue", 900, 0],
        ],
      );
    });
  });

  describe("grid", () => {
    const rowsOf = async (productId: number) =>
      (await getAdminProduct(shop.db, productId))!.variants.map((v) => ({
        id: v.id,
        shownStock: v.stock,
        sku: v.sku,
        priceCents: v.priceCents,
        originalPriceCents: v.originalPriceCents,
        stock: v.stock,
        barcode: v.barcode,
        imageId: v.imageId,
        weightGrams: v.weightGrams,
      }));

    it("saves SKU, prices, barcode and image; stock as a change against what sold meanwhile", async () => {
      const { productId, variantIds } = await tee("c");
      await insertImage(shop.db, productId, 0);
      await insertImage(shop.db, productId, 1);
      const images = (await getAdminProduct(shop.db, productId))!.images;
      const rows = await rowsOf(productId);
      // two units of S/Black sell after the page was loaded (it showed 12)
      await sellDownTo(variantIds[0]!, 10);
      rows[0] = {
        ...rows[0]!,
        sku: "TEE-c-S-BLACK",
        stock: 15,
        barcode: "0012345678905",
        imageId: images[1]!.id,
      };
      rows[3] = { ...rows[3]!, priceCents: 1_900, originalPriceCents: 2_400 };
      expect(await saveVariantGrid(shop.db, { productId, rows }, ACTOR)).toEqual({
        ok: true,
        value: { changed: 2 },
      });
      const after = await live(productId);
      expect(after[0]).toMatchObject({
        sku: "TEE-c-S-BLACK",
        stock: 13,
        barcode: "0012345678905",
        imageId: images[1]!.id,
      });
      expect(after[3]).toMatchObject({ priceCents: 1_900, stock: 0 });
      expect(await summary(productId)).toMatchObject({ priceCents: 1_900, stock: 13 + 5 + 4 });
      const entries = await audit(productId, "product.variant");
      expect(entries).toHaveLength(1);
      expect(JSON.parse(entries[0]!.beforeJson!)[0]).toMatchObject({ sku: "TEE-c-SB", stock: 10 });
      expect(JSON.parse(entries[0]!.afterJson!)[0]).toMatchObject({ sku: "TEE-c-S-BLACK", stock: 13 });
      // nothing changed: nothing written
      expect(await saveVariantGrid(shop.db, { productId, rows: await rowsOf(productId) }, ACTOR)).toEqual({
        ok: true,
        value: { changed: 0 },
      });
      expect(await audit(productId, "product.variant")).toHaveLength(1);
    });

    it("refuses beside the field: stock below 0 after sales, another product's SKU, a foreign image; and stale rows", async () => {
      const { productId, variantIds } = await tee("d");
      const other = await tee("e");
      const otherImage = await insertImage(shop.db, other.productId, 0);
      const foreignImage = (await getAdminProduct(shop.db, other.productId))!.images.find(
        (i) => i.key === otherImage,
      )!;
      const rows = await rowsOf(productId);
      await sellDownTo(variantIds[2]!, 1);
      const bad = rows.map((row, i) =>
        i === 2 ? { ...row, stock: 0 } : i === 1 ? { ...row, imageId: foreignImage.id } : row,
      );
      expect(await saveVariantGrid(shop.db, { productId, rows: bad }, ACTOR)).toEqual({
        ok: false,
        error: {
          code: "invalid",
          fields: [
            { row: 1, field: "image", message: expect.stringContaining("this product's images") },
            { row: 2, field: "stock", message: expect.stringContaining("Only 1 in stock now") },
          ],
        },
      });
      const taken = rows.map((row, i) => (i === 3 ? { ...row, sku: "TEE-e-SB", priceCents: 1 } : row));
      expect(await saveVariantGrid(shop.db, { productId, rows: taken }, ACTOR)).toEqual({
        ok: false,
        error: {
          code: "invalid",
          fields: [{ row: 3, field: "sku", message: expect.stringContaining("Another product") }],
        },
      });
      // nothing of it was written
      expect((await live(productId)).map((r) => [r.sku, r.priceCents])).toEqual([
        ["TEE-d-SB", 2_000],
        ["TEE-d-SW", 2_000],
        ["TEE-d-MB", 2_400],
        ["TEE-d-MW", 2_400],
      ]);
      expect(await saveVariantGrid(shop.db, { productId, rows: rows.slice(1) }, ACTOR)).toEqual({
        ok: false,
        error: { code: "stale" },
      });
      expect(await saveVariantGrid(shop.db, { productId: 999_999, rows }, ACTOR)).toEqual({
        ok: false,
        error: { code: "not-found" },
      });
    });

    it("bulk sets a price and a stock level for the chosen variants only", async () => {
      const { productId, variantIds } = await tee("f");
      const chosen = [variantIds[1]!, variantIds[3]!];
      expect(
        await bulkSetVariants(
          shop.db,
          { productId, variantIds: chosen, priceCents: 1_500, stock: 20 },
          ACTOR,
        ),
      ).toEqual({ ok: true, value: { count: 2 } });
      expect((await live(productId)).map((r) => [r.priceCents, r.stock])).toEqual([
        [2_000, 12],
        [1_500, 20],
        [2_400, 4],
        [1_500, 20],
      ]);
      expect(await summary(productId)).toMatchObject({ priceCents: 1_500, stock: 56 });
      expect(
        await bulkSetVariants(shop.db, { productId, variantIds: [variantIds[0]!], stock: 3 }, ACTOR),
      ).toEqual({
        ok: true,
        value: { count: 1 },
      });
      expect((await live(productId))[0]).toMatchObject({ priceCents: 2_000, stock: 3 });
      const other = await tee("g");
      expect(
        await bulkSetVariants(shop.db, { productId, variantIds: [other.variantIds[0]!], stock: 1 }, ACTOR),
      ).toEqual({ ok: false, error: { code: "stale" } });
      expect(await audit(productId, "product.variant")).toHaveLength(2);
    });
  });

  describe("route action", () => {
    const post = (productId: number, fields: [string, string][]) =>
      adminAction(
        editProductRoute.action,
        new Request(`${TEST_ORIGIN}/admin/products/${productId}`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ADMIN_COOKIE },
          body: new URLSearchParams(fields).toString(),
        }),
        adminContext({ db: shop.db, files: shop.services.files }, ACTOR),
        { id: String(productId) },
      );
    const gridFields = async (
      productId: number,
      change: (i: number, field: string, value: string) => string,
    ) =>
      (await getAdminProduct(shop.db, productId))!.variants.flatMap((v, i): [string, string][] =>
        (
          [
            ["id", String(v.id)],
            ["shownStock", String(v.stock)],
            ["sku", v.sku],
            ["price", (v.priceCents / 100).toFixed(2)],
            ["originalPrice", ""],
            ["stock", String(v.stock)],
            ["weight", kgText(v.weightGrams)],
            ["barcode", ""],
            ["image", ""],
          ] as const
        ).map(([field, value]) => [`variants[${i}].${field}`, change(i, field, value)]),
      );

    it("options: saved with a message of what changed; removals are asked for, then confirmed", async () => {
      const productId = await insertProduct(shop.db, { priceCents: 999, stock: 4 });
      const saved = await post(productId, [
        ["intent", "options"],
        ["options[0].name", "Size"],
        ["options[0].values", " S, M ,L,, "],
        ["options[1].name", ""],
        ["options[1].values", ""],
      ]);
      expect(saved).toMatchObject({
        ok: true,
        status: 302,
        location: `/admin/products/${productId}`,
        message: "Options saved: 3 variants (2 added, 0 removed)",
      });
      const asked = await post(productId, [
        ["intent", "options"],
        ["options[0].name", "Size"],
        ["options[0].values", "S"],
      ]);
      expect(asked).toMatchObject({
        ok: false,
        status: 200,
        message: VARIANT_EDITOR_MESSAGES.confirmRemoval,
      });
      expect(asked.ok).toBe(false);
      const variants = (await getAdminProduct(shop.db, productId))!.variants;
      expect(variants).toHaveLength(3);
      const confirmed = await post(productId, [
        ["intent", "options"],
        ["options[0].name", "Size"],
        ["options[0].values", "S"],
        ["removing", `${variants[1]!.id},${variants[2]!.id}`],
      ]);
      expect(confirmed).toMatchObject({ ok: true, message: "Options saved: 1 variant (0 added, 2 removed)" });
    });

    it("options: refused beside the fields (no name, a value twice, too many combinations)", async () => {
      const productId = await insertProduct(shop.db);
      const answer = await post(productId, [
        ["intent", "options"],
        ["options[0].name", ""],
        ["options[0].values", "S, M"],
        ["options[1].name", "Colour"],
        ["options[1].values", "Red, red"],
      ]);
      expect(answer).toMatchObject({
        ok: false,
        status: 400,
        message: VARIANT_EDITOR_MESSAGES.optionsInvalid,
        fieldErrors: {
          "options[0].name": VARIANT_EDITOR_MESSAGES.optionName,
          "options[1].values": '"red" is there twice: give each value once.',
        },
      });
      const many = Array.from({ length: 11 }, (_, i) => `V${i}`).join(",");
      const tooMany = await post(productId, [
        ["intent", "options"],
        ["options[0].name", "A"],
        ["options[0].values", many],
        ["options[1].name", "B"],
        ["options[1].values", many],
      ]);
      expect(tooMany).toMatchObject({
        status: 400,
        fieldErrors: { "options[1].values": VARIANT_EDITOR_MESSAGES.tooManyVariants },
      });
      expect((await getAdminProduct(shop.db, productId))!.options).toEqual([]);
    });

    it("grid: saves, and refuses a bad price, a SKU twice and another product's SKU beside the field", async () => {
      const { productId } = await tee("h");
      await tee("i");
      const saved = await post(productId, [
        ["intent", "variants"],
        ...(await gridFields(productId, (i, field, value) =>
          i === 0 && field === "price" ? "18.50" : i === 1 && field === "stock" ? "9" : value,
        )),
      ]);
      expect(saved).toMatchObject({ ok: true, message: "Variants saved: 2 variants changed" });
      expect((await live(productId)).slice(0, 2).map((r) => [r.priceCents, r.stock])).toEqual([
        [1_850, 12],
        [2_000, 9],
      ]);

      const bad = await post(productId, [
        ["intent", "variants"],
        ...(await gridFields(productId, (i, field, value) =>
          i === 0 && field === "price" ? "12,50" : i === 2 && field === "sku" ? "TEE-h-SW" : value,
        )),
      ]);
      expect(bad).toMatchObject({
        ok: false,
        status: 400,
        message: VARIANT_EDITOR_MESSAGES.variantsInvalid,
        fieldErrors: {
          "variants[0].price": VARIANT_EDITOR_MESSAGES.price,
          "variants[2].sku": VARIANT_EDITOR_MESSAGES.skuTwice,
        },
      });
      const taken = await post(productId, [
        ["intent", "variants"],
        ...(await gridFields(productId, (i, field, value) =>
          i === 1 && field === "sku" ? "TEE-i-MB" : value,
        )),
      ]);
      expect(taken).toMatchObject({
        ok: false,
        status: 409,
        fieldErrors: { "variants[1].sku": "Another product's variant has this SKU." },
      });
    });

    it("bulk: nothing selected is refused; the selected get the price", async () => {
      const { productId, variantIds } = await tee("j");
      expect(
        await post(productId, [
          ["intent", "bulk-variants"],
          ["price", "5"],
        ]),
      ).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { selected: VARIANT_EDITOR_MESSAGES.selectSome },
      });
      expect(
        await post(productId, [
          ["intent", "bulk-variants"],
          ["selected", String(variantIds[0])],
          ["selected", String(variantIds[2])],
          ["price", "5"],
          ["stock", ""],
        ]),
      ).toMatchObject({ ok: true, message: "Selected variants updated: 2 variants" });
      expect((await live(productId)).map((r) => r.priceCents)).toEqual([500, 2_000, 500, 2_400]);
      expect(
        await post(productId, [
          ["intent", "bulk-variants"],
          ["selected", String(variantIds[0])],
        ]),
      ).toMatchObject({
        status: 400,
        fieldErrors: { price: VARIANT_EDITOR_MESSAGES.bulkValue },
      });
    });
  });
});
