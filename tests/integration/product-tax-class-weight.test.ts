import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import type { Database } from "../../app/db/database.server.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { listAuditLog } from "../../app/domain/audit/audit-list.server.ts";
import { EDIT_MESSAGES } from "../../app/domain/catalog/admin/edit-product.server.ts";
import { PRODUCT_FORM_MESSAGES } from "../../app/domain/catalog/admin/product-form.ts";
import { getAdminProduct } from "../../app/domain/catalog/admin/product-list.server.ts";
import { exportProductsCsv, importProductsCsv } from "../../app/domain/catalog/admin/products-csv.server.ts";
import { PRODUCT_CSV_COLUMNS, PRODUCT_FIELD_COLUMNS } from "../../app/domain/catalog/admin/products-csv.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import * as newProductRoute from "../../app/routes/admin.products.new.tsx";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { jpegWithGps } from "../helpers/images.ts";

/**
 * A product's tax class and a variant's weight (issue 30) where the admin sets them: the product
 * form (add and edit: the class always, the weight of a product without options, refused beside
 * its field; audited) and the products CSV (written by the export, read by the import when given,
 * kept when not; a bad value a problem at its line). Both engines.
 */
const ACTOR = { id: "admin-markets-1", email: "admin@example.com", role: "owner" as const };

const FIELDS = {
  name: "Granite Kettle",
  description: "Boils fast.",
  price: "49.50",
  originalPrice: "",
  category: "home",
  subcategory: "kitchen",
  brand: "Stoneware",
  stock: "4",
};

const WEIGHT_MESSAGE = "Enter a weight in kg, like 0.25.";

