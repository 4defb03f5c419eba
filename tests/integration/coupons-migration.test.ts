import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import { moveOrder } from "../../app/domain/orders/orders.server.ts";
import { promotionOfCoupon } from "../../app/domain/promotions/promotion-admin.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { applyCoupon, couponUses } from "../helpers/coupons.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * Migration 0780 (issue 31): today's coupons become promotions with their codes. On a shop filled
 * before it — coupons of each kind, limited and used up, expired, disabled, with orders open and
 * cancelled — each code answers the cart as the coupon did (applied with the same label and amount,
 * or refused in the same words), with the same uses left; a cancellation after the upgrade gives
 * back the use of an order placed before it; old admin links find the promotion; down() gives the
 * coupons back with their uses.
 */
const MIGRATIONS_DIR = join(import.meta.dirname, "../../app/db/migrations");
const COUPONS_TO_PROMOTIONS = "2026-11-28T0780-coupons-to-promotions";
const names = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();
const BEFORE = names[names.indexOf(COUPONS_TO_PROMOTIONS) - 1]!;

async function migrator(db: Database) {
  const migrations = Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [
        name,
        (await import(pathToFileURL(join(MIGRATIONS_DIR, `${name}.ts`)).href)) as Migration,
      ]),
    ),
  );
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

const AT = "2026-10-01T00:00:00.000Z";
/** code, kind, amount, min subtotal, expiry, limit, used, active */
const COUPONS = [
  ["WELCOME10", "percent", 10, 0, null, null, 5, 1],
  ["FIVEOFF", "fixed", 500, 2_000, "2099-01-01T00:00:00.000Z", 10, 3, 1],
  ["FULL20", "percent", 20, 0, null, 2, 2, 1],
  ["OLD15", "percent", 15, 0, "2020-01-01T00:00:00.000Z", null, 0, 1],
  ["PAUSED", "fixed", 1_000, 0, null, null, 1, 0],
] as const;

