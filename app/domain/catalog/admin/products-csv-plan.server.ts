import type { Transaction } from "kysely";
import type { DB } from "../../../db/schema.ts";
import { discountPercent } from "../../../lib/money.ts";
import { fail, ok, type Result } from "../../../lib/result.ts";
import type { ProductVariantsInput } from "../../../lib/variant-input.ts";
import type { CsvProblem, CsvRefusal, ProductCsvRecord } from "./products-csv.ts";
import { LOOKUP_CHUNK, type StoredVariants, storedVariants } from "./products-csv-stored.server.ts";
import { type CsvVariants, VARIANT_WEIGHT_COLUMN } from "./products-csv-variants.ts";

export type ProductValues = ReturnType<typeof productValues>;
export type PriceValues = ReturnType<typeof priceValues>;

/** What the import does with one product of the file (decided before anything is written). */
export type ImportStep =
  | {
      kind: "create";
      values: ProductValues & PriceValues & { slug: string };
      variants: CsvVariants | null;
      /** old layout: its one variant's weight */
      weightGrams: number;
    }
  | {
      kind: "update";
      id: number;
      /** the product row's new fields; null when only its variants change */
      values: (ProductValues & Partial<PriceValues> & { slug: string }) | null;
      /** variant layout: the options and variants the product is to have */
      variants: CsvVariants | null;
      /** old layout: its one variant's new weight; null: kept */
      weightGrams: number | null;
    }
  | { kind: "unchanged" };

/**
 * Each record checked against the catalogue (known ids, free slugs, SKUs no other product holds)
 * and turned into a step; a product whose row(s) say what is stored is left unchanged (nothing is
 * written for it, so a round trip writes nothing). Every problem is reported with its line.
 */
export async function planImport(
  trx: Transaction<DB>,
  records: ProductCsvRecord[],
): Promise<Result<ImportStep[], CsvRefusal>> {
  const ids = records.flatMap((r) => (r.id === null ? [] : [r.id]));
  const slugs = records.flatMap((r) => (r.slug === null ? [] : [r.slug]));
  const existing = await findExisting(trx, ids, slugs);
  const byId = new Map(existing.map((p) => [p.id, p]));
  const bySlug = new Map(existing.map((p) => [p.slug, p]));
  // a product is found by its id and by its slug: each one once
  const stored = await storedVariants(trx, [...byId.keys()]);

  const problems: CsvProblem[] = [];
  const steps: ImportStep[] = [];
  const skuOwners: { sku: string; line: number; productId: number | null }[] = [];
  for (const record of records) {
    const { line } = record;
    const target =
      record.id !== null ? byId.get(record.id) : record.slug ? bySlug.get(record.slug) : undefined;
    if (record.id !== null && !target) {
      problems.push({ line, message: `no product has id ${record.id}` });
      continue;
    }
    if (target?.archivedAt) {
      problems.push({ line, message: `product ${target.id} ("${target.slug}") is archived` });
      continue;
    }
    const owner = record.slug === null ? undefined : bySlug.get(record.slug);
    if (owner && owner.id !== target?.id) {
      problems.push({ line, message: `slug "${record.slug}" belongs to product ${owner.id}` });
      continue;
    }
    const values = { ...productValues(record), slug: record.slug ?? target?.slug ?? "" };

    if (record.layout === "variants") {
      const current = target ? stored.get(target.id) : undefined;
      const given = withWeights(record.variants, current);
      const input = current ? keepValueOrder(given, current) : given;
      const variants = { ...record.variants, input };
      input.variants.forEach((v, i) => {
        if (v.sku !== null)
          skuOwners.push({ sku: v.sku, line: variants.lines[i]!, productId: target?.id ?? null });
      });
      if (!target) {
        // placeholders until the variants are written: the summary follows them
        const [first] = input.variants;
        steps.push({
          kind: "create",
          values: { ...values, ...priceValues(first!) },
          variants,
          weightGrams: 0,
        });
        continue;
      }
      const productChanged = !sameProduct(target, values);
      const variantsChanged = !current || !sameVariants(current, input);
      steps.push(
        productChanged || variantsChanged
          ? {
              kind: "update",
              id: target.id,
              values: productChanged ? values : null,
              variants: variantsChanged ? variants : null,
              weightGrams: null,
            }
          : { kind: "unchanged" },
      );
      continue;
    }

    const prices = priceValues(record);
    const storedVariantsOf = target ? (stored.get(target.id)?.variants ?? []) : [];
    const sold = target ? Math.max(storedVariantsOf.length, 1) : 1;
    const weight = record.weightGrams;
    if (target && sold > 1) {
      // its price, stock and weight are its variants' (this row shows their summary): refused, not ignored
      const repriced =
        prices.priceCents !== target.priceCents ||
        prices.originalPriceCents !== target.originalPriceCents ||
        prices.stock !== target.stock;
      const reweighed = weight !== null && storedVariantsOf.some((v) => v.weightGrams !== weight);
      const soldInVariants = `product ${target.id} ("${target.slug}") is sold in variants`;
      if (repriced) {
        problems.push({
          line,
          message: `${soldInVariants}: change their prices and stock in the variant columns (variant_price, variant_stock), not the product's`,
        });
        continue;
      }
      if (reweighed) {
        problems.push({
          line,
          message: `${soldInVariants}: set their weights in the variant columns (${VARIANT_WEIGHT_COLUMN} on each variant's row), not one for the product`,
        });
        continue;
      }
    }
    const changes = { ...values, ...prices };
    if (!target) {
      steps.push({ kind: "create", values: changes, variants: null, weightGrams: weight ?? 0 });
      continue;
    }
    // the one variant's weight, when the row gives one that differs
    const newWeight =
      weight !== null && sold === 1 && storedVariantsOf[0]?.weightGrams !== weight ? weight : null;
    steps.push(
      sameProduct(target, changes) && newWeight === null
        ? { kind: "unchanged" }
        : { kind: "update", id: target.id, values: changes, variants: null, weightGrams: newWeight },
    );
  }
  problems.push(...(await heldSkus(trx, skuOwners)));
  problems.sort((a, b) => a.line - b.line);
  return problems.length > 0 ? fail({ code: "invalid", problems }) : ok(steps);
}

