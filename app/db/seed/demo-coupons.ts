import type { Database } from "../database.server.ts";

/**
 * Demo coupons — promotions with a code (coupons became promotions, migration 0780): one that
 * works (WELCOME10, 10 % off) and one that has expired (SUMMER2025), so the cart's coupon messages
 * can be tried at once. Made as the migration makes a coupon: a percentage off the order, first
 * among the order's promotions, combining with the others. Existing codes are left alone.
 */
export const DEMO_COUPONS = [
  { code: "WELCOME10", percent: 10, endsAt: null },
  { code: "SUMMER2025", percent: 20, endsAt: "2025-09-01T00:00:00.000Z" },
] as const;

export async function seedDemoCoupons(db: Database, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const coupon of DEMO_COUPONS) {
    await db
      .insertInto("promotions")
      .values({
        name: `Coupon ${coupon.code}`,
        code: coupon.code,
        conditions: "[]",
        action: JSON.stringify({ type: "order-percent", basisPoints: coupon.percent * 100 }),
        endsAt: coupon.endsAt,
        priority: 1_000,
        combines: 1,
        active: 1,
        createdAt: at,
        updatedAt: at,
      })
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  }
}