describe.each(ENGINES)("coupons to promotions (migration 0780) on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  const couponIds = new Map<string, number>();
  const orderIds = new Map<string, number[]>();

  const orderId = async (number: string) =>
    Number(
      (await db.selectFrom("orders").select("id").where("number", "=", number).executeTakeFirstOrThrow()).id,
    );
  async function orderWith(code: string, status: "paid" | "cancelled") {
    const id = await orderId(await insertOrder(db, { userId: null, createdAt: AT, status }));
    await sql`update orders set coupon_code = ${code} where id = ${id}`.execute(db);
    return id;
  }
  async function cartWorth(priceCents: number): Promise<string> {
    const productId = await insertProduct(db, { priceCents, stock: 50 });
    const cartId = newCartId();
    await addToCart(db, { cartId, productId, quantity: 1 });
    return cartId;
  }
  const cancel = (id: number) =>
    db.transaction().execute((trx) => moveOrder(trx, { orderId: id, to: "cancelled", actor: "test" }));

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // orders written by hand
    db = t.db;
    const down = await (await migrator(db)).migrateTo(BEFORE);
    expect(down.error).toBeUndefined();
    for (const [code, kind, amount, minimum, expires, limit, used, active] of COUPONS) {
      const { rows } = await sql<{ id: number }>`insert into coupons (code, kind, amount, min_subtotal_cents,
          expires_at, usage_limit, used_count, active, created_at, updated_at)
        values (${code}, ${kind}, ${amount}, ${minimum}, ${expires}, ${limit}, ${used}, ${active}, ${AT}, ${AT})
        returning id`.execute(db);
      couponIds.set(code, Number(rows[0]!.id));
    }
    // WELCOME10: two orders still open (their uses a cancellation would give back), one cancelled
    orderIds.set("WELCOME10", [
      await orderWith("WELCOME10", "paid"),
      await orderWith("WELCOME10", "paid"),
      await orderWith("WELCOME10", "cancelled"),
    ]);
    orderIds.set("FULL20", [await orderWith("FULL20", "paid")]);
    const up = await (await migrator(db)).migrateToLatest();
    expect(up.error).toBeUndefined();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("makes each coupon a promotion with its code, terms, window, limit and flag; the table is gone", async () => {
    const rows = await db
      .selectFrom("promotions")
      .select([
        "code",
        "conditions",
        "action",
        "startsAt",
        "endsAt",
        "usageLimit",
        "active",
        "combines",
        "priority",
      ])
      .where("couponId", "is not", null)
      .orderBy("id")
      .execute();
    expect(
      rows.map((row) => ({ ...row, conditions: JSON.parse(row.conditions), action: JSON.parse(row.action) })),
    ).toEqual([
      {
        code: "WELCOME10",
        conditions: [],
        action: { type: "order-percent", basisPoints: 1_000 },
        startsAt: null,
        endsAt: null,
        usageLimit: null,
        active: 1,
        combines: 1,
        priority: 1_000,
      },
      {
        code: "FIVEOFF",
        conditions: [{ type: "min-subtotal", cents: 2_000 }],
        action: { type: "order-fixed", cents: 500 },
        startsAt: null,
        endsAt: "2099-01-01T00:00:00.000Z",
        usageLimit: 10,
        active: 1,
        combines: 1,
        priority: 1_000,
      },
      expect.objectContaining({
        code: "FULL20",
        usageLimit: 2,
        action: { type: "order-percent", basisPoints: 2_000 },
      }),
      expect.objectContaining({ code: "OLD15", endsAt: "2020-01-01T00:00:00.000Z" }),
      expect.objectContaining({ code: "PAUSED", active: 0, action: { type: "order-fixed", cents: 1_000 } }),
    ]);
    const tables = await sql<{ n: number }>`select count(*) as n from ${sql.raw(
      engine === "postgres"
        ? "information_schema.tables where table_name = 'coupons'"
        : "sqlite_master where name = 'coupons'",
    )}`.execute(db);
    expect(Number(tables.rows[0]!.n)).toBe(0);
    // orders keep the code as written
    const codes = await db
      .selectFrom("orders")
      .select("couponCode")
      .where("couponCode", "is not", null)
      .execute();
    expect(codes.map((row) => row.couponCode).sort()).toEqual([
      "FULL20",
      "WELCOME10",
      "WELCOME10",
      "WELCOME10",
    ]);
  });

  it("answers the same codes with the same messages, labels and amounts", async () => {
    const cases: [string, number, string, number | null][] = [
      ["welcome10", 3_000, COUPON_MESSAGES.applied("WELCOME10"), 300],
      ["FIVEOFF", 1_999, "This coupon needs a subtotal of at least $20.00.", null],
      ["fiveoff", 2_000, COUPON_MESSAGES.applied("FIVEOFF"), 500],
      ["FULL20", 3_000, COUPON_MESSAGES.usedUp, null],
      ["OLD15", 3_000, COUPON_MESSAGES.expired, null],
      ["PAUSED", 3_000, COUPON_MESSAGES.notFound, null],
      ["NOSUCH", 3_000, COUPON_MESSAGES.notFound, null],
    ];
    for (const [typed, subtotal, message, discount] of cases) {
      const cartId = await cartWorth(subtotal);
      const result = await applyCoupon(db, { cartId, code: typed });
      expect(result.ok ? COUPON_MESSAGES.applied(result.value.code) : result.error.message, typed).toBe(
        message,
      );
      const cart = await getCart(db, cartId, SPEC_SHOP);
      expect(cart.coupon?.discountCents ?? null, typed).toBe(discount);
      expect(cart.totals.discountCents, typed).toBe(discount ?? 0);
    }
    const cartId = await cartWorth(2_500);
    await applyCoupon(db, { cartId, code: "FIVEOFF" });
    expect((await getCart(db, cartId, SPEC_SHOP)).coupon?.label).toBe("FIVEOFF ($5.00 off)");
  });

  it("keeps past uses counted: the same uses left, the open orders' uses given back by a cancellation", async () => {
    expect(await couponUses(db, "WELCOME10")).toBe(5);
    expect(await couponUses(db, "FIVEOFF")).toBe(3);
    expect(await couponUses(db, "FULL20")).toBe(2);
    const guard = async (code: string) =>
      await db
        .selectFrom("promotions")
        .select(["usedCount", "earlierUses"])
        .where("code", "=", code)
        .executeTakeFirstOrThrow();
    // a limited one's guard is its uses (7 of FIVEOFF's 10 left); redemptions are the open orders'
    expect(await guard("FIVEOFF")).toEqual({ usedCount: 3, earlierUses: 3 });
    expect(await guard("FULL20")).toEqual({ usedCount: 2, earlierUses: 1 });
    expect(await guard("WELCOME10")).toEqual({ usedCount: 0, earlierUses: 3 });

    // the open order of FULL20 (placed before the upgrade) is cancelled: its use comes back
    const [full] = orderIds.get("FULL20")!;
    expect(await cancel(full!)).toMatchObject({ ok: true });
    expect(await couponUses(db, "FULL20")).toBe(1);
    const cartId = await cartWorth(3_000);
    expect(await applyCoupon(db, { cartId, code: "FULL20" })).toEqual({
      ok: true,
      value: { code: "FULL20" },
    });
    const [welcome] = orderIds.get("WELCOME10")!;
    expect(await cancel(welcome!)).toMatchObject({ ok: true });
    expect(await couponUses(db, "WELCOME10")).toBe(4);

    // a limit set later counts the earlier uses too (migration 0745's recount, with them)
    await db.updateTable("promotions").set({ usageLimit: 4 }).where("code", "=", "WELCOME10").execute();
    expect(await guard("WELCOME10")).toEqual({ usedCount: 4, earlierUses: 3 });
    const refused = await applyCoupon(db, { cartId: await cartWorth(3_000), code: "WELCOME10" });
    expect(refused).toMatchObject({ ok: false, error: { message: COUPON_MESSAGES.usedUp } });
    await db.updateTable("promotions").set({ usageLimit: null }).where("code", "=", "WELCOME10").execute();
    expect(await guard("WELCOME10")).toEqual({ usedCount: 0, earlierUses: 3 });
  });

  it("leads an old coupon's admin link to its promotion", async () => {
    const promotionId = await promotionOfCoupon(db, couponIds.get("FIVEOFF")!);
    const row = await db
      .selectFrom("promotions")
      .select("code")
      .where("id", "=", promotionId!)
      .executeTakeFirst();
    expect(row?.code).toBe("FIVEOFF");
    expect(await promotionOfCoupon(db, 999_999)).toBeNull();
  });

  it("gives the coupons back on the way down, with their uses", async () => {
    const down = await (await migrator(db)).migrateTo(BEFORE);
    expect(down.error).toBeUndefined();
    // (read through the app's database: snake_case names come back camelCased)
    const { rows } = await sql<{
      id: number;
      code: string;
      kind: string;
      amount: number;
      minSubtotalCents: number;
      expiresAt: string | null;
      usageLimit: number | null;
      usedCount: number;
      active: number;
    }>`select id, code, kind, amount, min_subtotal_cents, expires_at, usage_limit, used_count, active
      from coupons order by id`.execute(db);
    expect(
      rows.map((row) => [
        row.code,
        row.kind,
        Number(row.amount),
        Number(row.minSubtotalCents),
        row.expiresAt,
        row.usageLimit === null ? null : Number(row.usageLimit),
        Number(row.usedCount),
        Number(row.active),
      ]),
    ).toEqual([
      ["WELCOME10", "percent", 10, 0, null, null, 4, 1],
      ["FIVEOFF", "fixed", 500, 2_000, "2099-01-01T00:00:00.000Z", 10, 3, 1],
      ["FULL20", "percent", 20, 0, null, 2, 1, 1],
      ["OLD15", "percent", 15, 0, "2020-01-01T00:00:00.000Z", null, 0, 1],
      ["PAUSED", "fixed", 1_000, 0, null, null, 1, 0],
    ]);
    expect(rows.map((row) => Number(row.id))).toEqual(COUPONS.map(([code]) => couponIds.get(code)));
    const left = await sql<{ n: number }>`select count(*) as n from promotions`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);
    // and up again
    const up = await (await migrator(db)).migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(await couponUses(db, "WELCOME10")).toBe(4);
  });
});
