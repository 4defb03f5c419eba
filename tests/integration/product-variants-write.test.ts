import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { writeProductVariants as writeVariants } from "../../app/domain/catalog/admin/product-variants.server.ts";
import { type ProductVariantsInput, productVariantsInputSchema } from "../../app/lib/variant-input.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";

/** The writer as staff use it: its stock through the inventory, as a count by staff. */
const writeProductVariants = (db: Database, productId: number, input: ProductVariantsInput) =>
  writeVariants(db, productId, input, { reason: "admin_set", actor: "system" });

const variantsOf = (db: Database, productId: number) =>
  db
    .selectFrom("productVariants")
    .select([
      "id",
      "sku",
      "option1",
      "option2",
      "priceCents",
      "originalPriceCents",
      "stock",
      "barcode",
      "position",
      "archivedAt",
    ])
    .where("productId", "=", productId)
    .orderBy("id")
    .execute();
const optionsOf = async (db: Database, productId: number) =>
  (
    await db
      .selectFrom("productOptions")
      .select(["position", "name", "optionValues"])
      .where("productId", "=", productId)
      .orderBy("position")
      .execute()
  ).map((o) => ({ position: o.position, name: o.name, values: JSON.parse(o.optionValues) }));
const summaryOf = (db: Database, productId: number) =>
  db
    .selectFrom("products")
    .select(["priceCents", "originalPriceCents", "discountPercentage", "stock"])
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
const catalogVersion = async (db: Database) =>
  (await db.selectFrom("catalogVersion").select("version").executeTakeFirstOrThrow()).version;

/** What the callers hand the writer: an input the one schema accepts. */
const checked = (input: ProductVariantsInput) => productVariantsInputSchema.parse(input);
const variant = (
  values: string[],
  sku: string | null,
  priceCents = 1000,
  stock = 1,
  more: Partial<ProductVariantsInput["variants"][number]> = {},
) => ({ values, sku, priceCents, originalPriceCents: null, stock, barcode: null, weightGrams: 0, ...more });

/** An order whose one line names this variant (as Place Order writes it). */
async function orderNaming(db: Database, variantId: number) {
  const number = await insertOrder(db, { userId: null, createdAt: new Date().toISOString() });
  const order = await db
    .selectFrom("orders")
    .select("id")
    .where("number", "=", number)
    .executeTakeFirstOrThrow();
  const line = await db
    .selectFrom("orderItems")
    .select("id")
    .where("orderId", "=", order.id)
    .executeTakeFirstOrThrow();
  await db.updateTable("orderItems").set({ variantId }).where("id", "=", line.id).execute();
}

let unique = 0;
const sku = (name: string) => `${name}-${++unique}`;

