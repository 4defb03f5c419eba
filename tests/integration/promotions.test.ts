import { sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/schema.ts";
import {
  promotionUses,
  redeemPromotions,
  releasePromotions,
} from "../../app/domain/promotions/promotion-redemptions.server.ts";
import { customerKeyOf, readPromotionState } from "../../app/domain/promotions/promotions.server.ts";
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
  /** its uses as every view reads them (its redemptions), and what its own row says */
  const uses = async (id: number) => (await promotionUses(t.db, [id])).get(id);
  const rowOf = (id: number) =>
    t.db
      .selectFrom("promotions")
      .select(["usedCount", "updatedAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const revision = async () =>
    (await t.db.selectFrom("promotionRevision").select("revision").executeTakeFirstOrThrow()).revision;
  /**
   * PostgreSQL: whether an order can take a use of promotion `id` while another transaction holds
   * that promotion's row for an update (as a concurrent order counting a use on it does): false
   * when it waits.
   */
  async function redeemsPastHeldRow(id: number): Promise<boolean> {
    const [order] = await Promise.all([insertPendingOrder(t.db)]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const holder = inTransaction(async (trx) => {
      // the lock an update of its columns takes (a key share, as the redemption's foreign key takes, goes past it)
      await sql`select id from promotions where id = ${id} for no key update`.execute(trx);
      held();
      await released;
    });
    await holding;
    try {
      return await inTransaction(async (trx) => {
        await sql`set local lock_timeout = '1s'`.execute(trx);
        const result = await redeemPromotions(trx, [applied(id, 100)], {
          orderId: order!.id,
          customerKey: "email:held@x.example",
          now: NOW,
        });
        return result.ok;
      }).catch(() => false);
    } finally {
      release();
      await holder;
    }
  }
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
    expect([await usedCount(id), await uses(id)]).toEqual([5, 5]);
    const state = await readPromotionState(t.db, { now: NOW, codes: [], customerKey: null });
    expect(state.exhausted.get(id)).toBe("uses");
  });

  it("counts the uses of a promotion without a limit as its redemptions, never on its own row", async () => {
    const id = await insertPromotion();
    const at = await revision();
    const { won, orders } = await race(12, () => [applied(id, 100)]);
    expect(won).toBe(12);
    // 12 uses, one redemption each; the promotion's row as it was inserted, its revision unmoved
    expect(await uses(id)).toBe(12);
    expect(await rowOf(id)).toEqual({ usedCount: 0, updatedAt: STAMP });
    expect(await revision()).toBe(at);
    // one order given back, twice: one use less, the row still untouched
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    expect(await uses(id)).toBe(11);
    expect(await rowOf(id)).toEqual({ usedCount: 0, updatedAt: STAMP });
    expect((await promotionUses(t.db, [id, id + 1_000])).get(id + 1_000)).toBe(0);
  });

  it("refuses a use of a promotion disabled since the cart was read, without a limit as with one", async () => {
    const unlimited = await insertPromotion({ active: 0 });
    const limited = await insertPromotion({ active: 0, usageLimit: 10 });
    expect((await race(2, (_, i) => [applied(i ? limited : unlimited, 100)])).won).toBe(0);
    expect([await uses(unlimited), await uses(limited)]).toEqual([0, 0]);
  });

  it.runIf(engine === "postgres")(
    "takes a use of a promotion without a limit while its row is held; one with a limit waits for it",
    async () => {
      const unlimited = await insertPromotion();
      expect(await redeemsPastHeldRow(unlimited)).toBe(true);
      expect(await uses(unlimited)).toBe(1);
      const limited = await insertPromotion({ usageLimit: 10 });
      expect(await redeemsPastHeldRow(limited)).toBe(false);
      expect(await uses(limited)).toBe(0);
    },
  );

  it("counts the uses there are when a limit is set on a promotion that had none, and none when it is removed", async () => {
    const id = await insertPromotion();
    expect((await race(3, () => [applied(id, 100)])).won).toBe(3);
    const at = await revision();
    await t.db.updateTable("promotions").set({ usageLimit: 5 }).where("id", "=", id).execute();
    expect(await revision()).toBeGreaterThan(at);
    expect(await rowOf(id)).toMatchObject({ usedCount: 3 });
    // 2 uses left, however many race for them
    expect((await race(6, () => [applied(id, 100)])).won).toBe(2);
    expect([(await rowOf(id)).usedCount, await uses(id)]).toEqual([5, 5]);
    // removed: nothing counted on the row; set again below the uses: refused by the schema
    await t.db.updateTable("promotions").set({ usageLimit: null }).where("id", "=", id).execute();
    expect(await rowOf(id)).toMatchObject({ usedCount: 0 });
    await expect(
      t.db.updateTable("promotions").set({ usageLimit: 4 }).where("id", "=", id).execute(),
    ).rejects.toThrow();
    await t.db.updateTable("promotions").set({ usageLimit: 7 }).where("id", "=", id).execute();
    expect([(await rowOf(id)).usedCount, await uses(id)]).toEqual([5, 5]);
  });

  it.runIf(engine === "postgres")(
    "takes no use uncounted while a limit is set on a promotion that had none",
    async () => {
      const id = await insertPromotion();
      const [early, late] = await Promise.all([insertPendingOrder(t.db), insertPendingOrder(t.db)]);
      const redeem = (orderId: number) => (trx: Transaction<DB>) =>
        redeemPromotions(trx, [applied(id, 100)], { orderId, customerKey: `order:${orderId}`, now: NOW });
      const gate = () => {
        let open!: () => void;
        const opened = new Promise<void>((resolve) => {
          open = resolve;
        });
        return { open, opened };
      };
      // an order that took its use and has not committed when the limit is set: counted
      const earlyTaken = gate();
      const earlyCommit = gate();
      const earlyOrder = inTransaction(async (trx) => {
        const result = await redeem(early!.id)(trx);
        earlyTaken.open();
        await earlyCommit.opened;
        return result.ok;
      });
      await earlyTaken.opened;
      const limitSet = gate();
      const limitCommit = gate();
      const admin = inTransaction(async (trx) => {
        const setting = trx.updateTable("promotions").set({ usageLimit: 10 }).where("id", "=", id).execute();
        // the limit's count waits for the order writing a use
        await new Promise((resolve) => setTimeout(resolve, 200));
        earlyCommit.open();
        await setting;
        limitSet.open();
        await limitCommit.opened;
      });
      expect(await earlyOrder).toBe(true);
      await limitSet.opened;
      // an order that priced the promotion without a limit, writing its use while the limit is set:
      // it waits for it and then takes its use counted under the limit, never uncounted
      const lateOrder = inTransaction(async (trx) => {
        const result = await redeem(late!.id)(trx);
        if (!result.ok) throw new Error("refused");
      }).then(
        () => true,
        () => false,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      limitCommit.open();
      await admin;
      expect(await lateOrder).toBe(true);
      expect([(await rowOf(id)).usedCount, await uses(id)]).toEqual([2, 2]);
    },
  );

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
    expect([await usedCount(id), await uses(id), await spent(campaign)]).toEqual([1, 1, 500]);
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    await inTransaction((trx) => releasePromotions(trx, orders[0]!.id, NOW));
    expect([await usedCount(id), await uses(id), await spent(campaign)]).toEqual([0, 0, 0]);
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
