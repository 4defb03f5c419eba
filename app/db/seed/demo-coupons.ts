import type { Database } from "../database.server.ts";

/**
 * Demo coupons: one that works (WELCOME10, 10 % off) and one that has expired (SUMMER2025),
 * so the cart's coupon messages can be tried at once. Existing codes are left alone.
 */
export const DEMO_COUPONS = [
  { code: "WELCOME10", kind: "percent", amount: 10, minSubtotalCents: 0, expiresAt: null, usageLimit: null },
  {
    code: "SUMMER2025",
    kind: "percent",
    amount: 20,
    minSubtotalCents: 0,
    expiresAt: "2025-09-01T00:00:00.000Z",
    usageLimit: null,
  },
] as const;

export async function seedDemoCoupons(db: Database, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const coupon of DEMO_COUPONS) {
    await db
      .insertInto("coupons")
      .values({ ...coupon, usedCount: 0, active: 1, createdAt: at, updatedAt: at })
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  }
}
