import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAdminProduct } from "../../app/domain/catalog/admin/product-list.server.ts";
import {
  bulkSetVariants,
  saveProductOptions,
  saveVariantGrid,
} from "../../app/domain/catalog/admin/variant-editor.server.ts";
import { VARIANT_EDITOR_MESSAGES } from "../../app/domain/catalog/admin/variant-editor-form.server.ts";
import { kgText } from "../../app/lib/weight.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import { ENGINES } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Variants' weights in the admin's variant editor (issue 30): the grid saves each variant's weight
 * in kg (a row without one keeps its own), bulk sets one for the selected, options carry weights
 * over (new combinations weigh the cheapest variant's); a malformed weight is refused beside its
 * field. Audited. Domain and route action, on both engines.
 */
const ACTOR = { id: "admin-1", email: "admin@example.com" };

describe.each(ENGINES)("variant weights in the admin options editor on %s", (engine) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop(engine);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

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

  describe("domain", () => {
    const weights = async (productId: number) =>
      (
        await shop.db
          .selectFrom("productVariants")
          .select(["weightGrams"])
          .where("productId", "=", productId)
          .where("archivedAt", "is", null)
          .orderBy("position")
          .execute()
      ).map((r) => r.weightGrams);
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
        weightGrams: v.weightGrams as number | null,
      }));

    it("the grid saves each variant's weight (audited); a row without one keeps its own", async () => {
      const { productId } = await tee("w1");
      expect(await weights(productId)).toEqual([0, 0, 0, 0]);
      const rows = (await rowsOf(productId)).map((row, i) => ({
        ...row,
        weightGrams: [180, 200, 220, 0][i]!,
      }));
      expect(await saveVariantGrid(shop.db, { productId, rows }, ACTOR)).toEqual({
        ok: true,
        value: { changed: 3 },
      });
      expect(await weights(productId)).toEqual([180, 200, 220, 0]);
      expect((await getAdminProduct(shop.db, productId))!.variants.map((v) => v.weightGrams)).toEqual([
        180, 200, 220, 0,
      ]);
      const [entry] = await audit(productId, "product.variant");
      expect(JSON.parse(entry!.beforeJson!)[0]).toMatchObject({ sku: "TEE-w1-SB", weightGrams: 0 });
      expect(JSON.parse(entry!.afterJson!)[0]).toMatchObject({ sku: "TEE-w1-SB", weightGrams: 180 });
      // not posted (a page from before weights): kept, nothing to save
      const unposted = (await rowsOf(productId)).map((row) => ({ ...row, weightGrams: null }));
      expect(await saveVariantGrid(shop.db, { productId, rows: unposted }, ACTOR)).toEqual({
        ok: true,
        value: { changed: 0 },
      });
      expect(await weights(productId)).toEqual([180, 200, 220, 0]);
    });

    it("bulk sets one weight for the chosen variants; options carry weights over, new ones weigh the cheapest's", async () => {
      const { productId, variantIds } = await tee("w2");
      expect(
        await bulkSetVariants(
          shop.db,
          { productId, variantIds: [variantIds[0]!, variantIds[1]!], weightGrams: 250 },
          ACTOR,
        ),
      ).toEqual({ ok: true, value: { count: 2 } });
      expect(await weights(productId)).toEqual([250, 250, 0, 0]);
      const [entry] = await audit(productId, "product.variant");
      expect(entry!.summary).toContain("weight 250 g");
      expect(JSON.parse(entry!.afterJson!)).toEqual([
        { sku: "TEE-w2-SB", priceCents: 2_000, stock: 12, weightGrams: 250 },
        { sku: "TEE-w2-SW", priceCents: 2_000, stock: 5, weightGrams: 250 },
      ]);

      // a new size: its variants weigh what the cheapest variant (S/Black) weighs
      const saved = await saveProductOptions(
        shop.db,
        {
          productId,
          options: [
            { name: "Size", values: ["S", "M", "L"] },
            { name: "Colour", values: ["Black", "White"] },
          ],
          confirmedRemoval: [],
        },
        ACTOR,
      );
      expect(saved).toMatchObject({ ok: true, value: { added: 2 } });
      expect(await weights(productId)).toEqual([250, 250, 0, 0, 250, 250]);
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

    it("grid: weights in kg saved as grams; a malformed one refused beside its field, nothing saved", async () => {
      const { productId } = await tee("w3");
      const saved = await post(productId, [
        ["intent", "variants"],
        ...(await gridFields(productId, (i, field, value) =>
          field === "weight" ? (["0.18", " 0.2 ", "", "1.605"][i] ?? value) : value,
        )),
      ]);
      expect(saved).toMatchObject({ ok: true, message: "Variants saved: 3 variants changed" });
      expect((await getAdminProduct(shop.db, productId))!.variants.map((v) => v.weightGrams)).toEqual([
        180, 200, 0, 1_605,
      ]);
      for (const bad of ["-1", "1,5", "0.0001", "2 kg", "1000.5"]) {
        const refused = await post(productId, [
          ["intent", "variants"],
          ...(await gridFields(productId, (i, field, value) =>
            i === 1 && field === "weight" ? bad : i === 0 && field === "weight" ? "9" : value,
          )),
        ]);
        expect(refused, bad).toMatchObject({
          ok: false,
          status: 400,
          message: VARIANT_EDITOR_MESSAGES.variantsInvalid,
          fieldErrors: { "variants[1].weight": "Enter a weight in kg, like 0.25." },
        });
        if (!refused.ok) expect(Object.keys(refused.fieldErrors)).toEqual(["variants[1].weight"]);
      }
      expect((await getAdminProduct(shop.db, productId))!.variants.map((v) => v.weightGrams)).toEqual([
        180, 200, 0, 1_605,
      ]);
    });

    it("bulk: a weight for the selected; a malformed one refused beside it", async () => {
      const { productId, variantIds } = await tee("w4");
      expect(
        await post(productId, [
          ["intent", "bulk-variants"],
          ["selected", String(variantIds[1])],
          ["selected", String(variantIds[3])],
          ["price", ""],
          ["stock", ""],
          ["weight", "0.3"],
        ]),
      ).toMatchObject({ ok: true, message: "Selected variants updated: 2 variants" });
      expect((await getAdminProduct(shop.db, productId))!.variants.map((v) => v.weightGrams)).toEqual([
        0, 300, 0, 300,
      ]);
      expect(
        await post(productId, [
          ["intent", "bulk-variants"],
          ["selected", String(variantIds[0])],
          ["weight", "heavy"],
        ]),
      ).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { weight: "Enter a weight in kg, like 0.25." },
      });
    });
  });
});
