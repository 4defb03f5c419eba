import { stringify } from "csv-stringify/sync";
import type { TaxClass } from "../../../lib/markets.ts";
import type { Currency } from "../../../lib/money.ts";
import { PRODUCT_CSV_COLUMNS } from "./products-csv.ts";
import { dollars } from "./products-csv-cells.ts";
import { type VariantCsvSource, variantCsvCells } from "./products-csv-variants.ts";

/** Writing the products CSV (what readProductsCsv reads back): the header, then the rows. */

/** A product as the export writes it (the same shape the import reads), with its live variants. */
export interface ProductCsvSource {
  id: number;
  slug: string;
  name: string;
  description: string;
  brand: string;
  categoryId: string;
  subcategoryId: string | null;
  /** the summary of its variants */
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  /** JSON text as stored */
  specifications: string;
  featured: number;
  newArrival: number;
  bestSeller: number;
  taxClass: TaxClass;
  /** its options' names, by position */
  optionNames: string[];
  /** its live variants, by position (a product always has one) */
  variants: VariantCsvSource[];
}

export function productsCsvHeader(): string {
  return stringify([[...PRODUCT_CSV_COLUMNS]]);
}

/**
 * One row per live variant, the product's columns repeated on each (its tax class last), then the
 * variant's (its weight in kg last), then the amounts' currency.
 */
export function productsCsvRows(products: readonly ProductCsvSource[], currency: Currency): string {
  return stringify(
    products.flatMap((p) => {
      const product = [
        String(p.id),
        p.slug,
        p.name,
        p.description,
        p.brand,
        p.categoryId,
        p.subcategoryId ?? "",
        dollars(p.priceCents),
        p.originalPriceCents === null ? "" : dollars(p.originalPriceCents),
        String(p.stock),
        p.featured ? "true" : "false",
        p.newArrival ? "true" : "false",
        p.bestSeller ? "true" : "false",
        JSON.stringify(JSON.parse(p.specifications || "{}")),
        p.taxClass,
      ];
      return p.variants.map((variant) => [...product, ...variantCsvCells(p.optionNames, variant), currency]);
    }),
    { escape_formulas: true },
  );
}