describe.each(ENGINES)("writeProductVariants on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("adds options to a product sold as one variant: the default goes, the grid comes, the summary follows", async () => {
    const productId = await insertProduct(t.db, { priceCents: 1500, stock: 4 });
    const [single] = await variantsOf(t.db, productId);
    const [small, medium] = [sku("TEE-S"), sku("TEE-M")];
    const result = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          variant(["S"], small, 1200, 3, { originalPriceCents: 1500, barcode: "4006381333931" }),
          variant(["M"], medium, 1300, 2),
        ],
      }),
    );
    expect(result).toEqual({
      ok: true,
      value: { added: 2, updated: 0, unchanged: 0, deleted: 1, archived: 0, optionsChanged: true },
    });
    expect(await optionsOf(t.db, productId)).toEqual([{ position: 1, name: "Size", values: ["S", "M"] }]);
    const variants = await variantsOf(t.db, productId);
    expect(variants.map((v) => v.id)).not.toContain(single!.id); // no order named it: deleted
    expect(variants).toMatchObject([
      {
        sku: small,
        option1: "S",
        priceCents: 1200,
        originalPriceCents: 1500,
        stock: 3,
        barcode: "4006381333931",
        position: 0,
      },
      { sku: medium, option1: "M", priceCents: 1300, stock: 2, position: 1 },
    ]);
    expect(await summaryOf(t.db, productId)).toEqual({
      priceCents: 1200,
      originalPriceCents: 1500,
      discountPercentage: 20,
      stock: 5,
    });
  });

  it("archives the default variant an order line names when options are added", async () => {
    const productId = await insertProduct(t.db);
    const [single] = await variantsOf(t.db, productId);
    await orderNaming(t.db, single!.id);
    const result = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Colour", values: ["Red"] }],
        variants: [variant(["Red"], null, 900, 7)],
      }),
    );
    expect(result.ok && result.value).toMatchObject({ added: 1, deleted: 0, archived: 1 });
    const variants = await variantsOf(t.db, productId);
    expect(variants[0]).toMatchObject({ id: single!.id, sku: `${single!.sku}~${single!.id}` });
    expect(variants[0]!.archivedAt).not.toBeNull();
    // a variant given no SKU gets one of the shop's own
    expect(variants[1]).toMatchObject({
      sku: `CW-${productId}-${variants[1]!.id}`,
      option1: "Red",
      archivedAt: null,
    });
    expect((await summaryOf(t.db, productId)).stock).toBe(7);
  });

  it("keeps ids per combination while SKUs are swapped and renamed", async () => {
    const [a, b] = [sku("SW-A"), sku("SW-B")];
    const { productId, variantIds } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: a, priceCents: 1000, stock: 1 },
        { values: ["M"], sku: b, priceCents: 1000, stock: 1 },
      ],
    });
    const swapped = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [variant(["S"], b), variant(["M"], a)],
      }),
    );
    expect(swapped.ok && swapped.value).toMatchObject({
      added: 0,
      updated: 2,
      deleted: 0,
      optionsChanged: false,
    });
    expect((await variantsOf(t.db, productId)).map((v) => [v.id, v.sku])).toEqual([
      [variantIds[0], b],
      [variantIds[1], a],
    ]);

    // renamed, and "s" written in another case is still the same combination
    const renamed = sku("SW-NEW");
    await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["s", "M"] }],
        variants: [variant(["s"], renamed), variant(["M"], a)],
      }),
    );
    expect(await variantsOf(t.db, productId)).toMatchObject([
      { id: variantIds[0], sku: renamed, option1: "s" },
      { id: variantIds[1], sku: a, option1: "M" },
    ]);
    // the freed SKU is free for another product
    const other = await insertProduct(t.db);
    const reused = await writeProductVariants(
      t.db,
      other,
      checked({ options: [], variants: [variant([], b)] }),
    );
    expect(reused.ok).toBe(true);
  });

  it("removing a combination: archived when an order line names it, deleted otherwise", async () => {
    const skus = [sku("RM-S"), sku("RM-M"), sku("RM-L")];
    const { productId, variantIds } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M", "L"] }],
      variants: skus.map((s, i) => ({
        values: [["S", "M", "L"][i]!],
        sku: s,
        priceCents: 1000 + i,
        stock: 2,
      })),
    });
    await orderNaming(t.db, variantIds[1]!);
    const result = await writeProductVariants(
      t.db,
      productId,
      checked({ options: [{ name: "Size", values: ["S"] }], variants: [variant(["S"], skus[0]!, 1000, 2)] }),
    );
    expect(result).toEqual({
      ok: true,
      value: { added: 0, updated: 0, unchanged: 1, deleted: 1, archived: 1, optionsChanged: true },
    });
    const variants = await variantsOf(t.db, productId);
    expect(variants.map((v) => v.id)).toEqual([variantIds[0], variantIds[1]]);
    expect(variants[1]).toMatchObject({ sku: `${skus[1]}~${variantIds[1]}` });
    expect(variants[1]!.archivedAt).not.toBeNull();
    const line = await t.db
      .selectFrom("orderItems")
      .select("variantId")
      .where("variantId", "=", variantIds[1]!)
      .executeTakeFirst();
    expect(line).toBeDefined();
    expect(await summaryOf(t.db, productId)).toMatchObject({ priceCents: 1000, stock: 2 });

    // the archived variant's SKU can be given again to a live variant of the product
    const again = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [variant(["S"], skus[0]!, 1000, 2), variant(["M"], skus[1]!, 1001, 4)],
      }),
    );
    expect(again.ok && again.value).toMatchObject({ added: 1, archived: 0 });
  });

  it("an archived variant (admin removal keeps its SKU) gives it up to a new live variant of its product", async () => {
    const [s, m] = [sku("AR-S"), sku("AR-M")];
    const { productId, variantIds } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: s, priceCents: 1000, stock: 1 },
        { values: ["M"], sku: m, priceCents: 1000, stock: 1 },
      ],
    });
    await t.db
      .updateTable("productVariants")
      .set({ archivedAt: new Date().toISOString() })
      .where("id", "=", variantIds[1]!)
      .execute();
    const result = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [variant(["S"], s), variant(["M"], m)],
      }),
    );
    expect(result.ok && result.value).toMatchObject({ added: 1, unchanged: 1 });
    const variants = await variantsOf(t.db, productId);
    expect(variants.find((v) => v.id === variantIds[1])!.sku).toBe(`${m}~${variantIds[1]}`);
    expect(variants.filter((v) => v.archivedAt === null).map((v) => v.sku)).toEqual([s, m]);
  });

  it("refuses a SKU another product holds before writing anything; the caller's transaction rolls back", async () => {
    const held = sku("HELD");
    const holder = await insertProduct(t.db);
    await writeProductVariants(t.db, holder, checked({ options: [], variants: [variant([], held)] }));
    const { productId } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: sku("MINE-S"), priceCents: 1000, stock: 1 },
        { values: ["M"], sku: sku("MINE-M"), priceCents: 1000, stock: 1 },
      ],
    });
    const before = {
      variants: await variantsOf(t.db, productId),
      options: await optionsOf(t.db, productId),
      summary: await summaryOf(t.db, productId),
      version: await catalogVersion(t.db),
    };
    const input = checked({
      options: [{ name: "Colour", values: ["Red", "Blue"] }],
      variants: [variant(["Red"], sku("NEW-RED"), 500, 9), variant(["Blue"], held, 500, 9)],
    });
    const refusal = new Error("refused");
    await expect(
      t.db.transaction().execute(async (trx) => {
        // another product written first in the same transaction is rolled back with it
        await writeProductVariants(
          trx,
          holder,
          checked({ options: [], variants: [variant([], held, 1, 1)] }),
        );
        const result = await writeProductVariants(trx, productId, input);
        expect(result).toEqual({ ok: false, error: { code: "sku-taken", sku: held } });
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect({
      variants: await variantsOf(t.db, productId),
      options: await optionsOf(t.db, productId),
      summary: await summaryOf(t.db, productId),
      version: await catalogVersion(t.db),
    }).toEqual(before);
    // and refused without a transaction: it wrote nothing before saying so
    expect((await writeProductVariants(t.db, productId, input)).ok).toBe(false);
    expect(await variantsOf(t.db, productId)).toEqual(before.variants);
    expect(await optionsOf(t.db, productId)).toEqual(before.options);
  });

  it("refuses to give a SKU that a kept variant left without a SKU keeps", async () => {
    const [s, m] = [sku("KEEP-S"), sku("KEEP-M")];
    const { productId } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: s, priceCents: 1000, stock: 1 },
        { values: ["M"], sku: m, priceCents: 1000, stock: 1 },
      ],
    });
    const before = await variantsOf(t.db, productId);
    const result = await writeProductVariants(
      t.db,
      productId,
      checked({
        options: [{ name: "Size", values: ["S", "M", "L"] }],
        variants: [variant(["S"], null), variant(["M"], m), variant(["L"], s)],
      }),
    );
    expect(result).toEqual({ ok: false, error: { code: "sku-taken", sku: s } });
    expect(await variantsOf(t.db, productId)).toEqual(before);
  });

  it("writing what is stored writes nothing: no variant, option, summary or catalogue version changes", async () => {
    const [s, m] = [sku("SAME-S"), sku("SAME-M")];
    const { productId } = await insertProductWithVariants(t.db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: s, priceCents: 1000, originalPriceCents: 1200, stock: 1 },
        { values: ["M"], sku: m, priceCents: 1100, stock: 0 },
      ],
    });
    const input = checked({
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [variant(["S"], s, 1000, 1, { originalPriceCents: 1200 }), variant(["M"], m, 1100, 0)],
    });
    const before = { variants: await variantsOf(t.db, productId), version: await catalogVersion(t.db) };
    expect(await writeProductVariants(t.db, productId, input)).toEqual({
      ok: true,
      value: { added: 0, updated: 0, unchanged: 2, deleted: 0, archived: 0, optionsChanged: false },
    });
    expect({ variants: await variantsOf(t.db, productId), version: await catalogVersion(t.db) }).toEqual(
      before,
    );
    // the same again with a new stock: one update, the summary follows
    const changed = await writeProductVariants(t.db, productId, {
      ...input,
      variants: [input.variants[0]!, { ...input.variants[1]!, stock: 6 }],
    });
    expect(changed.ok && changed.value).toMatchObject({ updated: 1, unchanged: 1 });
    expect((await summaryOf(t.db, productId)).stock).toBe(7);
  });
});