/** A SKU the file gives that a variant of another product holds (archived ones too: it is theirs). */
async function heldSkus(
  trx: Transaction<DB>,
  owners: { sku: string; line: number; productId: number | null }[],
): Promise<CsvProblem[]> {
  const problems: CsvProblem[] = [];
  const wanted = new Map(owners.map((o) => [o.sku, o]));
  const skus = [...wanted.keys()];
  for (let i = 0; i < skus.length; i += LOOKUP_CHUNK) {
    const rows = await trx
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select(["productVariants.sku", "productVariants.productId", "products.slug"])
      .where("productVariants.sku", "in", skus.slice(i, i + LOOKUP_CHUNK))
      .execute();
    for (const row of rows) {
      const owner = wanted.get(row.sku)!;
      if (row.productId !== owner.productId)
        problems.push({
          line: owner.line,
          message: `sku "${row.sku}" belongs to product ${row.productId} ("${row.slug}")`,
        });
    }
  }
  return problems;
}

/**
 * Each variant's weight: its row's, or — where the row gives none — the weight of the stored variant
 * of its combination (letter case aside, as the writer matches them), or 0 for a new one.
 */
function withWeights(variants: CsvVariants, current: StoredVariants | undefined): ProductVariantsInput {
  const key = (values: readonly string[]) => JSON.stringify(values.map((v) => v.toLowerCase()));
  const storedWeight = new Map((current?.variants ?? []).map((v) => [key(v.values), v.weightGrams]));
  return {
    ...variants.input,
    variants: variants.input.variants.map((variant, i) => ({
      ...variant,
      weightGrams: variants.weights[i] ?? storedWeight.get(key(variant.values)) ?? 0,
    })),
  };
}

/**
 * An option the product already has (same name, letter case aside) keeps the order of its values
 * that the file still names, new values after them in the order the rows name them: the rows'
 * order gives the variants' order, the admin gives the values' (a round trip changes neither).
 */
