/** The shop's category tree as the spec names it; menus and the seed are built from it. */
export const CATEGORIES = ["electronics", "clothing", "home", "beauty", "toys", "sports"] as const;
export type CategoryId = (typeof CATEGORIES)[number];

export interface CategoryNode {
  id: string;
  name: string;
  subcategories: Array<{ id: string; name: string }>;
}

const sub = (id: string, name = id[0]!.toUpperCase() + id.slice(1)) => ({ id, name });

/** Every category and subcategory the storefront can filter on (spec §2 mega menu, §3 samples). */
export const CATEGORY_TREE: CategoryNode[] = [
  {
    id: "electronics",
    name: "Electronics",
    subcategories: ["smartphones", "laptops", "tablets", "cameras", "audio"].map((s) => sub(s)),
  },
  {
    id: "clothing",
    name: "Clothing & Fashion",
    subcategories: ["men", "women", "kids", "shoes", "accessories"].map((s) => sub(s)),
  },
  {
    id: "home",
    name: "Home & Garden",
    subcategories: ["furniture", "kitchen", "bedding", "appliances", "garden", "security"].map((s) => sub(s)),
  },
  { id: "beauty", name: "Beauty", subcategories: [sub("skincare"), sub("makeup"), sub("fragrance")] },
  { id: "toys", name: "Toys", subcategories: [sub("games"), sub("puzzles"), sub("outdoor")] },
  { id: "sports", name: "Sports", subcategories: [sub("fitness"), sub("cycling"), sub("running")] },
  { id: "books", name: "Books", subcategories: [] },
  { id: "health", name: "Health", subcategories: [] },
];

/** Mega menu: four columns (spec §2 Layout). */
export const MEGA_MENU_COLUMNS: Array<{
  title: string;
  links: Array<{ label: string; category: string; subcategory?: string }>;
}> = [
  {
    title: "Electronics",
    links: ["smartphones", "laptops", "tablets", "cameras", "audio"].map((s) => ({
      label: s[0]!.toUpperCase() + s.slice(1),
      category: "electronics",
      subcategory: s,
    })),
  },
  {
    title: "Clothing & Fashion",
    links: ["men", "women", "kids", "shoes", "accessories"].map((s) => ({
      label: s[0]!.toUpperCase() + s.slice(1),
      category: "clothing",
      subcategory: s,
    })),
  },
  {
    title: "Home & Garden",
    links: ["furniture", "kitchen", "bedding", "appliances", "garden"].map((s) => ({
      label: s[0]!.toUpperCase() + s.slice(1),
      category: "home",
      subcategory: s,
    })),
  },
  {
    title: "More Categories",
    links: ["beauty", "toys", "sports", "books", "health"].map((c) => ({
      label: c[0]!.toUpperCase() + c.slice(1),
      category: c,
    })),
  },
];

/** Home page category tiles (spec §2 Home). */
export const CATEGORY_TILES = [
  { label: "Electronics", category: "electronics" },
  { label: "Fashion", category: "clothing" },
  { label: "Home", category: "home" },
  { label: "Beauty", category: "beauty" },
  { label: "Toys", category: "toys" },
  { label: "Sports", category: "sports" },
] as const;

/** Featured Brands row: six brands, linked by brand value in lower case. */
export const FEATURED_BRANDS = ["Kestrel", "Lumen", "Aurora", "Veltro", "Nordhaus", "Solace"] as const;

export function productsUrl(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return query ? `/products?${query}` : "/products";
}
