import type { Generated } from "kysely";

// The dashboard's sales rollups (migration 1900, decision 021) and the shop's settings (migration
// 2000); part of `DB` in schema.ts.

/** The dashboard's rollups of closed days and months (migration 1900): right or absent. */
export interface SalesDaysTable {
  day: string;
  revenueCents: number;
  refundsCents: number;
  orders: number;
  units: number;
}

export interface SalesProductDaysTable {
  day: string;
  productKey: string;
  productId: number | null;
  name: string;
  units: number;
  revenueCents: number;
}

export interface SalesMonthsTable {
  month: string;
}

export interface SalesProductMonthsTable {
  month: string;
  productKey: string;
  productId: number | null;
  name: string;
  units: number;
  revenueCents: number;
}

/** The shop's settings (migration 2000): at most one row, id 1 (app/lib/shop-settings.ts). */
export interface ShopSettingsTable {
  id: number;
  shopName: string;
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
  facebookUrl: string;
  instagramUrl: string;
  xUrl: string;
  youtubeUrl: string;
  currency: string;
  taxRateBasisPoints: number;
  taxLabel: string;
  standardShippingCents: number;
  freeShippingThresholdCents: number;
  expressShippingCents: number;
  standardDaysMin: number;
  standardDaysMax: number;
  expressDaysMin: number;
  expressDaysMax: number;
  updatedAt: string;
  /** what an invoice names (migration 2026-11-28T0400) */
  legalName: Generated<string>;
  legalAddress: Generated<string>;
  taxId: Generated<string>;
  /** an IANA time zone name (migration 2026-11-28T0705) */
  timeZone: Generated<string>;
}
