import { sql } from "kysely";
import type { FileStore } from "../../adapters/files/file-store.ts";
import { IMAGE_WIDTHS, renderWebpVariants, variantKey } from "../../adapters/images/images.server.ts";
import { defaultSku } from "../../domain/catalog/admin/product-variants.server.ts";
import { optionFacets } from "../../domain/inventory/product-summary.server.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import { type ProductInput, productColumns } from "../../lib/product-input.ts";
import type { Database } from "../database.server.ts";
import { type ArtShape, drawProductSvg } from "./product-art.ts";
import { seedCategories } from "./seed.server.ts";

/** Deterministic PRNG (mulberry32) so a catalogue of N products is the same on every run. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    /** Zipf-like pick: early items are much more common (brands, categories). */
    skewed: <T>(items: readonly T[]): T => items[Math.floor(next() ** 2.2 * items.length)]!,
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ra",
  "ve",
  "no",
  "zu",
  "ta",
  "qu",
  "el",
  "an",
  "or",
  "is",
  "ex",
  "vo",
  "li",
  "sa",
  "den",
  "tor",
  "mar",
];
const NOUNS: Record<string, string[]> = {
  electronics: [
    "Smartphone",
    "Laptop",
    "Tablet",
    "Camera",
    "Headphones",
    "Speaker",
    "Monitor",
    "Earbuds",
    "Charger",
    "Keyboard",
  ],
  clothing: [
    "Jacket",
    "Sneakers",
    "T-Shirt",
    "Jeans",
    "Dress",
    "Hoodie",
    "Scarf",
    "Watch",
    "Backpack",
    "Boots",
  ],
  home: ["Lamp", "Sofa", "Blender", "Duvet", "Chair", "Kettle", "Rug", "Planter", "Camera", "Shelf"],
  beauty: ["Serum", "Moisturiser", "Lipstick", "Perfume", "Cleanser", "Palette", "Sunscreen", "Shampoo"],
  toys: ["Puzzle", "Board Game", "Robot Kit", "Building Set", "Plush Bear", "Kite", "Drone", "Train Set"],
  sports: [
    "Yoga Mat",
    "Dumbbells",
    "Bike Helmet",
    "Running Shoes",
    "Water Bottle",
    "Tennis Racket",
    "Fitness Tracker",
  ],
  books: ["Cookbook", "Novel", "Travel Guide", "Atlas", "Biography"],
  health: ["Vitamins", "Thermometer", "First Aid Kit", "Massage Gun", "Scale"],
};
const ADJECTIVES = [
  "Wireless",
  "Classic",
  "Ultra",
  "Compact",
  "Premium",
  "Eco",
  "Smart",
  "Pro",
  "Lite",
  "Deluxe",
  "Portable",
  "Organic",
  "Vintage",
  "Modern",
  "Heavy-Duty",
  "Waterproof",
];
const PHRASES = [
  "Designed for everyday use and built to last.",
  "Made from carefully chosen materials.",
  "A customer favourite for its comfort and value.",
  "Backed by a two-year warranty.",
  "Easy to clean and simple to set up.",
  "Light enough to take anywhere.",
  "Energy efficient and quiet in operation.",
  "Available in several colours.",
  "Rated highly for reliability.",
  "Includes everything you need to get started.",
];
const SHAPE_BY_CATEGORY: Record<string, ArtShape> = {
  electronics: "phone",
  clothing: "watch",
  home: "chair",
  beauty: "bottle",
  toys: "box",
  sports: "headphones",
  books: "box",
  health: "bottle",
};

const CATEGORY_WEIGHTS: Array<[string, number]> = [
  ["electronics", 26],
  ["clothing", 24],
  ["home", 20],
  ["beauty", 10],
  ["sports", 9],
  ["toys", 7],
  ["books", 2],
  ["health", 2],
];

/**
 * What a product of each category typically weighs as shipped, in grams: a synthetic product weighs
 * 0.5–1.5× that, by its number (no random draw: the catalogue's sequence stays what it was).
 */
const TYPICAL_GRAMS: Record<string, number> = {
  electronics: 900,
  clothing: 400,
  home: 4_000,
  beauty: 300,
  sports: 2_000,
  toys: 700,
  books: 600,
  health: 350,
};

/** The class a product of the category would have in most of Europe: books and health reduced. */
const REDUCED_CATEGORIES = new Set(["books", "health"]);

const syntheticGrams = (categoryId: string, n: number) =>
  Math.round(((TYPICAL_GRAMS[categoryId] ?? 500) * (5 + (n % 11))) / 10);

function weightedCategory(random: ReturnType<typeof createRandom>): string {
  let roll = random.next() * 100;
  for (const [category, weight] of CATEGORY_WEIGHTS) {
    roll -= weight;
    if (roll <= 0) return category;
  }
  return "electronics";
}

