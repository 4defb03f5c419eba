import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

/** Promotions (migration 2026-11-28T0500, decision 033); part of `DB` in schema.ts. */

export interface PromotionCampaignsTable {
  id: Generated<number>;
  name: string;
  /** null: no budget */
  budgetCents: number | null;
  spentCents: Generated<number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PromotionsTable {
  id: Generated<number>;
  name: string;
  /** upper-case; null: automatic */
  code: string | null;
  /** JSON: PromotionCondition[] (app/lib/promotions/engine.ts) */
  conditions: Generated<string>;
  /** JSON: PromotionAction */
  action: string;
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  priority: Generated<number>;
  combines: Generated<Flag>;
  active: Generated<Flag>;
  campaignId: number | null;
  usageLimit: number | null;
  /**
   * a use limit's guard: the promotion's uses while it has a limit, 0 while it has none
   * (migration 0745); its uses are its redemptions and its `earlierUses` (`promotionUses`)
   */
  usedCount: Generated<number>;
  /** uses without a redemption row: a coupon's from before it became this promotion (migration 0780) */
  earlierUses: Generated<number>;
  /** the coupon this promotion was made from (migration 0780), else null */
  couponId: Generated<number | null>;
  perCustomerLimit: number | null;
  /** 1: applies only with one of its codes in promotion_codes (migration 0600) */
  uniqueCodes: Generated<Flag>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A single-use code of a promotion with unique codes (migration 2026-11-28T0600). */
export interface PromotionCodesTable {
  id: Generated<number>;
  promotionId: number;
  /** upper-case, unique shop-wide */
  code: string;
  /** the order that used it (with `usedAt`), or null */
  orderId: number | null;
  usedAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface PromotionRedemptionsTable {
  id: Generated<number>;
  promotionId: number;
  orderId: number;
  /** "user:<id>", or "email:<address>" for a guest */
  customerKey: string;
  amountCents: number;
  createdAt: Timestamp;
}

/** One row (id 1) whose revision every change to a promotion's terms moves (migration 2026-11-28T0700, triggers). */
export interface PromotionRevisionTable {
  id: number;
  revision: number;
}