function formRequest(path: string, fields: Record<string, string>, image?: Uint8Array) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(
    "images",
    image
      ? new File([image as Uint8Array<ArrayBuffer>], "front.jpg", { type: "image/jpeg" })
      : new File([], "", { type: "application/octet-stream" }),
  );
  return new Request(`http://shop.test${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: ADMIN_COOKIE },
  });
}

/** The variants' weights as stored, in order. */
const weightsOf = async (db: Database, productId: number) =>
  (
    await db
      .selectFrom("productVariants")
      .select("weightGrams")
      .where("productId", "=", productId)
      .where("archivedAt", "is", null)
      .orderBy("position")
      .orderBy("id")
      .execute()
  ).map((v) => v.weightGrams);

const classOf = async (db: Database, productId: number) =>
  (await db.selectFrom("products").select("taxClass").where("id", "=", productId).executeTakeFirstOrThrow())
    .taxClass;

async function exportText(db: Database): Promise<string> {
  let text = "";
  for await (const chunk of exportProductsCsv(db, "USD")) text += chunk;
  return text;
}

describe.each(ENGINES)("a product's tax class and its variants' weights on %s", (engine) => {
  let t: TestDatabase;
  let files: FileStore;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    files = createLocalFileStore(join(t.dir, "uploads"));
    await seedDemoCatalog(t.db, files);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const context = () => adminContext({ db: t.db, files }, ACTOR);
  async function addProduct(fields: Record<string, string>) {
    const answer = await adminAction(
      newProductRoute.action,
      formRequest("/admin/products/new", fields, await jpegWithGps()),
      context(),
    );
    if (!answer.ok) return { ...answer, id: 0 };
    const { id } = await t.db
      .selectFrom("products")
      .select("id")
      .where("name", "=", fields.name!)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return { ...answer, id };
  }
  const editProduct = (id: number, fields: Record<string, string>) =>
    adminAction(editProductRoute.action, formRequest(`/admin/products/${id}`, fields), context(), {
      id: String(id),
    });
  const loaded = async (id: number) =>
    (
      (await editProductRoute.loader({
        request: new Request(`http://shop.test/admin/products/${id}`, { headers: { Cookie: ADMIN_COOKIE } }),
        params: { id: String(id) },
        context: context(),
      } as never)) as { product: { taxClass: string; weightGrams: number | null } }
    ).product;

  it("the demo catalogue: every live variant weighs something realistic; books and health are reduced, the rest standard", async () => {
    const products = await t.db
      .selectFrom("products")
      .select(["id", "slug", "categoryId", "taxClass"])
      .execute();
    expect(products.length).toBeGreaterThan(10);
    for (const product of products) {
      expect(product.taxClass, product.slug).toBe(
        ["books", "health"].includes(product.categoryId) ? "reduced" : "standard",
      );
      for (const grams of await weightsOf(t.db, product.id)) {
        expect(grams, product.slug).toBeGreaterThanOrEqual(100);
        expect(grams, product.slug).toBeLessThanOrEqual(30_000);
      }
    }
    const chair = products.find((p) => p.slug === "nordhaus-oak-lounge-chair")!;
    const tee = products.find((p) => p.slug === "loomwell-organic-cotton-t-shirt")!;
    expect(await weightsOf(t.db, chair.id)).toEqual([20_000]);
    expect(Math.max(...(await weightsOf(t.db, tee.id)))).toBeLessThan(300);
  });

  describe("the admin product form", () => {
    it("adds a product with its tax class and weight, shows them again on edit, edits them; audited", async () => {
      const added = await addProduct({ ...FIELDS, taxClass: "reduced", weight: "1.25" });
      expect(added).toMatchObject({ ok: true, message: PRODUCT_FORM_MESSAGES.added });
      expect(await classOf(t.db, added.id)).toBe("reduced");
      expect(await weightsOf(t.db, added.id)).toEqual([1_250]);
      expect(await loaded(added.id)).toMatchObject({ taxClass: "reduced", weightGrams: 1_250 });
      const created = (await listAuditLog(t.db, { entity: { type: "product", id: String(added.id) } }))
        .entries[0]!;
      expect(JSON.parse(created.after!)).toMatchObject({ taxClass: "reduced", weightGrams: 1_250 });

      const edited = await editProduct(added.id, {
        intent: "update",
        ...FIELDS,
        taxClass: "zero",
        weight: "0.5",
      });
      expect(edited).toMatchObject({ ok: true, message: EDIT_MESSAGES.updated });
      expect(await classOf(t.db, added.id)).toBe("zero");
      expect(await weightsOf(t.db, added.id)).toEqual([500]);
      expect(await loaded(added.id)).toMatchObject({ taxClass: "zero", weightGrams: 500 });
      const [update] = (await listAuditLog(t.db, { entity: { type: "product", id: String(added.id) } }))
        .entries;
      expect(update!.action).toBe("product.update");
      expect(JSON.parse(update!.before!)).toMatchObject({ taxClass: "reduced", weightGrams: 1_250 });
      expect(JSON.parse(update!.after!)).toMatchObject({ taxClass: "zero", weightGrams: 500 });

      // an empty weight is 0; the class defaults to standard when none is named
      expect(await editProduct(added.id, { intent: "update", ...FIELDS, weight: "" })).toMatchObject({
        ok: true,
      });
      expect([await classOf(t.db, added.id), await weightsOf(t.db, added.id)]).toEqual(["standard", [0]]);
    });

    it("a new product without a weight weighs 0 and is standard", async () => {
      const added = await addProduct({ ...FIELDS, name: "Plain Kettle" });
      expect(added.ok).toBe(true);
      expect(await classOf(t.db, added.id)).toBe("standard");
      expect(await weightsOf(t.db, added.id)).toEqual([0]);
    });

    it("refuses a malformed weight or an unknown class beside the field, keeping what was typed; nothing saved", async () => {
      const products = async () =>
        Number(
          (
            await t.db
              .selectFrom("products")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await products();
      for (const weight of ["-1", "1,5", "0.0001", "2 kg", "1000.5", "heavy"]) {
        const refused = await addProduct({ ...FIELDS, name: "Refused Kettle", weight });
        expect(refused, weight).toMatchObject({
          ok: false,
          status: 400,
          message: PRODUCT_FORM_MESSAGES.invalid,
          fieldErrors: { weight: WEIGHT_MESSAGE },
          values: { weight },
        });
      }
      const unknown = await addProduct({ ...FIELDS, name: "Refused Kettle", taxClass: "luxury" });
      expect(unknown).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { taxClass: "Choose one of the tax classes." },
      });
      expect(await products()).toBe(before);

      const kept = await addProduct({ ...FIELDS, name: "Kept Kettle", weight: "2" });
      const refused = await editProduct(kept.id, { intent: "update", ...FIELDS, weight: "2,5" });
      expect(refused).toMatchObject({ ok: false, status: 400, fieldErrors: { weight: WEIGHT_MESSAGE } });
      expect(await weightsOf(t.db, kept.id)).toEqual([2_000]);
    });

    it("a product sold in variants: the class is saved, its variants keep their weights; a weight for all is refused", async () => {
      const { productId } = await insertProductWithVariants(t.db, {
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          { values: ["S"], sku: "MKT-TEE-S", priceCents: 2_000, stock: 1 },
          { values: ["M"], sku: "MKT-TEE-M", priceCents: 2_000, stock: 1 },
        ],
      });
      await t.db
        .updateTable("productVariants")
        .set({ weightGrams: 180 })
        .where("sku", "=", "MKT-TEE-S")
        .execute();
      await t.db
        .updateTable("productVariants")
        .set({ weightGrams: 200 })
        .where("sku", "=", "MKT-TEE-M")
        .execute();
      const product = (await getAdminProduct(t.db, productId))!;
      expect(product.weightGrams).toBeNull(); // each variant has its own (the grid shows them)
      const fields = {
        intent: "update",
        name: product.name,
        description: product.description,
        price: "20.00",
        category: product.categoryId,
        subcategory: product.subcategoryId ?? "",
        brand: product.brand,
      };
      // the page shows no weight field for it
      expect(await editProduct(productId, { ...fields, taxClass: "reduced" })).toMatchObject({ ok: true });
      expect(await classOf(t.db, productId)).toBe("reduced");
      expect(await weightsOf(t.db, productId)).toEqual([180, 200]);
      // a stale page (it had no options when loaded) posting one weight for all of them
      expect(await editProduct(productId, { ...fields, taxClass: "standard", weight: "1" })).toMatchObject({
        ok: false,
        status: 409,
        fieldErrors: { weight: EDIT_MESSAGES.weightPerVariant },
      });
      expect([await classOf(t.db, productId), await weightsOf(t.db, productId)]).toEqual([
        "reduced",
        [180, 200],
      ]);
    });
  });

  describe("the products CSV", () => {
    type Row = Record<string, string>;
    const rowsOf = async () => parse(await exportText(t.db), { columns: true }) as Row[];
    const catalogue = async () => ({
      products: await t.db.selectFrom("products").selectAll().orderBy("id").execute(),
      variants: await t.db.selectFrom("productVariants").selectAll().orderBy("id").execute(),
    });
    const idOf = async (slug: string) =>
      (await t.db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
    const importText = (text: string) => importProductsCsv(t.db, { currency: "USD" }, text);

    it("exports each product's class and each variant's weight in kg; a round trip changes nothing", async () => {
      const rows = await rowsOf();
      expect(Object.keys(rows[0]!)).toEqual([...PRODUCT_CSV_COLUMNS]);
      const book = rows.find((r) => r.slug === "the-patient-garden-hardcover")!;
      expect(book).toMatchObject({ taxClass: "reduced", variant_weight_kg: "0.75" });
      expect(
        rows.filter((r) => r.slug === "ironleaf-adjustable-dumbbell").map((r) => r.variant_weight_kg),
      ).toEqual(["12.5", "24.8"]);
      expect(rows.find((r) => r.slug === "lumen-book-pro-14")).toMatchObject({
        taxClass: "standard",
        variant_weight_kg: "1.6",
      });

      const before = await catalogue();
      const text = await exportText(t.db);
      expect(await importText(text)).toMatchObject({ ok: true, value: { created: 0, updated: 0 } });
      expect(await catalogue()).toEqual(before);
    });

    it("imports a changed class and weights; an empty cell keeps what is stored", async () => {
      const rows = await rowsOf();
      const mine = rows.filter((r) => r.slug === "ridgeway-road-cycling-helmet");
      expect(mine.map((r) => r.variant_weight_kg)).toEqual(["0.45", "0.48"]);
      mine[0]!.variant_weight_kg = "0.5";
      mine[1]!.variant_weight_kg = "";
      for (const row of mine) row.taxClass = "Reduced";
      const puzzle = rows.find((r) => r.slug === "brightfold-1000-piece-jigsaw-puzzle")!;
      puzzle.taxClass = "";
      puzzle.variant_weight_kg = "0.65";
      const text = stringify([...mine, puzzle], { header: true, columns: [...PRODUCT_CSV_COLUMNS] });
      expect(await importText(text)).toEqual({ ok: true, value: { created: 0, updated: 2, unchanged: 0 } });
      const helmet = await idOf("ridgeway-road-cycling-helmet");
      expect([await classOf(t.db, helmet), await weightsOf(t.db, helmet)]).toEqual(["reduced", [500, 480]]);
      const puzzleId = await idOf("brightfold-1000-piece-jigsaw-puzzle");
      expect([await classOf(t.db, puzzleId), await weightsOf(t.db, puzzleId)]).toEqual(["standard", [650]]);
    });

    it("an old file without the columns still imports and keeps every class and weight", async () => {
      const before = await catalogue();
      const rows = await rowsOf();
      // the variant layout before weights and classes
      const withoutNew = PRODUCT_CSV_COLUMNS.filter((c) => c !== "taxClass" && c !== "variant_weight_kg");
      expect(await importText(stringify(rows, { header: true, columns: withoutNew }))).toMatchObject({
        ok: true,
        value: { created: 0, updated: 0 },
      });
      // the layout before variants: one row per product
      const seen = new Set<string>();
      const single = rows.filter((r) => !seen.has(r.id!) && seen.add(r.id!));
      expect(
        await importText(stringify(single, { header: true, columns: [...PRODUCT_FIELD_COLUMNS] })),
      ).toMatchObject({ ok: true, value: { created: 0, updated: 0 } });
      expect(await catalogue()).toEqual(before);

      // a new product from an old file: standard, weighing nothing
      const fan = {
        slug: "zephyr-desk-fan",
        name: "Zephyr Desk Fan",
        description: "Quiet.",
        brand: "Zephyrco",
        category: "home",
        subcategory: "appliances",
        price: "39.50",
        stock: "3",
      };
      expect(
        await importText(stringify([fan], { header: true, columns: [...PRODUCT_FIELD_COLUMNS] })),
      ).toEqual({
        ok: true,
        value: { created: 1, updated: 0, unchanged: 0 },
      });
      const fanId = await idOf("zephyr-desk-fan");
      expect([await classOf(t.db, fanId), await weightsOf(t.db, fanId)]).toEqual(["standard", [0]]);
      // the same layout with a weight column: the one variant's
      const heavier = stringify([{ ...fan, variant_weight_kg: "2.4", taxClass: "exempt" }], {
        header: true,
        columns: [...PRODUCT_FIELD_COLUMNS, "taxClass", "variant_weight_kg"],
      });
      expect(await importText(heavier)).toEqual({
        ok: true,
        value: { created: 0, updated: 1, unchanged: 0 },
      });
      expect([await classOf(t.db, fanId), await weightsOf(t.db, fanId)]).toEqual(["exempt", [2_400]]);
    });

    it("refuses a malformed weight or class at its line, and a weight for a product sold in variants; nothing changes", async () => {
      const before = await catalogue();
      const rows = await rowsOf();
      const phone = rows.filter((r) => r.slug === "kestrel-x12-smartphone");
      phone[1]!.variant_weight_kg = "0,35";
      const watch = rows.filter((r) => r.slug === "veltro-classic-leather-watch");
      for (const row of watch) row.taxClass = "luxury";
      const text = stringify([...phone, ...watch], { header: true, columns: [...PRODUCT_CSV_COLUMNS] });
      const result = await importText(text);
      expect(result).toEqual({
        ok: false,
        error: {
          code: "invalid",
          problems: [
            {
              line: 3,
              message:
                'variant_weight_kg must be a weight in kg from 0 to 1000 with at most 3 decimals, like 0.25 (got "0,35")',
            },
            { line: 6, message: 'taxClass must be one of standard, reduced, zero, exempt (got "luxury")' },
          ],
        },
      });
      // the layout before variants, giving one weight to a product sold in several
      const single = { ...phone[0]!, variant_weight_kg: "0.4" };
      const old = stringify([single], {
        header: true,
        columns: [...PRODUCT_FIELD_COLUMNS, "variant_weight_kg"],
      });
      expect(await importText(old)).toMatchObject({
        ok: false,
        error: { problems: [{ line: 2, message: expect.stringContaining("variant_weight_kg") }] },
      });
      expect(await catalogue()).toEqual(before);
    });
  });
});
