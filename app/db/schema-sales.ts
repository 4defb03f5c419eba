// The dashboard's sales rollups (migration 1900, decision 021); part of `DB` in schema.ts.

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
