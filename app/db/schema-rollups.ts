import type { Generated } from "kysely";

// The catalogue's trigger-maintained roll-up tables (migrations 0310, 0320, 0800, 1100, 2230); part of `DB` in schema.ts.

/** Live product counts per category/subcategory/brand, maintained by triggers (migration 0310). */
export interface CatalogFacetsTable {
  categoryId: string;
  /** '' when the product has no subcategory */
  subcategoryId: string;
  brandKey: string;
  brandName: string;
  productCount: number;
}

/**
 * Live product counts per category/price band/whole-star rating/brand, maintained by triggers
 * (migration 0320). price_band = 2 × min(price_cents / 10000, 20), + 1 unless a whole $100.
 */
export interface CatalogPriceBandsTable {
  categoryId: string;
  priceBand: number;
  ratingFloor: number;
  brandKey: string;
  productCount: number;
}

/** catalog_facets summed per brand key, with the least live spelling (migration 0800). */
export interface CatalogBrandsTable {
  brandKey: string;
  brandName: string;
  productCount: number;
}

/** catalog_facets summed per category (migration 0800). */
export interface CatalogCategoryTotalsTable {
  categoryId: string;
  productCount: number;
}

/**
 * One row: bumped by triggers on every product write that changes what a listing filters, sorts
 * or searches on (migration 1100); the in-memory search index answers only at its own version.
 */
export interface CatalogVersionTable {
  id: number;
  version: number;
  /** catalog_changes holds every change of a version above this (migration 2230) */
  changesFrom: Generated<number>;
}

/** The product each catalog_version bump was for (migration 2230): what the search index patches. */
export interface CatalogChangesTable {
  version: number;
  productId: number;
}

/** catalog_price_bands summed over brands (migration 0320). */
export interface CatalogPriceBandTotalsTable {
  categoryId: string;
  priceBand: number;
  ratingFloor: number;
  productCount: number;
}