function keepValueOrder(input: ProductVariantsInput, current: StoredVariants): ProductVariantsInput {
  return {
    ...input,
    options: input.options.map((option) => {
      const stored = current.options.find((o) => o.name.toLowerCase() === option.name.toLowerCase());
      if (!stored) return option;
      const kept = stored.values.filter((v) => option.values.includes(v));
      return { ...option, values: [...kept, ...option.values.filter((v) => !kept.includes(v))] };
    }),
  };
}

function sameVariants(current: StoredVariants, input: ProductVariantsInput): boolean {
  const sameList = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((v, i) => v === b[i]);
  return (
    current.options.length === input.options.length &&
    current.options.every(
      (o, i) => o.name === input.options[i]!.name && sameList(o.values, input.options[i]!.values),
    ) &&
    current.variants.length === input.variants.length &&
    current.variants.every((v, i) => {
      const next = input.variants[i]!;
      return (
        sameList(v.values, next.values) &&
        (next.sku === null || next.sku === v.sku) &&
        v.priceCents === next.priceCents &&
        v.originalPriceCents === next.originalPriceCents &&
        v.stock === next.stock &&
        v.barcode === next.barcode &&
        v.weightGrams === next.weightGrams
      );
    })
  );
}

async function findExisting(trx: Transaction<DB>, ids: number[], slugs: string[]) {
  const columns = [
    "id",
    "slug",
    "archivedAt",
    "name",
    "description",
    "brand",
    "categoryId",
    "subcategoryId",
    "taxClass",
    "priceCents",
    "originalPriceCents",
    "discountPercentage",
    "stock",
    "specifications",
    "featured",
    "newArrival",
    "bestSeller",
  ] as const;
  const found = [];
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const chunk = ids.slice(i, i + LOOKUP_CHUNK);
    found.push(...(await trx.selectFrom("products").select(columns).where("id", "in", chunk).execute()));
  }
  for (let i = 0; i < slugs.length; i += LOOKUP_CHUNK) {
    const chunk = slugs.slice(i, i + LOOKUP_CHUNK);
    found.push(...(await trx.selectFrom("products").select(columns).where("slug", "in", chunk).execute()));
  }
  return found;
}
type ExistingProduct = Awaited<ReturnType<typeof findExisting>>[number];

/** The product's own columns (not its price and stock; its tax class only when the file gives one). */
function productValues(record: ProductCsvRecord) {
  return {
    name: record.name,
    description: record.description,
    brand: record.brand,
    categoryId: record.categoryId,
    subcategoryId: record.subcategoryId,
    ...(record.taxClass === null ? {} : { taxClass: record.taxClass }),
    specifications: JSON.stringify(record.specifications),
    featured: flag(record.featured),
    newArrival: flag(record.newArrival),
    bestSeller: flag(record.bestSeller),
  };
}

/** A price and stock as the product row stores them. */
function priceValues(source: { priceCents: number; originalPriceCents: number | null; stock: number }) {
  return {
    priceCents: source.priceCents,
    originalPriceCents: source.originalPriceCents,
    discountPercentage: storedDiscount(source.priceCents, source.originalPriceCents),
    stock: source.stock,
  };
}

const flag = (value: boolean) => (value ? 1 : 0) as 0 | 1;

/** The saving in whole percent within the column's 1–99 range (a saving that rounds to 0 shows none). */
function storedDiscount(priceCents: number, originalPriceCents: number | null): number | null {
  const percent = discountPercent(priceCents, originalPriceCents);
  if (percent === null || percent < 1) return null;
  return Math.min(percent, 99);
}

function sameProduct(
  current: ExistingProduct,
  next: ProductValues & Partial<PriceValues> & { slug: string },
) {
  const sameSpecs = JSON.stringify(JSON.parse(current.specifications || "{}")) === next.specifications;
  return (
    sameSpecs &&
    (Object.keys(next) as Array<keyof typeof next>).every(
      (key) => key === "specifications" || current[key] === next[key],
    )
  );
}
