import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { Database } from "../../app/db/database.server.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { generateSyntheticCatalog } from "../../app/db/seed/synthetic-catalog.ts";
import { exportProductsCsv, importProductsCsv } from "../../app/domain/catalog/admin/products-csv.server.ts";
import { PRODUCT_CSV_COLUMNS } from "../../app/domain/catalog/admin/products-csv.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

type Row = Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>;

/** The catalogue as the export's rows (objects by column). */
async function exportRows(db: Database): Promise<Row[]> {
  let text = "";
  for await (const chunk of exportProductsCsv(db, "USD")) text += chunk;
  return parse(text, { columns: true }) as Row[];
}
const toCsv = (rows: Row[]) => stringify(rows, { header: true, columns: [...PRODUCT_CSV_COLUMNS] });

const variantsOf = async (db: Database, slug: string) =>
  db
    .selectFrom("productVariants")
    .innerJoin("products", "products.id", "productVariants.productId")
    .select([
      "productVariants.id",
      "productVariants.sku",
      "productVariants.option1",
      "productVariants.option2",
      "productVariants.priceCents",
      "productVariants.stock",
      "productVariants.barcode",
      "productVariants.archivedAt",
    ])
    .where("products.slug", "=", slug)
    .orderBy("productVariants.position")
    .orderBy("productVariants.id")
    .execute();
const optionsOf = async (db: Database, slug: string) =>
  (
    await db
      .selectFrom("productOptions")
      .innerJoin("products", "products.id", "productOptions.productId")
      .select(["productOptions.name", "productOptions.optionValues"])
      .where("products.slug", "=", slug)
      .orderBy("productOptions.position")
      .execute()
  ).map((o) => ({ name: o.name, values: JSON.parse(o.optionValues) as string[] }));
const productOf = (db: Database, slug: string) =>
  db
    .selectFrom("products")
    .select(["id", "priceCents", "originalPriceCents", "stock", "updatedAt"])
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
const snapshot = async (db: Database) => ({
  products: await db.selectFrom("products").selectAll().orderBy("id").execute(),
  variants: await db.selectFrom("productVariants").selectAll().orderBy("id").execute(),
  options: await db
    .selectFrom("productOptions")
    .selectAll()
    .orderBy("productId")
    .orderBy("position")
    .execute(),
});

