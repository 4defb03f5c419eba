import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { assembleServices } from "../../app/composition.server.ts";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import type { DB } from "../../app/db/schema.ts";
import { DEMO_PRODUCTS } from "../../app/db/seed/demo-catalog.ts";
import { DEMO_CUSTOMERS } from "../../app/db/seed/demo-history.ts";
import { seedOnFirstStart } from "../../app/db/seed/first-start.server.ts";
import { isCatalogEmpty, seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { listAddresses } from "../../app/domain/accounts/addresses.server.ts";
import { DEMO_ADMIN } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { presetPeriod } from "../../app/domain/reports/sales-period.ts";
import { salesFigures } from "../../app/domain/reports/sales-report.server.ts";
import { RETURN_STATUSES } from "../../app/domain/returns/return-status.ts";
import { parseEnv } from "../../app/env.server.ts";
import { CATEGORY_TILES, MEGA_MENU_COLUMNS } from "../../app/lib/catalog-constants.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

/** The spec's category list (§ Data, mega menu) — written out here, not read from the app's constant. */
const SPEC_CATEGORIES: Record<string, string[]> = {
  electronics: ["smartphones", "laptops", "tablets", "cameras", "audio"],
  clothing: ["men", "women", "kids", "shoes", "accessories"],
  home: ["furniture", "kitchen", "bedding", "appliances", "garden", "security"],
  beauty: ["skincare"],
  toys: [],
  sports: [],
  books: [],
  health: [],
};

/** Sample categories/subcategories the demo products use. */
const SAMPLE_PAIRS = [
  ["electronics", "smartphones"],
  ["electronics", "laptops"],
  ["electronics", "audio"],
  ["clothing", "accessories"],
  ["home", "furniture"],
  ["home", "kitchen"],
  ["home", "security"],
  ["beauty", "skincare"],
  // the apparel sold in sizes × colours (issue 18)
  ["clothing", "men"],
  ["clothing", "shoes"],
  // the categories the spec's samples leave empty (issue 29)
  ["toys", "games"],
  ["toys", "puzzles"],
  ["sports", "fitness"],
  ["sports", "cycling"],
  ["books", null],
  ["health", null],
];

/**
 * The spec's 8 sample products as the spec lists them (§3), in its order: name, price and stock
 * (of the variant the product page shows first).
 */
const SPEC_SAMPLES: [string, number, number][] = [
  ["Kestrel X12 Smartphone", 89_999, 42],
  ["Lumen Book Pro 14 Laptop", 129_999, 7],
  ["Aurora ANC Wireless Headphones", 24_999, 85],
  ["Veltro Classic Leather Watch", 18_999, 15],
  ["Nordhaus Oak Lounge Chair", 54_999, 3],
  ["Nordhaus Pro Stand Mixer", 32_999, 0],
  ["Kestrel 2K Home Security Camera", 12_999, 60],
  ["Solace Radiance Skincare Set", 14_999, 9],
];

/** The spec's samples as a shop holds them: name, price and the first variant's stock, by product id. */
async function specSamples(db: Database) {
  const rows = await db
    .selectFrom("products")
    .innerJoin("productVariants", "productVariants.productId", "products.id")
    .select(["products.name", "products.priceCents", "productVariants.stock"])
    .where("productVariants.position", "=", 0)
    .orderBy("products.id")
    .limit(8)
    .execute();
  return rows.map((p) => [p.name, p.priceCents, p.stock]);
}

const DEMO_PRODUCT_COUNT = 16;

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

describe.each(ENGINES)("seedDemoCatalog on %s", (engine) => {
  let t: TestDatabase;
  let files: FileStore;
  let uploads: string;
  let firstRun: { created: number };
  let secondRun: { created: number };

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    uploads = join(t.dir, "uploads");
    files = createLocalFileStore(uploads);
    expect(await isCatalogEmpty(t.db)).toBe(true);
    firstRun = await seedDemoCatalog(t.db, files);
    secondRun = await seedDemoCatalog(t.db, files);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const products = () => t.db.selectFrom("products").selectAll().orderBy("id").execute();

  it("creates the 8 sample products, 2 apparel products and 6 in the other categories once (a second run creates nothing)", async () => {
    expect(firstRun).toEqual({ created: DEMO_PRODUCT_COUNT });
    expect(secondRun).toEqual({ created: 0 });
    expect(await isCatalogEmpty(t.db)).toBe(false);
    expect(await products()).toHaveLength(DEMO_PRODUCT_COUNT);
    const images = await t.db.selectFrom("productImages").select("id").execute();
    expect(images).toHaveLength(DEMO_PRODUCT_COUNT * 3);
    expect(countFiles(uploads)).toBe(DEMO_PRODUCT_COUNT * 3 * 3);
  });

  it("keeps the spec's 8 samples first, with the spec's names, prices and stock", async () => {
    expect(await specSamples(t.db)).toEqual(SPEC_SAMPLES);
  });

  it("gives every category the shop shows products: the home page's tiles, the mega menu's categories", async () => {
    const shown = new Set<string>([
      ...CATEGORY_TILES.map((tile) => tile.category),
      ...MEGA_MENU_COLUMNS.flatMap((column) => column.links.map((link) => link.category)),
    ]);
    expect([...shown].sort()).toEqual(
      ["beauty", "books", "clothing", "electronics", "health", "home", "sports", "toys"].sort(),
    );
    const live = (await products()).filter((p) => p.archivedAt === null);
    for (const category of shown) {
      const inIt = live.filter((p) => p.categoryId === category);
      expect(inIt.length, category).toBeGreaterThanOrEqual(["toys", "sports"].includes(category) ? 2 : 1);
      // with pictures, like every demo product
      for (const product of inIt) {
        const images = await t.db
          .selectFrom("productImages")
          .select("id")
          .where("productId", "=", product.id)
          .execute();
        expect(images.length, product.slug).toBe(3);
      }
    }
  });

  it("sells the apparel in sizes × colours, some combinations missing and some sold out", async () => {
    for (const slug of ["loomwell-organic-cotton-t-shirt", "stride-runner-sneakers"]) {
      const variants = await t.db
        .selectFrom("productVariants")
        .innerJoin("products", "products.id", "productVariants.productId")
        .select(["productVariants.option1", "productVariants.option2", "productVariants.stock"])
        .where("products.slug", "=", slug)
        .execute();
      const options = await t.db
        .selectFrom("productOptions")
        .innerJoin("products", "products.id", "productOptions.productId")
        .select(["productOptions.name", "productOptions.optionValues"])
        .where("products.slug", "=", slug)
        .orderBy("productOptions.position")
        .execute();
      expect(
        options.map((o) => o.name),
        slug,
      ).toEqual(["Size", "Colour"]);
      const combinations = options.reduce((n, o) => n * (JSON.parse(o.optionValues) as string[]).length, 1);
      expect(variants.length, slug).toBeLessThan(combinations);
      expect(
        variants.some((v) => v.stock === 0),
        slug,
      ).toBe(true);
      expect(variants.filter((v) => v.stock > 0).length, slug).toBeGreaterThan(variants.length / 2);
    }
  });

  it("prices between 129.99 and 1299.99 with 13–25 % discounts off a higher original price (the spec's 8)", async () => {
    const rows = (await products()).slice(0, 8);
    const prices = rows.map((p) => p.priceCents);
    expect(Math.min(...prices)).toBe(12999);
    expect(Math.max(...prices)).toBe(129999);
    for (const p of rows) {
      expect(p.originalPriceCents, p.slug).toBeGreaterThan(p.priceCents);
      expect(p.discountPercentage, p.slug).toBeGreaterThanOrEqual(13);
      expect(p.discountPercentage, p.slug).toBeLessThanOrEqual(25);
      const exact = ((p.originalPriceCents! - p.priceCents) / p.originalPriceCents!) * 100;
      expect(Math.abs(exact - p.discountPercentage!), p.slug).toBeLessThanOrEqual(0.5);
      expect(Number(p.rating)).toBeGreaterThan(0);
      expect(Number(p.rating)).toBeLessThanOrEqual(5);
      expect(p.reviewCount).toBeGreaterThan(0);
      expect(Object.keys(JSON.parse(p.specifications)).length).toBeGreaterThan(0);
      expect(p.archivedAt).toBeNull();
      expect(Number.isNaN(Date.parse(p.createdAt))).toBe(false);
    }
  });

  it("has stock levels for all three stock messages (more than 10, 1 to 10, none)", async () => {
    const stock = (await products()).map((p) => p.stock);
    expect(stock.some((s) => s > 10)).toBe(true);
    expect(stock.some((s) => s >= 1 && s <= 10)).toBe(true);
    expect(stock.some((s) => s === 0)).toBe(true);
  });

  it("flags at least 4 products for each home section", async () => {
    const rows = await products();
    expect(rows.filter((p) => p.featured === 1).length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((p) => p.newArrival === 1).length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((p) => p.bestSeller === 1).length).toBeGreaterThanOrEqual(4);
  });

  it("creates the spec's categories and subcategories, and products use the sample pairs", async () => {
    const categories = await t.db.selectFrom("categories").selectAll().execute();
    const byId = new Map(categories.map((c) => [c.id, c]));
    for (const [category, subs] of Object.entries(SPEC_CATEGORIES)) {
      expect(byId.get(category)?.parentId, category).toBeNull();
      for (const sub of subs) expect(byId.get(sub)?.parentId, sub).toBe(category);
    }
    const pairs = (await products()).map((p) => [p.categoryId, p.subcategoryId]);
    expect(pairs.sort()).toEqual([...SAMPLE_PAIRS].sort());
  });

  it("gives every product 3 images with WebP files at 320, 640 and 960 px", async () => {
    const rows = await products();
    const images = await t.db
      .selectFrom("productImages")
      .selectAll()
      .orderBy("productId")
      .orderBy("position")
      .execute();
    for (const product of rows) {
      const own = images.filter((i) => i.productId === product.id);
      expect(
        own.map((i) => i.position),
        product.slug,
      ).toEqual([0, 1, 2]);
      expect(new Set(own.map((i) => i.key)).size).toBe(3);
      for (const image of own) {
        expect(image.key).toMatch(/^products\/[a-z0-9/_.-]+$/);
        expect(image.alt).toContain(product.name);
        expect(JSON.parse(image.widths)).toEqual([320, 640, 960]);
        for (const width of [320, 640, 960]) {
          const bytes = await files.get(`${image.key}-${width}.webp`);
          expect(bytes, `${image.key}-${width}.webp`).not.toBeNull();
          const meta = await sharp(bytes!).metadata();
          expect(meta.format).toBe("webp");
          expect(meta.width).toBe(width);
          expect(meta.exif).toBeUndefined();
        }
        expect(image.width).toBe(960);
        expect(image.height).toBeGreaterThan(0);
      }
    }
  });

  it("leaves an edited product alone on a later run", async () => {
    await t.db
      .updateTable("products")
      .set({ name: "Renamed by an admin" })
      .where("slug", "=", "kestrel-x12-smartphone")
      .execute();
    expect(await seedDemoCatalog(t.db, files)).toEqual({ created: 0 });
    const row = await t.db
      .selectFrom("products")
      .select("name")
      .where("slug", "=", "kestrel-x12-smartphone")
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Renamed by an admin");
  });
});

/** A start of the shop over `db`: the configuration a local `npm start` has, but for `settings`. */
function startOf(t: TestDatabase, db: Database, settings: Record<string, string> = {}) {
  const config = parseEnv({
    NODE_ENV: "test",
    SESSION_SECRET: process.env.SESSION_SECRET,
    PUBLIC_URL: "http://shop.test",
    DATA_DIR: t.dir,
    DATABASE_URL: t.url,
    MAIL_URL: `file:${join(t.dir, "mail")}`,
    PAYMENT_DELAY_MS: "0",
    SEED_ON_EMPTY: "true",
    ...settings,
  });
  return assembleServices(config, { db, files: createLocalFileStore(join(t.dir, "uploads")) });
}

const countOf = async (db: Database, table: keyof DB) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every table the history writes to, counted. */
async function historyCounts(db: Database) {
  const tables = [
    "users",
    "addresses",
    "carts",
    "orders",
    "orderItems",
    "orderEvents",
    "orderRefunds",
    "returns",
    "reviews",
    "stockMovements",
    "testGatewayPayments",
    "testGatewayRefunds",
    "auditLog",
  ] as const;
  return Object.fromEntries(
    await Promise.all(tables.map(async (table) => [table, await countOf(db, table)])),
  );
}

const DAY = 86_400_000;
/** the moment the shops below start (the history is placed in the 90 days before it) */
const NOW = new Date();

describe.each(ENGINES)("the demo history of a local first start on %s", (engine) => {
  let t: TestDatabase;
  let second: Database | undefined;
  let afterFirstStart: Record<string, number>;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    // two processes started together on one empty database (a second pool of its own on
    // PostgreSQL; SQLite: one process owns the file): one seeds, the other finds it seeded
    second = engine === "postgres" ? createDatabase(t.url) : undefined;
    await Promise.all([
      seedOnFirstStart(startOf(t, t.db), NOW),
      seedOnFirstStart(startOf(t, second ?? t.db), NOW),
    ]);
    afterFirstStart = await historyCounts(t.db);
  }, 120_000);
  afterAll(async () => {
    await second?.destroy();
    await t?.destroy();
  });

  const orders = () => t.db.selectFrom("orders").selectAll().orderBy("createdAt").execute();

  it("seeds the catalogue, the owner and the history once", async () => {
    expect(await countOf(t.db, "products")).toBe(DEMO_PRODUCT_COUNT);
    expect(await countOf(t.db, "productImages")).toBe(DEMO_PRODUCT_COUNT * 3);
    const keys = (await orders()).map((o) => o.idempotencyKey);
    expect(keys.length).toBeGreaterThanOrEqual(80);
    expect(keys.every((key) => key.startsWith("demo-history-"))).toBe(true);
    // a second history would have given each customer a second address
    const addresses = await t.db
      .selectFrom("addresses")
      .select((eb) => ["userId", eb.fn.countAll<number>().as("n")])
      .groupBy("userId")
      .execute();
    expect(addresses.map((a) => Number(a.n))).toEqual(DEMO_CUSTOMERS.map(() => 1));
  });

  it("has customers with addresses, each joined before their first order, most of them with orders", async () => {
    const users = await t.db.selectFrom("users").select(["id", "email", "role", "createdAt"]).execute();
    expect(users.filter((u) => u.role === "owner").map((u) => u.email)).toEqual([DEMO_ADMIN.email]);
    const customers = users.filter((u) => u.role === "customer");
    expect(customers.map((c) => c.email).sort()).toEqual(DEMO_CUSTOMERS.map((c) => c.email).sort());
    let buying = 0;
    for (const customer of customers) {
      const placed = (await orders()).filter((o) => o.userId === customer.id);
      const joined = new Date(customer.createdAt).getTime();
      expect(joined, customer.email).toBeLessThan(NOW.getTime() - DAY);
      for (const order of placed) expect(Date.parse(order.createdAt)).toBeGreaterThan(joined);
      if (placed.length > 0) buying++;
      const [address] = await listAddresses(t.db, customer.id);
      expect(address?.isDefault, customer.email).toBe(1);
      expect(placed.every((o) => o.address === address?.address)).toBe(true);
    }
    expect(buying).toBeGreaterThanOrEqual(DEMO_CUSTOMERS.length - 1);
    // and guests
    expect((await orders()).filter((o) => o.userId === null).length).toBeGreaterThan(10);
  });

  it("places orders over the 90 days, more lately, in every state; shipments have a carrier and a tracking number", async () => {
    const all = await orders();
    const ages = all.map((o) => (NOW.getTime() - Date.parse(o.createdAt)) / DAY);
    expect(Math.min(...ages)).toBeGreaterThan(0);
    expect(Math.max(...ages)).toBeLessThanOrEqual(90);
    expect(Math.max(...ages)).toBeGreaterThan(75);
    const lastMonth = ages.filter((age) => age <= 30).length;
    expect(lastMonth).toBeGreaterThan(ages.filter((age) => age > 60).length);
    expect(ages.filter((age) => age < 1).length).toBeGreaterThan(0);
    const statuses = new Set(all.map((o) => o.status));
    for (const status of [
      "paid",
      "shipped",
      "delivered",
      "cancelled",
      "payment_failed",
      "partially_refunded",
      "refunded",
    ] as const) {
      expect(statuses.has(status), status).toBe(true);
    }
    expect(statuses.has("pending_payment")).toBe(false);
    const shipped = await t.db
      .selectFrom("orders")
      .innerJoin("orderEvents", "orderEvents.orderId", "orders.id")
      .select(["orders.number", "orders.carrier", "orders.trackingNumber"])
      .where("orderEvents.toStatus", "=", "shipped")
      .execute();
    expect(shipped.length).toBeGreaterThan(30);
    for (const order of shipped) {
      expect(order.carrier, order.number).toMatch(/^(ups|usps|fedex|dhl)$/);
      expect(order.trackingNumber, order.number).toMatch(/^[A-Z0-9]{10,22}$/);
    }
    // every event after the order was placed and before now, as the owner or the checkout
    const events = await t.db
      .selectFrom("orderEvents")
      .innerJoin("orders", "orders.id", "orderEvents.orderId")
      .select(["orderEvents.createdAt", "orders.createdAt as placedAt"])
      .execute();
    for (const event of events) {
      expect(event.createdAt >= event.placedAt).toBe(true);
      expect(Date.parse(event.createdAt)).toBeLessThanOrEqual(NOW.getTime());
    }
    // the confirmations count as sent: the resend job leaves them alone
    expect(all.filter((o) => o.status !== "payment_failed" && o.confirmationSentAt === null)).toEqual([]);
  });

  it("has refunds, returns in each of their states and reviews by customers who received the product", async () => {
    const refunds = await t.db.selectFrom("orderRefunds").select(["kind", "status"]).execute();
    expect(refunds.every((r) => r.status === "succeeded")).toBe(true);
    expect(new Set(refunds.map((r) => r.kind))).toEqual(new Set(["refund", "cancel", "return"]));
    const returns = await t.db.selectFrom("returns").select(["status"]).execute();
    expect(new Set(returns.map((r) => r.status))).toEqual(new Set(RETURN_STATUSES));
    const reviews = await t.db
      .selectFrom("reviews")
      .select(["userId", "productId", "createdAt"])
      .where("userId", "is not", null)
      .execute();
    expect(reviews.length).toBeGreaterThanOrEqual(5);
    for (const review of reviews) {
      const received = await t.db
        .selectFrom("orderEvents")
        .innerJoin("orders", "orders.id", "orderEvents.orderId")
        .innerJoin("orderItems", "orderItems.orderId", "orders.id")
        .select("orderEvents.createdAt")
        .where("orders.userId", "=", review.userId)
        .where("orderItems.productId", "=", review.productId)
        .where("orderEvents.toStatus", "=", "delivered")
        .where("orderEvents.createdAt", "<=", review.createdAt)
        .executeTakeFirst();
      expect(received, `review of product ${review.productId}`).toBeDefined();
    }
  });

  it("keeps the books: the stock ledger and the money balance, and the demo stock is the catalogue's", async () => {
    const ledger = await checkStockLedger(t.db);
    expect(ledger.variants).toEqual([]);
    expect(ledger.products).toEqual([]);
    const money = await moneyBookDifferences(t.db);
    expect(money.differences).toEqual([]);
    expect(money.refunds).toBeGreaterThanOrEqual(8);
    // every payment taken is in the gateway's books, every decline too
    const payments = await countOf(t.db, "testGatewayPayments");
    expect(payments).toBe((await orders()).length);
    // what the history sold for good came in before it was sold: the demo products end as the
    // catalogue gives them
    expect(await specSamples(t.db)).toEqual(SPEC_SAMPLES);
    const variants = await t.db.selectFrom("productVariants").select(["sku", "stock"]).execute();
    for (const product of DEMO_PRODUCTS) {
      for (const variant of product.variants ?? []) {
        expect(variants.find((v) => v.sku === variant.sku)?.stock, variant.sku).toBe(variant.stock);
      }
    }
    // sold: the stock moved for orders, and every movement before now
    const movements = await t.db.selectFrom("stockMovements").select(["reason", "createdAt"]).execute();
    expect(new Set(movements.map((m) => m.reason))).toEqual(
      new Set([
        "opening_balance",
        "admin_adjust",
        "sale",
        "payment_failed",
        "cancellation",
        "return_received",
      ]),
    );
    expect(movements.every((m) => Date.parse(m.createdAt) <= NOW.getTime())).toBe(true);
  });

  it("shows sales on the dashboard for the last 30 days", async () => {
    const figures = await salesFigures(t.db, presetPeriod("30d", NOW));
    expect(figures.orders).toBeGreaterThan(20);
    expect(figures.revenueCents).toBeGreaterThan(100_000);
    expect(figures.refundsCents).toBeGreaterThan(0);
  });

  it("adds nothing on a later start", async () => {
    await seedOnFirstStart(startOf(t, t.db), new Date());
    expect(await historyCounts(t.db)).toEqual(afterFirstStart);
  });
});