export interface GenerateOptions {
  count: number;
  seed?: number;
  batchSize?: number;
  now?: Date;
  onProgress?: (done: number) => void;
}

/**
 * Adds N synthetic products (for benchmarks): realistic spread over categories, ~300 brands,
 * log-normal prices, ratings skewed high, 3 years of creation dates. Images are shared: one
 * picture per category, drawn once.
 */
export async function generateSyntheticCatalog(
  db: Database,
  files: FileStore,
  { count, seed = 42, batchSize = 1000, now = new Date(), onProgress }: GenerateOptions,
): Promise<{ created: number }> {
  await seedCategories(db);
  const random = createRandom(seed);
  const images = await drawCategoryImages(files);
  const brands = Array.from({ length: 300 }, (_, i) => {
    const r = createRandom(seed * 1000 + i);
    const word = Array.from({ length: r.int(2, 3) }, () => r.pick(SYLLABLES)).join("");
    return word[0]!.toUpperCase() + word.slice(1);
  });
  const subcategories = new Map(CATEGORY_TREE.map((c) => [c.id, c.subcategories.map((s) => s.id)]));
  const { maxId } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.coalesce(eb.fn.max("id"), eb.lit(0)).as("maxId"))
    .executeTakeFirstOrThrow();
  const offset = Number(maxId) + 1;
  const threeYearsMs = 3 * 365 * 86_400_000;

  // the variants are drawn from a stream of their own, so the products stay what they were
  const variantRandom = createRandom(seed + 7);

  let created = 0;
  while (created < count) {
    const size = Math.min(batchSize, count - created);
    const rows = Array.from({ length: size }, (_, i) => {
      const n = offset + created + i;
      const categoryId = weightedCategory(random);
      const subs = subcategories.get(categoryId) ?? [];
      const subcategoryId = subs.length > 0 && random.next() < 0.9 ? random.pick(subs) : null;
      const brand = random.skewed(brands);
      const noun = random.pick(NOUNS[categoryId] ?? NOUNS.electronics!);
      const name = `${brand} ${random.pick(ADJECTIVES)} ${noun} ${n.toString(36).toUpperCase()}`;
      const priceCents = Math.min(
        199_999,
        Math.max(499, Math.round(Math.exp(3 + random.next() * 3.8) * 100) - 1),
      );
      const discounted = random.next() < 0.3;
      const originalPriceCents = discounted ? Math.round(priceCents / (1 - random.int(5, 50) / 100)) : null;
      const createdAt = new Date(now.getTime() - Math.floor(random.next() * threeYearsMs)).toISOString();
      // drawn in this order (the generator is seeded: the same catalogue every time)
      const description = `${brand} ${noun.toLowerCase()} for ${categoryId}. ${random.pick(PHRASES)} ${random.pick(PHRASES)}`;
      const rating = Math.round(Math.min(5, Math.max(1, 5 - random.next() ** 1.6 * 4)) * 10) / 10;
      const reviewCount = Math.floor(random.next() ** 3 * 5000);
      const stock = random.next() < 0.08 ? 0 : random.int(1, 250);
      const product: ProductInput = {
        name,
        description,
        brand,
        categoryId,
        subcategoryId,
        taxClass: REDUCED_CATEGORIES.has(categoryId) ? "reduced" : "standard",
        priceCents,
        originalPriceCents,
        stock,
        // each of its variants' (derived, not drawn: the sequence stays what it was)
        weightGrams: syntheticGrams(categoryId, n),
        specifications: {},
        featured: random.next() < 0.03,
        newArrival: random.next() < 0.05,
        bestSeller: random.next() < 0.04,
      };
      return {
        slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
        ...productColumns(product),
        weightGrams: product.weightGrams!,
        // the variants' sum (each variant's stock comes with its opening balance in the ledger)
        stock,
        rating,
        reviewCount,
        createdAt,
        updatedAt: createdAt,
      } as const;
    });
    // the variants are drawn before the products go in: a product row carries their summary,
    // option text and facets (inventory/product-summary.server.ts), the same as syncProductSummary writes
    const drafts = syntheticVariants(rows, variantRandom);
    const withFacets = rows.map(({ weightGrams: _variants, ...row }, i) => {
      const draft = drafts[i]!;
      const facets = optionFacets(draft.option ? [draft.option] : [], draft.variants.map(asVariant(0)));
      return { ...row, optionText: facets.optionText, variantFacets: facets.variantFacets };
    });
    await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("products")
        .values(withFacets)
        .returning(["id", "categoryId"])
        .execute();
      const options = inserted.flatMap((p, i) => {
        const option = drafts[i]!.option;
        return option
          ? [{ productId: p.id, position: 1, name: option.name, optionValues: JSON.stringify(option.values) }]
          : [];
      });
      if (options.length > 0) await trx.insertInto("productOptions").values(options).execute();
      const variants = inserted.flatMap((p, i) =>
        drafts[i]!.variants.map((v) => ({
          productId: p.id,
          sku: v.value === null ? defaultSku(p.id) : `${defaultSku(p.id)}-${v.value.toUpperCase()}`,
          option1: v.value,
          priceCents: v.priceCents,
          originalPriceCents: v.originalPriceCents,
          stock: v.stock,
          weightGrams: rows[i]!.weightGrams,
          position: v.position,
        })),
      );
      const ids: number[] = [];
      for (let i = 0; i < variants.length; i += 1000) {
        const chunk = await trx
          .insertInto("productVariants")
          .values(variants.slice(i, i + 1000))
          .returning("id")
          .execute();
        ids.push(...chunk.map((row) => row.id));
      }
      // the stock ledger's opening balances (decision 026): a level is the sum of its movements
      const at = new Date().toISOString();
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        await sql`insert into stock_movements (variant_id, product_id, delta, reason, actor, created_at)
          select id, product_id, stock, 'opening_balance', 'cli', ${at} from product_variants
          where id >= ${chunk[0]} and id <= ${chunk.at(-1)} and stock <> 0`.execute(trx);
      }
      // the listing's option facets (migration 1300)
      const values: {
        variantId: number;
        productId: number;
        optionKey: string;
        valueKey: string;
        optionName: string;
        optionValue: string;
      }[] = [];
      let next = 0;
      inserted.forEach((p, i) => {
        const draft = drafts[i]!;
        const real = draft.variants.map((v) => ({ ...asVariant(0)(v), id: ids[next + v.position]! }));
        next += draft.variants.length;
        if (!draft.option) return;
        for (const row of optionFacets([draft.option], real).rows) values.push({ ...row, productId: p.id });
      });
      for (let i = 0; i < values.length; i += 1000) {
        await trx
          .insertInto("variantOptionValues")
          .values(values.slice(i, i + 1000))
          .execute();
      }
      await trx
        .insertInto("productImages")
        .values(
          inserted.map((p) => ({
            productId: p.id,
            position: 0,
            ...images.get(p.categoryId)!,
          })),
        )
        .execute();
    });
    created += size;
    onProgress?.(created);
  }
  // Fresh planner statistics after a bulk load, or the planners guess row counts badly.
  await sql`analyze`.execute(db);
  return { created };
}

