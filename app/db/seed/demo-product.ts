import type { ProductInput } from "../../lib/product-input.ts";
import type { ProductArt } from "./product-art.ts";

/** A demo product: the product's fields (lib/product-input.ts), plus what the seed adds. */
export interface DemoProduct extends ProductInput {
  slug: string;
  /**
   * What it weighs as shipped, in grams (box included): its one variant's, or each variant's
   * unless the variant gives its own (a bigger size weighs more).
   */
  weightGrams: number;
  /**
   * Sizes, colours, storage (decision 019): the options and one variant per combination sold.
   * The first variant carries the product's own price, original price and stock (what the page
   * shows first); without options the product is sold as one variant.
   */
  options?: { name: string; values: string[] }[];
  variants?: {
    values: string[];
    sku: string;
    priceCents: number;
    originalPriceCents: number | null;
    stock: number;
    /** the product's weightGrams unless given */
    weightGrams?: number;
  }[];
  rating: number;
  reviewCount: number;
  /** days before the seed date, so "Newest" has a stable order */
  ageDays: number;
  art: ProductArt;
}

/** A written demo review of a product (demo-reviews.ts). */
export interface DemoReview {
  authorName: string;
  rating: 1 | 2 | 3 | 4 | 5;
  title: string;
  body: string;
  /** how long before the seed date it was written (always after the product appeared) */
  daysAgo: number;
}