describe.each(ENGINES)("products CSV with variants on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")));
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("changes variants from their rows: prices and stock, a new combination, a row gone, options added", async () => {
    const rows = await exportRows(t.db);
    const phoneBefore = await variantsOf(t.db, "kestrel-x12-smartphone");
    const watchBefore = await variantsOf(t.db, "veltro-classic-leather-watch");
    const laptop = rows.find((r) => r.slug === "lumen-book-pro-14")!;
    const headphones = rows.filter((r) => r.slug === "aurora-anc-headphones");
    const edited = rows.flatMap((row): Row[] => {
      if (row.sku === "KES-X12-512-SIL") return [{ ...row, variant_price: "949.00", variant_stock: "4" }];
      if (row.sku === "VEL-CLS-44") return []; // the 44 mm watch is no longer sold
      if (row === headphones[1])
        return [
          row,
          {
            ...row,
            option1_value: "Forest",
            sku: "AUR-ANC-FOR",
            variant_stock: "12",
            barcode: "0012345678905",
          },
        ];
      if (row === laptop)
        // the laptop gains a Memory option: two rows where it had one
        return ["32 GB", "64 GB"].map((memory, i) => ({
          ...row,
          option1_name: "Memory",
          option1_value: memory,
          sku: `LUM-PRO14-${memory.replace(" ", "")}`,
          variant_price: i === 0 ? "1299.99" : "1599.99",
          variant_stock: i === 0 ? "5" : "2",
        }));
      return [row];
    });
    const now = new Date("2026-11-26T09:00:00.000Z");
    const result = await importProductsCsv(t.db, { currency: "USD" }, toCsv(edited), now);
    const productCount = new Set(rows.map((r) => r.id)).size;
    expect(result).toEqual({ ok: true, value: { created: 0, updated: 4, unchanged: productCount - 4 } });

    // the phone keeps its variant ids; one variant's price and stock changed
    const phone = await variantsOf(t.db, "kestrel-x12-smartphone");
    expect(phone.map((v) => v.id)).toEqual(phoneBefore.map((v) => v.id));
    expect(phone[3]).toMatchObject({ sku: "KES-X12-512-SIL", priceCents: 94_900, stock: 4 });
    expect(await productOf(t.db, "kestrel-x12-smartphone")).toMatchObject({
      priceCents: 89_999,
      stock: 42 + 15 + 8 + 4,
    });

    expect(await variantsOf(t.db, "aurora-anc-headphones")).toMatchObject([
      { sku: "AUR-ANC-MID", option1: "Midnight" },
      { sku: "AUR-ANC-SND", option1: "Sand" },
      { sku: "AUR-ANC-FOR", option1: "Forest", stock: 12, barcode: "0012345678905" },
    ]);
    expect(await optionsOf(t.db, "aurora-anc-headphones")).toEqual([
      { name: "Colour", values: ["Midnight", "Sand", "Forest"] },
    ]);

    // no order named the 44 mm watch: deleted, its value gone from the option
    const watch = await variantsOf(t.db, "veltro-classic-leather-watch");
    expect(watch.map((v) => v.id)).toEqual([watchBefore[0]!.id]);
    expect(await optionsOf(t.db, "veltro-classic-leather-watch")).toEqual([
      { name: "Case size", values: ["40 mm"] },
    ]);
    expect(await productOf(t.db, "veltro-classic-leather-watch")).toMatchObject({ stock: 15 });

    expect(await optionsOf(t.db, "lumen-book-pro-14")).toEqual([
      { name: "Memory", values: ["32 GB", "64 GB"] },
    ]);
    expect(await variantsOf(t.db, "lumen-book-pro-14")).toMatchObject([
      { sku: "LUM-PRO14-32GB", option1: "32 GB", priceCents: 129_999, stock: 5 },
      { sku: "LUM-PRO14-64GB", option1: "64 GB", priceCents: 159_999, stock: 2 },
    ]);
    expect(await productOf(t.db, "lumen-book-pro-14")).toMatchObject({
      priceCents: 129_999,
      stock: 7,
      updatedAt: now.toISOString(),
    });

    // and what it wrote exports as it was imported, which imports as nothing to do
    const again = await exportRows(t.db);
    expect(again).toEqual(
      edited.map((row) => {
        const summary = again.find((r) => r.id === row.id)!;
        return { ...row, price: summary.price, originalPrice: summary.originalPrice, stock: summary.stock };
      }),
    );
    expect(await importProductsCsv(t.db, { currency: "USD" }, toCsv(again))).toEqual({
      ok: true,
      value: { created: 0, updated: 0, unchanged: productCount },
    });
  });

  it("a removed combination an order line names is archived; the order keeps pointing at it", async () => {
    const rows = await exportRows(t.db);
    const [graphite] = await variantsOf(t.db, "kestrel-x12-smartphone");
    const number = await insertOrder(t.db, { userId: null, createdAt: new Date().toISOString() });
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("orderItems")
      .set({ variantId: graphite!.id })
      .where("orderId", "=", order.id)
      .execute();

    const result = await importProductsCsv(
      t.db,
      { currency: "USD" },
      toCsv(rows.filter((r) => r.sku !== graphite!.sku)),
    );
    expect(result.ok && result.value.updated).toBe(1);
    const phone = await variantsOf(t.db, "kestrel-x12-smartphone");
    const archived = phone.find((v) => v.id === graphite!.id)!;
    expect(archived.archivedAt).not.toBeNull();
    expect(archived.sku).toBe(`${graphite!.sku}~${graphite!.id}`);
    expect((await exportRows(t.db)).some((r) => r.sku === graphite!.sku)).toBe(false);
  });

  it("creates a product with variants from rows with a slug and no id", async () => {
    const rows = await exportRows(t.db);
    const template = rows.find((r) => r.option1_name === "")!;
    const tee = (size: string, price: string, stock: string): Row => ({
      ...template,
      id: "",
      slug: "csv-variant-tee",
      name: "CSV Variant Tee",
      price: "",
      originalPrice: "",
      stock: "",
      option1_name: "Size",
      option1_value: size,
      sku: `CSV-TEE-${size}`,
      variant_price: price,
      variant_original_price: "30.00",
      variant_stock: stock,
      barcode: "",
    });
    const result = await importProductsCsv(
      t.db,
      { currency: "USD" },
      toCsv([...rows, tee("S", "25.00", "4"), tee("M", "20.00", "0")]),
    );
    expect(result.ok && result.value).toMatchObject({ created: 1, updated: 0 });
    expect(await optionsOf(t.db, "csv-variant-tee")).toEqual([{ name: "Size", values: ["S", "M"] }]);
    expect(await variantsOf(t.db, "csv-variant-tee")).toMatchObject([
      { sku: "CSV-TEE-S", option1: "S", priceCents: 2500, stock: 4 },
      { sku: "CSV-TEE-M", option1: "M", priceCents: 2000, stock: 0 },
    ]);
    // the product row is their summary: the cheapest variant's prices, the summed stock
    expect(await productOf(t.db, "csv-variant-tee")).toMatchObject({
      priceCents: 2000,
      originalPriceCents: 3000,
      stock: 4,
    });
  });

  it("refuses a SKU another product holds and a stray row with FILE:LINE problems, writing nothing", async () => {
    const rows = await exportRows(t.db);
    const before = await snapshot(t.db);
    const phoneAt = rows.findIndex((r) => r.slug === "kestrel-x12-smartphone");
    // a file of only some products: a phone variant takes the headphones' SKU, another stock changes
    const edited = rows
      .filter((r) => r.slug !== "aurora-anc-headphones")
      .map((row, i) =>
        i === phoneAt
          ? { ...row, sku: "AUR-ANC-MID" }
          : i === phoneAt + 1
            ? { ...row, variant_stock: "999" }
            : row,
      );
    const headphones = await productOf(t.db, "aurora-anc-headphones");
    const result = await importProductsCsv(t.db, { currency: "USD" }, toCsv(edited));
    expect(result).toEqual({
      ok: false,
      error: {
        code: "invalid",
        problems: [
          {
            line: phoneAt + 2,
            message: `sku "AUR-ANC-MID" belongs to product ${headphones.id} ("aurora-anc-headphones")`,
          },
        ],
      },
    });
    // rows of one product apart: refused by the reader with their lines
    const apart = [...rows.slice(0, phoneAt), ...rows.slice(phoneAt + 1), rows[phoneAt]!];
    const stray = await importProductsCsv(t.db, { currency: "USD" }, toCsv(apart));
    expect(!stray.ok && stray.error.problems).toEqual([
      {
        line: rows.length + 1,
        message: `the rows of the product with id ${rows[phoneAt]!.id} must be consecutive (it starts on line ${phoneAt + 2})`,
      },
    ]);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("a round trip of more products than one lookup holds (500) writes nothing either", async () => {
    await generateSyntheticCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")), { count: 600 });
    const before = await snapshot(t.db);
    const rows = await exportRows(t.db);
    expect(await importProductsCsv(t.db, { currency: "USD" }, toCsv(rows))).toEqual({
      ok: true,
      value: {
        created: 0,
        updated: 0,
        unchanged: before.products.filter((p) => p.archivedAt === null).length,
      },
    });
    expect(await snapshot(t.db)).toEqual(before);
  });
});
