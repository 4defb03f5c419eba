import type { DemoProduct, DemoReview } from "./demo-product.ts";

/**
 * Demo products for the categories the spec's 8 samples leave empty — Toys and Sports (home page
 * tiles and the mega menu), Books and Health (the mega menu's "More Categories") — so every
 * category the shop shows leads to products. They sell at full price (no deals), carry no home
 * section flags, came months ago and keep more than 10 of each variant, so the storefront's
 * sections, deals, new arrivals and stock warnings stay the spec's own.
 */
export const DEMO_MORE_CATEGORIES: DemoProduct[] = [
  {
    slug: "tumbletown-family-board-game",
    name: "Tumbletown Family Board Game",
    description:
      "Build a town together, one tile at a time: a cooperative board game for 2 to 6 players from age 7, with rules you learn in five minutes and games that last about 40.",
    brand: "Tumbletown",
    categoryId: "toys",
    subcategoryId: "games",
    priceCents: 3_499,
    originalPriceCents: null,
    rating: 4.7,
    reviewCount: 388,
    stock: 40,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 150,
    specifications: {
      Players: "2–6",
      Age: "7+",
      "Playing time": "30–45 minutes",
      Contents: "Board, 90 tiles, 6 wooden pawns, 2 dice",
    },
    art: { shape: "boardgame", hue: 45 },
  },
  {
    slug: "brightfold-1000-piece-jigsaw-puzzle",
    name: "Brightfold 1000-Piece Jigsaw Puzzle",
    description:
      "A harbour at dusk in 1000 thick, snug-fitting pieces cut from recycled board, with a full-size poster of the picture to work from. Finished size 70 × 50 cm.",
    brand: "Brightfold",
    categoryId: "toys",
    subcategoryId: "puzzles",
    priceCents: 2_199,
    originalPriceCents: null,
    rating: 4.5,
    reviewCount: 164,
    stock: 55,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 110,
    specifications: {
      Pieces: "1000",
      "Finished size": "70 × 50 cm",
      Material: "Recycled board, plant-based inks",
    },
    art: { shape: "puzzle", hue: 200 },
  },
  {
    slug: "ironleaf-adjustable-dumbbell",
    name: "Ironleaf Adjustable Dumbbell",
    description:
      "One dumbbell that replaces a rack: turn the dial to pick the weight in 2 kg steps. A knurled grip, a compact tray and plates that lock in place until you put it back.",
    brand: "Ironleaf",
    categoryId: "sports",
    subcategoryId: "fitness",
    priceCents: 11_999,
    originalPriceCents: null,
    rating: 4.6,
    reviewCount: 512,
    stock: 30,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 130,
    specifications: {
      Steps: "2 kg",
      Grip: "Knurled, 32 mm",
      Tray: "Included",
    },
    art: { shape: "dumbbell", hue: 100 },
    options: [{ name: "Weight", values: ["2–12 kg", "4–24 kg"] }],
    variants: [
      { values: ["2–12 kg"], sku: "IRL-DB-12", priceCents: 11_999, originalPriceCents: null, stock: 30 },
      { values: ["4–24 kg"], sku: "IRL-DB-24", priceCents: 17_999, originalPriceCents: null, stock: 18 },
    ],
  },
  {
    slug: "ridgeway-road-cycling-helmet",
    name: "Ridgeway Road Cycling Helmet",
    description:
      "A light, well-vented road helmet with a rotational impact liner, a dial fit system and a magnetic buckle you can close with gloves on. Certified to EN 1078.",
    brand: "Ridgeway",
    categoryId: "sports",
    subcategoryId: "cycling",
    priceCents: 8_999,
    originalPriceCents: null,
    rating: 4.4,
    reviewCount: 231,
    stock: 28,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 95,
    specifications: {
      Vents: "18",
      Weight: "265 g (size M)",
      Certification: "EN 1078",
    },
    art: { shape: "helmet", hue: 350 },
    options: [{ name: "Size", values: ["M (54–58 cm)", "L (58–62 cm)"] }],
    variants: [
      { values: ["M (54–58 cm)"], sku: "RDG-HLM-M", priceCents: 8_999, originalPriceCents: null, stock: 28 },
      { values: ["L (58–62 cm)"], sku: "RDG-HLM-L", priceCents: 8_999, originalPriceCents: null, stock: 16 },
    ],
  },
  {
    slug: "the-patient-garden-hardcover",
    name: "The Patient Garden (Hardcover)",
    description:
      "A year in a small town garden, month by month: what to sow, what to leave alone and what the birds are up to. 320 pages with colour illustrations throughout.",
    brand: "Fernhill Books",
    categoryId: "books",
    subcategoryId: null,
    priceCents: 2_800,
    originalPriceCents: null,
    rating: 4.8,
    reviewCount: 97,
    stock: 45,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 180,
    specifications: {
      Format: "Hardcover",
      Pages: "320",
      Language: "English",
    },
    art: { shape: "book", hue: 120 },
  },
  {
    slug: "evenkeel-family-first-aid-kit",
    name: "Evenkeel Family First Aid Kit",
    description:
      "Everything for the cuts, scrapes and sprains of family life in a zipped case with labelled pockets: 120 pieces, a guide card and room to add your own medicines.",
    brand: "Evenkeel",
    categoryId: "health",
    subcategoryId: null,
    priceCents: 3_999,
    originalPriceCents: null,
    rating: 4.6,
    reviewCount: 143,
    stock: 60,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 140,
    specifications: {
      Pieces: "120",
      Case: "Zipped, 24 × 17 × 8 cm",
      Guide: "Included",
    },
    art: { shape: "kit", hue: 5 },
  },
];

