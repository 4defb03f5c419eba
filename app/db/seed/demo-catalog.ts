import type { ProductInput } from "../../lib/product-input.ts";
import type { ProductArt } from "./product-art.ts";

/** A demo product: the product's fields (lib/product-input.ts), plus what the seed adds. */
export interface DemoProduct extends ProductInput {
  slug: string;
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
  }[];
  rating: number;
  reviewCount: number;
  /** days before the seed date, so "Newest" has a stable order */
  ageDays: number;
  art: ProductArt;
}

/**
 * The spec's 8 sample products, and two apparel products sold in sizes × colours (some combinations
 * missing, some sold out): electronics (smartphones, laptops, audio), clothing
 * (accessories), home (furniture, kitchen, security), beauty (skincare); prices 129.99 to
 * 1299.99, discounts 13 to 25 %; stock levels that show all three stock messages.
 */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    slug: "kestrel-x12-smartphone",
    name: "Kestrel X12 Smartphone",
    description:
      "A 6.4-inch OLED smartphone with a 120 Hz display, a triple 50 MP camera system and a battery that lasts two full days. Water resistant to IP68 and built around an aluminium frame.",
    brand: "Kestrel",
    categoryId: "electronics",
    subcategoryId: "smartphones",
    priceCents: 89_999,
    originalPriceCents: 109_999,
    rating: 4.6,
    reviewCount: 1284,
    stock: 42,
    featured: true,
    newArrival: false,
    bestSeller: true,
    ageDays: 60,
    specifications: {
      Display: '6.4" OLED, 120 Hz',
      Storage: "256 GB",
      Camera: "50 MP wide, 12 MP ultra-wide, 10 MP telephoto",
      Battery: "4,800 mAh",
      "Water resistance": "IP68",
    },
    art: { shape: "phone", hue: 215 },
    options: [
      { name: "Storage", values: ["256 GB", "512 GB"] },
      { name: "Colour", values: ["Graphite", "Silver"] },
    ],
    variants: [
      {
        values: ["256 GB", "Graphite"],
        sku: "KES-X12-256-GRA",
        priceCents: 89_999,
        originalPriceCents: 109_999,
        stock: 42,
      },
      {
        values: ["256 GB", "Silver"],
        sku: "KES-X12-256-SIL",
        priceCents: 89_999,
        originalPriceCents: 109_999,
        stock: 15,
      },
      {
        values: ["512 GB", "Graphite"],
        sku: "KES-X12-512-GRA",
        priceCents: 99_999,
        originalPriceCents: 119_999,
        stock: 8,
      },
      {
        values: ["512 GB", "Silver"],
        sku: "KES-X12-512-SIL",
        priceCents: 99_999,
        originalPriceCents: 119_999,
        stock: 0,
      },
    ],
  },
  {
    slug: "lumen-book-pro-14",
    name: "Lumen Book Pro 14 Laptop",
    description:
      "A 14-inch laptop for serious work: 12-core processor, 32 GB of memory and a 1 TB SSD in a 1.4 kg body. The 3K display covers the full DCI-P3 colour range.",
    brand: "Lumen",
    categoryId: "electronics",
    subcategoryId: "laptops",
    priceCents: 129_999,
    originalPriceCents: 149_999,
    rating: 4.8,
    reviewCount: 642,
    stock: 7,
    featured: true,
    newArrival: true,
    bestSeller: false,
    ageDays: 6,
    specifications: {
      Processor: "12-core, up to 4.8 GHz",
      Memory: "32 GB",
      Storage: "1 TB SSD",
      Display: '14" 3K, 100% DCI-P3',
      Weight: "1.4 kg",
    },
    art: { shape: "laptop", hue: 260 },
  },
  {
    slug: "aurora-anc-headphones",
    name: "Aurora ANC Wireless Headphones",
    description:
      "Over-ear headphones with adaptive noise cancelling, 40 hours of playback and a fold-flat design. Multipoint Bluetooth keeps your laptop and phone connected at once.",
    brand: "Aurora",
    categoryId: "electronics",
    subcategoryId: "audio",
    priceCents: 24_999,
    originalPriceCents: 32_999,
    rating: 4.5,
    reviewCount: 2113,
    stock: 85,
    featured: true,
    newArrival: false,
    bestSeller: true,
    ageDays: 120,
    specifications: {
      "Noise cancelling": "Adaptive, 3 modes",
      "Battery life": "40 hours",
      Connectivity: "Bluetooth 5.4, multipoint",
      Weight: "254 g",
    },
    art: { shape: "headphones", hue: 330 },
    options: [{ name: "Colour", values: ["Midnight", "Sand"] }],
    variants: [
      { values: ["Midnight"], sku: "AUR-ANC-MID", priceCents: 24_999, originalPriceCents: 32_999, stock: 85 },
      { values: ["Sand"], sku: "AUR-ANC-SND", priceCents: 24_999, originalPriceCents: 32_999, stock: 30 },
    ],
  },
  {
    slug: "veltro-classic-leather-watch",
    name: "Veltro Classic Leather Watch",
    description:
      "A 40 mm automatic watch with a sapphire crystal, a brushed steel case and a hand-stitched Italian leather strap. Water resistant to 50 metres.",
    brand: "Veltro",
    categoryId: "clothing",
    subcategoryId: "accessories",
    priceCents: 18_999,
    originalPriceCents: 22_999,
    rating: 4.3,
    reviewCount: 318,
    stock: 15,
    featured: false,
    newArrival: true,
    bestSeller: false,
    ageDays: 3,
    specifications: {
      Case: "40 mm brushed steel",
      Movement: "Automatic, 42-hour reserve",
      Crystal: "Sapphire",
      Strap: "Italian leather, 20 mm",
      "Water resistance": "50 m",
    },
    art: { shape: "watch", hue: 30 },
    options: [{ name: "Case size", values: ["40 mm", "44 mm"] }],
    variants: [
      { values: ["40 mm"], sku: "VEL-CLS-40", priceCents: 18_999, originalPriceCents: 22_999, stock: 15 },
      { values: ["44 mm"], sku: "VEL-CLS-44", priceCents: 20_999, originalPriceCents: null, stock: 6 },
    ],
  },
  {
    slug: "nordhaus-oak-lounge-chair",
    name: "Nordhaus Oak Lounge Chair",
    description:
      "A solid oak lounge chair with a woven paper-cord seat and a deep, relaxed recline. Made to order in small batches and delivered fully assembled.",
    brand: "Nordhaus",
    categoryId: "home",
    subcategoryId: "furniture",
    priceCents: 54_999,
    originalPriceCents: 69_999,
    rating: 4.7,
    reviewCount: 96,
    stock: 3,
    featured: true,
    newArrival: false,
    bestSeller: false,
    ageDays: 45,
    specifications: {
      Material: "Solid oak, paper cord",
      Dimensions: "72 × 78 × 74 cm",
      "Seat height": "38 cm",
      Assembly: "Delivered assembled",
    },
    art: { shape: "chair", hue: 35 },
  },
  {
    slug: "nordhaus-pro-stand-mixer",
    name: "Nordhaus Pro Stand Mixer",
    description:
      "A 5.5-litre stand mixer with a 1,000 W motor, ten speeds and a planetary mixing action. Comes with a whisk, a dough hook and a flat beater.",
    brand: "Nordhaus",
    categoryId: "home",
    subcategoryId: "kitchen",
    priceCents: 32_999,
    originalPriceCents: 39_999,
    rating: 4.4,
    reviewCount: 871,
    stock: 0,
    featured: false,
    newArrival: false,
    bestSeller: true,
    ageDays: 200,
    specifications: {
      Capacity: "5.5 L",
      Power: "1,000 W",
      Speeds: "10",
      Attachments: "Whisk, dough hook, flat beater",
    },
    art: { shape: "mixer", hue: 0 },
  },
  {
    slug: "kestrel-home-security-camera",
    name: "Kestrel 2K Home Security Camera",
    description:
      "An indoor and outdoor security camera with 2K video, colour night vision and on-device person detection. Records locally; no subscription needed.",
    brand: "Kestrel",
    categoryId: "home",
    subcategoryId: "security",
    priceCents: 12_999,
    originalPriceCents: 16_999,
    rating: 4.2,
    reviewCount: 455,
    stock: 60,
    featured: false,
    newArrival: true,
    bestSeller: true,
    ageDays: 10,
    specifications: {
      Resolution: "2K (2560 × 1440)",
      "Night vision": "Colour, up to 10 m",
      Storage: "microSD up to 256 GB",
      Rating: "IP65",
    },
    art: { shape: "camera", hue: 190 },
  },
  {
    slug: "solace-radiance-skincare-set",
    name: "Solace Radiance Skincare Set",
    description:
      "A three-step routine of gentle cleanser, 15% vitamin C serum and a ceramide night cream. Fragrance-free and suitable for sensitive skin.",
    brand: "Solace",
    categoryId: "beauty",
    subcategoryId: "skincare",
    priceCents: 14_999,
    originalPriceCents: 19_999,
    rating: 4.6,
    reviewCount: 734,
    stock: 9,
    featured: true,
    newArrival: true,
    bestSeller: true,
    ageDays: 1,
    specifications: {
      Contents: "Cleanser 150 ml, serum 30 ml, night cream 50 ml",
      "Skin type": "All, including sensitive",
      "Fragrance-free": "Yes",
    },
    art: { shape: "bottle", hue: 140 },
  },
  {
    slug: "loomwell-organic-cotton-t-shirt",
    name: "Loomwell Organic Cotton T-Shirt",
    description:
      "A heavyweight T-shirt cut from 100 % organic cotton jersey, garment-dyed for a soft hand and a colour that lasts. Relaxed fit, ribbed crew neck, made to be worn for years.",
    brand: "Loomwell",
    categoryId: "clothing",
    subcategoryId: "men",
    priceCents: 2_499,
    originalPriceCents: null,
    rating: 4.4,
    reviewCount: 318,
    stock: 97,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 4,
    specifications: {
      Material: "100 % organic cotton, 220 g/m²",
      Fit: "Relaxed",
      Care: "Machine wash at 30 °C",
    },
    art: { shape: "shirt", hue: 220 },
    options: [
      { name: "Size", values: ["S", "M", "L", "XL"] },
      { name: "Colour", values: ["Black", "White", "Navy"] },
    ],
    variants: [
      {
        values: ["S", "Black"],
        sku: "LMW-TEE-S-BLA",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 18,
      },
      {
        values: ["M", "Black"],
        sku: "LMW-TEE-M-BLA",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 25,
      },
      {
        values: ["L", "Black"],
        sku: "LMW-TEE-L-BLA",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 0,
      },
      {
        values: ["XL", "Black"],
        sku: "LMW-TEE-XL-BLA",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 6,
      },
      {
        values: ["S", "White"],
        sku: "LMW-TEE-S-WHI",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 9,
      },
      {
        values: ["M", "White"],
        sku: "LMW-TEE-M-WHI",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 14,
      },
      {
        values: ["L", "White"],
        sku: "LMW-TEE-L-WHI",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 11,
      },
      {
        values: ["S", "Navy"],
        sku: "LMW-TEE-S-NAV",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 4,
      },
      {
        values: ["M", "Navy"],
        sku: "LMW-TEE-M-NAV",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 0,
      },
      {
        values: ["L", "Navy"],
        sku: "LMW-TEE-L-NAV",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 7,
      },
      {
        values: ["XL", "Navy"],
        sku: "LMW-TEE-XL-NAV",
        priceCents: 2499,
        originalPriceCents: null,
        stock: 3,
      },
    ],
  },
  {
    slug: "stride-runner-sneakers",
    name: "Stride Runner Sneakers",
    description:
      "Lightweight everyday running shoes with a breathable knit upper, a cushioned foam midsole and a grippy rubber outsole. Sizes are EU; they run true to size.",
    brand: "Stride",
    categoryId: "clothing",
    subcategoryId: "shoes",
    priceCents: 8_999,
    originalPriceCents: null,
    rating: 4.5,
    reviewCount: 207,
    stock: 35,
    featured: false,
    newArrival: false,
    bestSeller: false,
    ageDays: 20,
    specifications: {
      Upper: "Engineered knit",
      Midsole: "EVA foam",
      Drop: "8 mm",
      Weight: "260 g (EU 42)",
    },
    art: { shape: "sneaker", hue: 10 },
    options: [
      { name: "Size", values: ["40", "41", "42", "43", "44"] },
      { name: "Colour", values: ["White", "Black"] },
    ],
    variants: [
      {
        values: ["40", "White"],
        sku: "STR-RUN-40-WHI",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 5,
      },
      {
        values: ["41", "White"],
        sku: "STR-RUN-41-WHI",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 8,
      },
      {
        values: ["42", "White"],
        sku: "STR-RUN-42-WHI",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 0,
      },
      {
        values: ["43", "White"],
        sku: "STR-RUN-43-WHI",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 6,
      },
      {
        values: ["44", "White"],
        sku: "STR-RUN-44-WHI",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 2,
      },
      {
        values: ["41", "Black"],
        sku: "STR-RUN-41-BLA",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 3,
      },
      {
        values: ["42", "Black"],
        sku: "STR-RUN-42-BLA",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 7,
      },
      {
        values: ["43", "Black"],
        sku: "STR-RUN-43-BLA",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 0,
      },
      {
        values: ["44", "Black"],
        sku: "STR-RUN-44-BLA",
        priceCents: 8999,
        originalPriceCents: null,
        stock: 4,
      },
    ],
  },
];
