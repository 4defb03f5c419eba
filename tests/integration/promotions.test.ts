import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/schema.ts";
import {
  customerKeyOf,
  readPromotionState,
  redeemPromotions,
  releasePromotions,
} from "../../app/domain/promotions/promotions.server.ts";
import type { AppliedPromotion, Promotion, PromotionAction } from "../../app/lib/promotions/engine.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const STAMP = "2026-11-01T00:00:00.000Z";

describe.each(ENGINES)("promotions as stored, on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const inTransaction = <T>(work: (trx: Transaction<DB>) => Promise<T>) => t.db.transaction().execute(work);

  async function insertPromotion(
    values: Partial<{
      code: string | null;
      action: PromotionAction | string;
      usageLimit: number | null;
      perCustomerLimit: number | null;
      campaignId: number | null;
      startsAt: string | null;
      endsAt: string | null;
      active: 0 | 1;
    }> = {},
  ): Promise<number> {
    const { action = { type: "order-fixed", cents: 100 }, ...rest } = values;
    const row = await t.db
      .insertInto("promotions")
      .values({
        name: "Test promotion",
        conditions: "[]",
        action: typeof action === "string" ? action : JSON.stringify(action),
        createdAt: STAMP,
        updatedAt: STAMP,
        ...rest,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }
  async function insertCampaign(budgetCents: number | null): Promise<number> {
    const row = await t.db
      .insertInto("promotionCampaigns")
      .values({ name: "Winter", budgetCents, createdAt: STAMP, updatedAt: STAMP })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const applied = (id: number, amountCents: number, campaignId: number | null = null): AppliedPromotion => ({
    promotion: {
      id,
      name: "",
      code: null,
      conditions: [],
      action: { type: "order-fixed", cents: amountCents },
      startsAt: null,
      endsAt: null,
      priority: 0,
      combines: true,
      campaignId,
    } satisfies Promotion,
    kind: "order",
    amountCents,
  });
  const usedCount = async (id: number) =>
    (await t.db.selectFrom("promotions").select("usedCount").where("id", "=", id).executeTakeFirstOrThrow())
      .usedCount;
  const spent = async (id: number) =>
    (
      await t.db
        .selectFrom("promotionCampaigns")
        .select("spentCents")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).spentCents;
  /** `n` orders each trying to redeem, at once; how many got through */
  async function race(
    n: number,
    redeem: (orderId: number, i: number) => AppliedPromotion[],
    key = (i: number) => `email:${i}@x.example`,
  ) {
    const orders = await Promise.all(Array.from({ length: n }, () => insertPendingOrder(t.db)));
    const results = await Promise.all(
      orders.map((order, i) =>
        inTransaction(async (trx) => {
          const result = await redeemPromotions(trx, redeem(order.id, i), {
            orderId: order.id,
            customerKey: key(i),
            now: NOW,
          });
          // a refusal rolls the order's transaction back, as Place Order does
          if (!result.ok) throw new Error("refused");
          return result;
        }).then(
          () => true,
          () => false,
        ),
      ),
    );
    return { won: results.filter(Boolean).length, orders };
  }

  it("reads the live promotions for a cart: automatic ones and those whose code was entered, in their window", async () => {
    const automatic = await insertPromotion();
    const coded = await insertPromotion({ code: "WINTER" });
    await insertPromotion({ endsAt: NOW.toISOString() });
    await insertPromotion({ startsAt: "2026-12-02T00:00:00.000Z" });
    await insertPromotion({ active: 0 });
    const broken = await insertPromotion({ action: '{"type":"order-fixed","cents":-5}' });
    const without = await readPromotionState(t.db, { now: NOW, codes: [], customerKey: null });
    expect(without.promotions.map((p) => p.id)).toContain(automatic);
    expect(without.promotions.map((p) => p.id)).not.toContain(coded);
    const withCode = await readPromotionState(t.db, { now: NOW, codes: ["WINTER"], customerKey: null });
    const ids = withCode.promotions.map((p) => p.id);
    expect(ids).toContain(coded);
    // a stored action the engine does not accept is left out, not thrown
    expect(ids).not.toContain(broken);
    expect(withCode.promotions.find((p) => p.id === coded)).toMatchObject({
      code: "WINTER",
      action: { type: "order-fixed", cents: 100 },
      combines: true,
    });
  });

  it("never passes a promotion's usage limit when 12 orders race for 5 uses", async () => {
    const id = await insertPromotion({ usageLimit: 5 });
    const { won } = await race(12, () => [applied(id, 100)]);
    expect(won).toBe(5);
    expect(await usedCount(id)).toBe(5);
    const state = await readPromotionState(t.db, { now: NOW, codes: [], customerKey: null });
    expect(state.exhausted.get(id)).toBe("uses");
  });

  it("gives one customer one use of a once-per-customer promotion, however many checkouts race", async () => {
    const id = await insertPromotion({ perCustomerLimit: 1 });
    const same = await race(
      8,
      () => [applied(id, 100)],
      () => customerKeyOf({ email: " Ada@Example.com " }),
    );
    expect(same.won).toBe(1);
    const others = await race(6, () => [applied(id, 100)]);
    expect(others.won).toBe(6);
    const ada = await readPromotionState(t.db, {
      now: NOW,
      codes: [],
      customerKey: customerKeyOf({ email: "ada@example.com" }),
    });
    expect(ada.exhausted.get(id)).toBe("customer-uses");
    const someoneElse = await readPromotionState(t.db, { now: NOW, codes: [], customerKey: "user:u-1" });
    expect(someoneElse.exhausted.has(id)).toBe(false);
  });

  it("never spends a campaign past its budget, across its promotions, when orders race", async () => {
    const campaign = await insertCampaign(1_000);
    const a = await insertPromotion({ campaignId: campaign });
    const b = await insertPromotion({ campaignId: campaign });
    const { won } = await race(20, (_, i) => [applied(i % 2 ? a : b, 150, campaign)]);
    expect(won).toBe(6);
    expect(await spent(campaign)).toBe(900);
    const state = await readPromotionState(t.db, { now: NOW, codes: [], customerKey: null });
    expect(state.budgets.get(campaign)).toBe(100);
  });

  it("gives an order's uses and spending back when it is released, once", async () => {
    const campaign = await insertCampaign(500);
    const id = await insertPromotion({ usageLimit: 1, perCustomerLimit: 1, campaignId: campaign });
    const { won, orders } = await race(
      1,
      () => [applied(id, 500, campaign)],
      () => "user:u-2",
    );
    expect(won).toBe(1);
    expect([await usedCount(id), await spent(campaign)]).toEqual([1, 500]);
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    expect([await usedCount(id), await spent(campaign)]).toEqual([0, 0]);
    // the use given back can be taken again, by the same customer
    expect(
      (
        await race(
          1,
          () => [applied(id, 500, campaign)],
          () => "user:u-2",
        )
      ).won,
    ).toBe(1);
  });

  it("keeps the limits in the schema itself", async () => {
    const id = await insertPromotion({ usageLimit: 1 });
    await expect(
      t.db.updateTable("promotions").set({ usedCount: 2 }).where("id", "=", id).execute(),
    ).rejects.toThrow();
    const campaign = await insertCampaign(100);
    await expect(
      t.db.updateTable("promotionCampaigns").set({ spentCents: 101 }).where("id", "=", campaign).execute(),
    ).rejects.toThrow();
    await expect(
      insertPromotion({ code: "TWICE" }).then(() => insertPromotion({ code: "TWICE" })),
    ).rejects.toThrow();
  });
});