const SIZES = ["XS", "S", "M", "L", "XL"];
const COLOURS = ["Black", "White", "Grey", "Blue", "Red"];

interface VariantDraft {
  value: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  position: number;
}

/** A drafted variant as optionFacets reads it (the id orders the lines: by position). */
const asVariant = (base: number) => (v: VariantDraft) => ({
  id: base + v.position,
  priceCents: v.priceCents,
  stock: v.stock,
  option1: v.value,
  option2: null,
  option3: null,
});

/**
 * 1–5 variants per product (3 on average): clothing and sports in sizes, the rest in colours;
 * each at the product's price (so the product row is already their summary), its stock split
 * among them. One variant: no options.
 */
function syntheticVariants(
  products: readonly {
    categoryId: string;
    priceCents: number;
    originalPriceCents: number | null;
    stock: number;
  }[],
  random: ReturnType<typeof createRandom>,
): { option: { position: number; name: string; values: string[] } | null; variants: VariantDraft[] }[] {
  return products.map((product) => {
    const count = random.int(1, 5);
    const base = { priceCents: product.priceCents, originalPriceCents: product.originalPriceCents };
    if (count === 1)
      return { option: null, variants: [{ ...base, value: null, stock: product.stock, position: 0 }] };
    const sized = product.categoryId === "clothing" || product.categoryId === "sports";
    const values = (sized ? SIZES : COLOURS).slice(0, count);
    let left = product.stock;
    const variants = values.map((value, position) => {
      const stock = position === values.length - 1 ? left : random.int(0, left);
      left -= stock;
      return { ...base, value, stock, position };
    });
    return { option: { position: 1, name: sized ? "Size" : "Colour", values }, variants };
  });
}

async function drawCategoryImages(files: FileStore) {
  const images = new Map<
    string,
    { key: string; alt: string; width: number; height: number; widths: string }
  >();
  for (const [category, shape] of Object.entries(SHAPE_BY_CATEGORY)) {
    const key = `synthetic/${category}`;
    const variants = await renderWebpVariants(
      drawProductSvg({ shape, hue: (category.length * 47) % 360 }, 0),
    );
    await Promise.all(variants.map((v) => files.put(variantKey(key, v.width), v.bytes, "image/webp")));
    const largest = variants[variants.length - 1]!;
    images.set(category, {
      key,
      alt: `${category} product picture`,
      width: largest.width,
      height: largest.height,
      widths: JSON.stringify(IMAGE_WIDTHS),
    });
  }
  return images;
}