describe.each(ENGINES)("no demo history on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("with SEED_ON_EMPTY=false, on a deployment, with SEED_DEMO_HISTORY=false, with Stripe, or once there are orders", async () => {
    // SEED_ON_EMPTY=false: nothing at all
    await seedOnFirstStart(startOf(t, t.db, { SEED_ON_EMPTY: "false" }), NOW);
    expect(await historyCounts(t.db)).toMatchObject({ users: 0, orders: 0 });
    expect(await countOf(t.db, "products")).toBe(0);

    // a deployment (npm run start:prod): the catalogue only
    await seedOnFirstStart(
      startOf(t, t.db, { NODE_ENV: "production", SESSION_SECRET: "a-deployment-secret-0123456789abcdef" }),
      NOW,
    );
    expect(await countOf(t.db, "products")).toBe(DEMO_PRODUCT_COUNT);
    expect(await historyCounts(t.db)).toMatchObject({ users: 0, orders: 0 });

    // SEED_DEMO_HISTORY=false: the demo owner, no history
    await seedOnFirstStart(startOf(t, t.db, { SEED_DEMO_HISTORY: "false" }), NOW);
    expect(await historyCounts(t.db)).toMatchObject({ users: 1, orders: 0, addresses: 0, returns: 0 });

    // payments through Stripe, which never saw the history's payments
    await seedOnFirstStart(
      startOf(t, t.db, {
        PAYMENT_GATEWAY: "stripe",
        STRIPE_SECRET_KEY: "sk_test_history",
        STRIPE_PUBLISHABLE_KEY: "pk_test_history",
        STRIPE_WEBHOOK_SECRET: "whsec_history",
      }),
      NOW,
    );
    expect(await historyCounts(t.db)).toMatchObject({ users: 1, orders: 0 });

    // a shop that took an order already
    const shop = startOf(t, t.db);
    const { id: productId } = await t.db
      .selectFrom("products")
      .select("id")
      .where("slug", "=", "tumbletown-family-board-game")
      .executeTakeFirstOrThrow();
    const cartId = newCartId();
    await addToCart(t.db, { cartId, productId, quantity: 1 });
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    const card = await shop.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: NOW.getUTCFullYear() + 2,
      cvv: "123",
      name: "First Buyer",
    });
    if (!card.ok) throw new Error(card.code);
    const placed = await placeOrder(t.db, shop.gateway, {
      cartId,
      idempotencyKey: "first-real-order",
      shipping: {
        firstName: "First",
        lastName: "Buyer",
        email: "first.buyer@example.org",
        phone: "+1 555 0100",
        address: "1 Main Street",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
      },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    expect(placed.ok).toBe(true);
    const before = await historyCounts(t.db);
    await seedOnFirstStart(shop, NOW);
    expect(await historyCounts(t.db)).toEqual(before);
    expect(before).toMatchObject({ users: 1, orders: 1, addresses: 0, returns: 0 });
  });
});
