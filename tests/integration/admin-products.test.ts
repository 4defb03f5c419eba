import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import type { Database } from "../../app/db/database.server.ts";
import { seedCategories } from "../../app/db/seed/seed.server.ts";
import { listAuditLog } from "../../app/domain/audit/audit-list.server.ts";
import { EDIT_MESSAGES } from "../../app/domain/catalog/admin/edit-product.server.ts";
import { deleteProduct } from "../../app/domain/catalog/admin/product-delete.server.ts";
import { PRODUCT_FORM_MESSAGES } from "../../app/domain/catalog/admin/product-form.ts";
import {
  getAdminProduct,
  listAdminProducts,
  listLowStockProducts,
} from "../../app/domain/catalog/admin/product-list.server.ts";
import { listBrands, searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { getProductDetail } from "../../app/domain/catalog/product-detail.server.ts";
import { advanceOrder, getAdminOrder, listAdminOrders } from "../../app/domain/orders/order-admin.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import * as newProductRoute from "../../app/routes/admin.products.new.tsx";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { defaultVariantOf, insertImage, insertProduct } from "../helpers/catalog.ts";
import { gif, hugeDimensionPng, jpegWithGps, oversizedJpeg, PDF, png, SVG, TEXT } from "../helpers/images.ts";
import { readOutbox } from "../helpers/outbox.ts";

const ACTOR = { id: "admin-user-1", email: "admin@example.com", role: "owner" as const };

const FIELDS = {
  name: "Zephyr Trail Backpack",
  description: "A light 28 litre pack for day hikes.",
  price: "89.99",
  originalPrice: "119.99",
  category: "sports",
  subcategory: "running",
  brand: "Zephyr",
  stock: "12",
};

type FileSpec = { name: string; bytes: Uint8Array; type?: string };

function formRequest(path: string, fields: Record<string, string | string[]>, files: FileSpec[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  for (const file of files) {
    form.append(
      "images",
      new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type ?? "image/jpeg" }),
    );
  }
  if (files.length === 0) form.append("images", new File([], "", { type: "application/octet-stream" }));
  return new Request(`http://shop.test${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: ADMIN_COOKIE },
  });
}

describe.each(ENGINES)("admin product management on %s", (engine) => {
  let t: TestDatabase;
  let files: FileStore;
  let uploadsDir: string;
  let logged: string[];
  const deps = () => ({ db: t.db, files, log: (message: string) => logged.push(message) });
  const storedFiles = () => {
    try {
      return readdirSync(join(uploadsDir, "products"));
    } catch {
      return [];
    }
  };
  const count = async (table: "products" | "productImages" | "auditLog") =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const search = async (term: string) =>
    (await searchProducts(t.db, parseListingQuery(new URLSearchParams({ search: term })))).products.map(
      (p) => p.name,
    );

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedCategories(t.db);
    uploadsDir = join(t.dir, "uploads");
    files = createLocalFileStore(uploadsDir);
  });
  afterAll(async () => {
    await t?.destroy();
  });
  beforeEach(() => {
    logged = [];
  });

  /** POST /admin/products/new as the admin (statuses, messages, toast as the page shows them). */
  async function addProduct(fields: Record<string, string | string[]> = FIELDS, images?: FileSpec[]) {
    const request = formRequest(
      "/admin/products/new",
      fields,
      images ?? [{ name: "front.jpg", bytes: await jpegWithGps() }],
    );
    const answer = await adminAction(newProductRoute.action, request, adminContext(deps(), ACTOR));
    if (!answer.ok) return answer;
    expect(answer).toMatchObject({ status: 302, location: "/admin", message: PRODUCT_FORM_MESSAGES.added });
    const { id, slug } = await t.db
      .selectFrom("products")
      .select(["id", "slug"])
      .where("name", "=", String(fields.name).trim())
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return { ...answer, id, slug };
  }
  /** POST /admin/products/:id (one of the edit page's forms) as the admin. */
  function editProduct(id: number, fields: Record<string, string | string[]>, images: FileSpec[] = []) {
    return adminAction(
      editProductRoute.action,
      formRequest(`/admin/products/${id}`, fields, images),
      adminContext(deps(), ACTOR),
      { id: String(id) },
    );
  }

  it("adds a product with images: listed, searchable, faceted, on its page, audited; EXIF GPS gone", async () => {
    const before = storedFiles().length;
    const outcome = await addProduct(FIELDS, [
      { name: "front.jpg", bytes: await jpegWithGps(1200, 800) },
      { name: "side.png", bytes: await png(), type: "image/png" },
      { name: "spin.gif", bytes: await gif(), type: "image/gif" },
    ]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.slug).toBe("zephyr-trail-backpack");

    const product = await getAdminProduct(t.db, outcome.id);
    expect(product).toMatchObject({
      name: FIELDS.name,
      priceCents: 8999,
      originalPriceCents: 11999,
      stock: 12,
      rating: 0,
      reviewCount: 0,
      categoryId: "sports",
      subcategoryId: "running",
    });
    expect(product?.images).toHaveLength(3);
    // three WebP widths per image, server-generated names (never the uploader's)
    const written = storedFiles().slice(before);
    expect(storedFiles().length - before).toBe(9);
    expect(written.every((name) => /^u-[0-9a-f-]{36}-\d+\.webp$/.test(name))).toBe(true);
    expect(written.some((name) => name.includes("front"))).toBe(false);

    // metadata stripped: no EXIF block at all (so no GPS, no camera make)
    const first = product!.images[0]!;
    expect(first.width).toBe(960);
    for (const width of first.widths) {
      const bytes = await files.get(`${first.key}-${width}.webp`);
      expect(bytes).not.toBeNull();
      const meta = await sharp(bytes!).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.exif).toBeUndefined();
      expect(Buffer.from(bytes!).includes("LeakyCam")).toBe(false);
    }

    // the storefront sees it at once: search index, facets, product page
    expect(await search("zephyr trail")).toContain(FIELDS.name);
    expect(await search("backpack")).toContain(FIELDS.name);
    expect((await listBrands(t.db)).map((b) => b.label)).toContain("Zephyr");
    const detail = await getProductDetail(t.db, outcome.slug);
    expect(detail?.name).toBe(FIELDS.name);
    expect((await listAdminProducts(t.db, { search: "zephyr" })).products.map((p) => p.id)).toContain(
      outcome.id,
    );

    const { entries } = await listAuditLog(t.db, { entity: { type: "product", id: String(outcome.id) } });
    expect(entries[0]).toMatchObject({ action: "product.create", actorEmail: ACTOR.email });
    expect(JSON.parse(entries[0]!.after!)).toMatchObject({ name: FIELDS.name, stock: 12 });
  });

  it("refuses a form without images, or with missing fields, with the spec's messages", async () => {
    const products = await count("products");
    const noImages = await addProduct(FIELDS, []);
    expect(noImages).toMatchObject({ ok: false, status: 400, message: "Please select at least one image" });

    const missing = await addProduct({ ...FIELDS, name: "", brand: " ", stock: "" });
    expect(missing).toMatchObject({
      ok: false,
      status: 400,
      message: "Please fill in all required fields: name, brand, stock",
    });
    if (!missing.ok) expect(missing.values.description).toBe(FIELDS.description);

    const negative = await addProduct({ ...FIELDS, price: "-1", stock: "1.5" });
    expect(negative.ok).toBe(false);
    if (!negative.ok) expect(Object.keys(negative.fieldErrors).sort()).toEqual(["price", "stock"]);
    expect(await count("products")).toBe(products);
  });

  it.each([
    ["a text file renamed .jpg", { name: "notes.jpg", bytes: TEXT, type: "image/jpeg" }],
    ["an SVG", { name: "logo.svg", bytes: SVG, type: "image/svg+xml" }],
    ["a PDF", { name: "manual.pdf", bytes: PDF, type: "application/pdf" }],
  ])("rejects %s by its content, leaving nothing behind", async (_label, file) => {
    const [products, images, audit, stored] = [
      await count("products"),
      await count("productImages"),
      await count("auditLog"),
      storedFiles().length,
    ];
    // a valid image first: it must not be kept either
    const outcome = await addProduct({ ...FIELDS, name: "Rejected thing" }, [
      { name: "ok.jpg", bytes: await jpegWithGps() },
      file,
    ]);
    expect(outcome).toMatchObject({
      ok: false,
      status: 415,
      message: "Some files were rejected. Only JPG, PNG, and GIF images are allowed.",
    });
    expect([await count("products"), await count("productImages"), await count("auditLog")]).toEqual([
      products,
      images,
      audit,
    ]);
    expect(storedFiles().length).toBe(stored);
  });

  it("cuts off an 11 MB JPEG while streaming (413) and keeps nothing", async () => {
    const [products, stored] = [await count("products"), storedFiles().length];
    const outcome = await addProduct({ ...FIELDS, name: "Too big" }, [
      { name: "big.jpg", bytes: oversizedJpeg(11) },
    ]);
    expect(outcome).toMatchObject({ ok: false, status: 413, message: PRODUCT_FORM_MESSAGES.fileTooLarge });
    expect(await count("products")).toBe(products);
    expect(storedFiles().length).toBe(stored);
  });

  it("refuses a huge-dimension PNG: logs the upload failure, stores nothing (even the valid image before it)", async () => {
    const [products, stored] = [await count("products"), storedFiles().length];
    const outcome = await addProduct({ ...FIELDS, name: "Bomb" }, [
      { name: "fine.jpg", bytes: await jpegWithGps() },
      { name: "huge.png", bytes: hugeDimensionPng(), type: "image/png" },
    ]);
    expect(outcome).toMatchObject({
      ok: false,
      status: 422,
      message: "Failed to add product. Please try again.",
    });
    if (!outcome.ok) expect(outcome.details.join(" ")).toMatch(/huge\.png has too many pixels/);
    expect(logged).toEqual(["Failed to upload image: huge.png"]);
    expect(await count("products")).toBe(products);
    expect(storedFiles().length).toBe(stored);
  });

  it("edits every field, specifications and flags; the storefront follows", async () => {
    const added = await addProduct({
      ...FIELDS,
      name: "Granite Kettle",
      brand: "Stoneware",
      category: "home",
      subcategory: "kitchen",
    });
    if (!added.ok) throw new Error("setup failed");
    const outcome = await editProduct(added.id, {
      intent: "update",
      name: "Basalt Kettle",
      description: "Boils fast.",
      price: "49.50",
      originalPrice: "",
      category: "home",
      subcategory: "appliances",
      brand: "Lavaworks",
      specName: ["Capacity", "Power", ""],
      specValue: ["1.7 l", "2200 W", ""],
      featured: "on",
      bestSeller: "on",
    });
    expect(outcome).toMatchObject({ ok: true, message: EDIT_MESSAGES.updated });
    const product = await getAdminProduct(t.db, added.id);
    expect(product).toMatchObject({
      name: "Basalt Kettle",
      priceCents: 4950,
      originalPriceCents: null,
      subcategoryId: "appliances",
      brand: "Lavaworks",
      specifications: { Capacity: "1.7 l", Power: "2200 W" },
      featured: true,
      newArrival: false,
      bestSeller: true,
      stock: 12,
    });
    expect(await search("basalt")).toContain("Basalt Kettle");
    expect(await search("granite")).not.toContain("Granite Kettle");
    const brands = (await listBrands(t.db)).map((b) => b.label);
    expect(brands).toContain("Lavaworks");
    expect(brands).not.toContain("Stoneware");
    const featured = await searchProducts(t.db, parseListingQuery(new URLSearchParams({ featured: "true" })));
    expect(featured.products.map((p) => p.name)).toContain("Basalt Kettle");

    const { entries } = await listAuditLog(t.db, { entity: { type: "product", id: String(added.id) } });
    expect(entries[0]?.action).toBe("product.update");
    expect(JSON.parse(entries[0]!.before!)).toMatchObject({ name: "Granite Kettle", brand: "Stoneware" });
    expect(JSON.parse(entries[0]!.after!)).toMatchObject({ name: "Basalt Kettle", brand: "Lavaworks" });

    const refused = await editProduct(added.id, { intent: "update", ...FIELDS, name: "" });
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      message: "Please fill in all required fields: name",
    });
  });

  it("adjusts stock by a delta, never below 0, audited before/after; low-stock view follows", async () => {
    const id = await insertProduct(t.db, { name: "Stocky", stock: 12 });
    const edit = (delta: string) => editProduct(id, { intent: "stock", delta });
    expect(await edit("-5")).toMatchObject({ ok: true });
    expect((await getAdminProduct(t.db, id))?.stock).toBe(7);
    expect((await listLowStockProducts(t.db)).map((p) => p.id)).toContain(id);
    expect(await edit("-8")).toMatchObject({ ok: false, status: 409, message: EDIT_MESSAGES.stockNegative });
    expect(await edit("abc")).toMatchObject({ ok: false, status: 400 });
    expect(await edit("+10")).toMatchObject({ ok: true });
    expect((await getAdminProduct(t.db, id))?.stock).toBe(17);
    const { entries } = await listAuditLog(t.db, { entity: { type: "product", id: String(id) } });
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["product.stock", '{"stock":7}', '{"stock":17}'],
      ["product.stock", '{"stock":12}', '{"stock":7}'],
    ]);
  });

  it("reorders, adds and removes images; the last one stays", async () => {
    const added = await addProduct({ ...FIELDS, name: "Gallery Lamp" }, [
      { name: "a.jpg", bytes: await jpegWithGps() },
      { name: "b.png", bytes: await png(), type: "image/png" },
    ]);
    if (!added.ok) throw new Error("setup failed");
    const edit = (fields: Record<string, string>, images: FileSpec[] = []) =>
      editProduct(added.id, fields, images);
    const keys = async () => (await getAdminProduct(t.db, added.id))!.images.map((i) => i.key);
    const ids = async () => (await getAdminProduct(t.db, added.id))!.images.map((i) => i.id);
    const [a, b] = await keys();
    const [idA] = await ids();
    expect(await edit({ intent: "move-image", imageId: String(idA), direction: "down" })).toMatchObject({
      ok: true,
    });
    expect(await keys()).toEqual([b, a]);
    expect(
      await edit({ intent: "add-images" }, [{ name: "c.gif", bytes: await gif(), type: "image/gif" }]),
    ).toMatchObject({
      ok: true,
    });
    expect(await keys()).toHaveLength(3);
    expect(
      await edit({ intent: "add-images" }, [{ name: "evil.svg", bytes: SVG, type: "image/svg+xml" }]),
    ).toMatchObject({ ok: false, message: PRODUCT_FORM_MESSAGES.rejectedFiles });
    const before = storedFiles().length;
    for (const imageId of (await ids()).slice(0, 2)) {
      expect(await edit({ intent: "remove-image", imageId: String(imageId) })).toMatchObject({ ok: true });
    }
    expect(storedFiles().length).toBe(before - 6);
    const [last] = await ids();
    expect(await edit({ intent: "remove-image", imageId: String(last) })).toMatchObject({
      ok: false,
      message: EDIT_MESSAGES.lastImage,
    });
  });

  it("deletes a product nobody ordered (rows and files), archives one in an order", async () => {
    const gone = await addProduct({ ...FIELDS, name: "Ephemeral Mug" });
    const kept = await addProduct({ ...FIELDS, name: "Historic Mug" });
    if (!gone.ok || !kept.ok) throw new Error("setup failed");
    const filesBefore = storedFiles().length;
    const deleted = await deleteProduct(deps(), { id: gone.id, actor: ACTOR });
    expect(deleted).toEqual({ ok: true, value: "deleted" });
    expect(await getAdminProduct(t.db, gone.id)).toBeNull();
    expect(storedFiles().length).toBe(filesBefore - 3);
    expect(await search("ephemeral")).toEqual([]);

    const number = await insertOrder(t.db, { userId: null, createdAt: "2026-11-20T10:00:00.000Z" });
    await t.db
      .updateTable("orderItems")
      .set({ productId: kept.id, name: "Historic Mug" })
      .where("orderId", "=", (await getAdminOrder(t.db, number))!.id)
      .execute();
    const archived = await deleteProduct(deps(), { id: kept.id, actor: ACTOR });
    expect(archived).toEqual({ ok: true, value: "archived" });
    const row = await getAdminProduct(t.db, kept.id);
    expect(row?.archivedAt).not.toBeNull();
    expect(await search("historic")).toEqual([]);
    expect(await getProductDetail(t.db, kept.slug)).toBeNull();
    expect((await listAdminProducts(t.db, { search: "historic" })).products).toEqual([]);
    expect(storedFiles().length).toBe(filesBefore - 3); // the archived product keeps its pictures
    const order = await getAdminOrder(t.db, number);
    expect(order?.items.some((item) => item.productId === kept.id && item.name === "Historic Mug")).toBe(
      true,
    );
    // deleting again is a clean failure, not an error
    expect(await deleteProduct(deps(), { id: kept.id, actor: ACTOR })).toEqual({
      ok: false,
      error: { code: "not-found" },
    });

    const actions = (await listAuditLog(t.db)).entries.map((e) => e.action);
    expect(actions).toContain("product.delete");
    expect(actions).toContain("product.archive");
  });

  it("lists products page by page with a search", async () => {
    for (let i = 0; i < 23; i++)
      await insertProduct(t.db, { name: `Paged Widget ${i}`, brand: "Pagination Co" });
    const first = await listAdminProducts(t.db, { search: "paged widget" });
    expect(first.total).toBe(23);
    expect(first.pageCount).toBe(2);
    expect(first.products).toHaveLength(20);
    const second = await listAdminProducts(t.db, { search: "paged widget", page: 2 });
    expect(second.products).toHaveLength(3);
    expect((await listAdminProducts(t.db, { search: "100%_" })).total).toBe(0);
  });

  const gatewayOf = (db: Database) =>
    createTestGateway({ processingDelayMs: 0, secret: "admin-products-test-secret-0123456789", db });
  const mailDir = () => join(t.dir, "mail");
  const services = () => ({
    db: t.db,
    gateway: gatewayOf(t.db),
    mail: createMailer(`file:${mailDir()}`, { from: "shop@example.com" }),
    shop: { shopName: "Cartwheel", taxLabel: "Including VAT", publicUrl: "http://shop.test" },
  });

  it("moves orders along the transition table; cancelling restores stock and refunds; audited", async () => {
    const id = await insertProduct(t.db, { name: "Order Thing", stock: 3 });
    await insertImage(t.db, id, 0);
    const make = async () => {
      const number = await insertOrder(t.db, {
        userId: null,
        createdAt: new Date().toISOString(),
        items: [{ name: "Order Thing", quantity: 2, unitPriceCents: 1000 }],
      });
      const order = await getAdminOrder(t.db, number);
      await t.db
        .updateTable("orderItems")
        .set({ productId: id, variantId: await defaultVariantOf(t.db, id) })
        .where("orderId", "=", order!.id)
        .execute();
      return number;
    };
    const shipped = await make();
    expect(await advanceOrder(services(), { number: shipped, to: "delivered", actor: ACTOR })).toMatchObject({
      ok: false,
      error: { code: "not-allowed" },
    });
    expect(
      await advanceOrder(services(), {
        number: shipped,
        to: "shipped",
        actor: ACTOR,
        shipment: { carrier: "ups", trackingNumber: "1Z 999 AA1 0123456784" },
      }),
    ).toMatchObject({
      ok: true,
    });
    // the tracking details are the order's, for the account, /orders/track and the admin
    expect((await getAdminOrder(t.db, shipped))?.tracking).toEqual({
      carrier: "UPS",
      number: "1Z 999 AA1 0123456784",
      url: "https://www.ups.com/track?tracknum=1Z%20999%20AA1%200123456784",
    });
    const shippedMail = (await readOutbox(mailDir())).filter((m) => m.subject.includes(shipped));
    expect(shippedMail.map((m) => m.subject)).toEqual([`Cartwheel: your order ${shipped} has shipped`]);
    expect(shippedMail[0]!.text).toContain("Tracking number: 1Z 999 AA1 0123456784");
    expect(shippedMail[0]!.text).toContain("https://www.ups.com/track?tracknum=1Z%20999%20AA1%200123456784");
    expect(await advanceOrder(services(), { number: shipped, to: "delivered", actor: ACTOR })).toMatchObject({
      ok: true,
    });
    expect(
      await advanceOrder(services(), { number: shipped, to: "cancelled", actor: ACTOR, confirmed: true }),
    ).toMatchObject({
      ok: false,
    });
    expect((await getAdminOrder(t.db, shipped))?.status).toBe("delivered");
    expect(
      (await readOutbox(mailDir())).filter((m) => m.subject.includes(shipped)).map((m) => m.subject),
    ).toEqual([
      `Cartwheel: your order ${shipped} has shipped`,
      `Cartwheel: your order ${shipped} was delivered`,
    ]);

    const cancelled = await make();
    expect(
      await advanceOrder(services(), { number: cancelled, to: "cancelled", actor: ACTOR, confirmed: true }),
    ).toMatchObject({
      ok: true,
    });
    expect((await getAdminProduct(t.db, id))?.stock).toBe(5);
    const cancelMail = (await readOutbox(mailDir())).filter((m) => m.subject.includes(cancelled));
    expect(cancelMail.map((m) => m.subject)).toEqual([`Cartwheel: your order ${cancelled} was cancelled`]);
    expect(cancelMail[0]!.text).toContain("We have refunded $20.00");
    const refunded = await t.db
      .selectFrom("orders")
      .innerJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
      .select([
        "orders.status",
        "orders.refundedCents",
        "orders.totalCents",
        "testGatewayPayments.refundedCents as ledgerRefunded",
      ])
      .where("orders.number", "=", cancelled)
      .executeTakeFirstOrThrow();
    expect(refunded).toEqual({
      status: "cancelled",
      refundedCents: 2000,
      totalCents: 2000,
      ledgerRefunded: 2000,
    });
    expect(await advanceOrder(services(), { number: "CW-NOPE", to: "shipped", actor: ACTOR })).toMatchObject({
      ok: false,
      error: { code: "not-found" },
    });

    const delivered = await listAdminOrders(t.db, { status: "delivered", search: shipped.toLowerCase() });
    expect(delivered.orders.map((o) => o.number)).toEqual([shipped]);
    expect((await listAdminOrders(t.db, { search: "buyer@example" })).orders.length).toBeGreaterThan(1);
    const audit = await listAuditLog(t.db, { entity: { type: "order", id: cancelled } });
    expect(audit.entries[0]).toMatchObject({ action: "order.transition", before: '{"status":"paid"}' });
    expect((await getAdminOrder(t.db, shipped))?.events.map((e) => e.toStatus)).toEqual([
      "shipped",
      "delivered",
    ]);
  });
});