/** The latest written reviews of these products (see DEMO_REVIEWS). */
export const DEMO_MORE_CATEGORY_REVIEWS: Record<string, DemoReview[]> = {
  "tumbletown-family-board-game": [
    {
      authorName: "Jonas E.",
      rating: 5,
      title: "Our new Sunday afternoon game",
      body: "Easy enough for our seven-year-old, interesting enough for the grown-ups. Nobody is knocked out early, so nobody sulks.",
      daysAgo: 5,
    },
    {
      authorName: "Clara V.",
      rating: 4,
      title: "Lovely pieces, box is a bit big",
      body: "The wooden pawns and thick tiles feel great. The box takes more room on the shelf than it needs to.",
      daysAgo: 26,
    },
  ],
  "brightfold-1000-piece-jigsaw-puzzle": [
    {
      authorName: "Margaret H.",
      rating: 5,
      title: "Pieces fit properly",
      body: "No loose fits and no pieces that look alike from the back. The poster helped a lot with the sky.",
      daysAgo: 9,
    },
    {
      authorName: "Samir A.",
      rating: 4,
      title: "A good challenge",
      body: "Took us about a week of evenings. The colours are exactly like the picture on the box.",
      daysAgo: 31,
    },
  ],
  "ironleaf-adjustable-dumbbell": [
    {
      authorName: "Kofi B.",
      rating: 5,
      title: "Saved half my spare room",
      body: "The dial is quick and the plates never rattle. I use the heavier one for rows and the lighter setting for curls.",
      daysAgo: 7,
    },
    {
      authorName: "Anna P.",
      rating: 4,
      title: "Solid, a little long",
      body: "Well made and easy to adjust. At the lightest setting it is still as long as at the heaviest, which takes some getting used to.",
      daysAgo: 40,
    },
  ],
  "ridgeway-road-cycling-helmet": [
    {
      authorName: "Lucas F.",
      rating: 5,
      title: "Cool on long climbs",
      body: "The vents really work on hot days and the dial makes it easy to get a snug fit. The magnetic buckle is brilliant with gloves.",
      daysAgo: 12,
    },
    {
      authorName: "Grace N.",
      rating: 4,
      title: "Comfortable, check the size",
      body: "I measured my head and the M fits perfectly. The pads are comfortable and wash well.",
      daysAgo: 35,
    },
  ],
  "the-patient-garden-hardcover": [
    {
      authorName: "Edith R.",
      rating: 5,
      title: "A book to keep by the back door",
      body: "Practical and gentle at once. I read the month ahead every few weeks and the illustrations are a joy.",
      daysAgo: 15,
    },
    {
      authorName: "Tomasz K.",
      rating: 5,
      title: "Bought a second copy as a gift",
      body: "Beautifully printed and bound. The advice suits a small garden like mine rather than an estate.",
      daysAgo: 60,
    },
  ],
  "evenkeel-family-first-aid-kit": [
    {
      authorName: "Rachel S.",
      rating: 5,
      title: "Everything where you expect it",
      body: "The labelled pockets mean you find the plasters in seconds, which matters with a crying child. Good quality contents.",
      daysAgo: 4,
    },
    {
      authorName: "Viktor L.",
      rating: 4,
      title: "Good kit for the car",
      body: "Compact enough for the boot and well stocked. I added a few things of my own and it still closes easily.",
      daysAgo: 22,
    },
  ],
};
