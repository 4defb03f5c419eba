import { describe, expect, it } from "vitest";
import {
  breadcrumbJsonLd,
  decimalPrice,
  metaDescription,
  productBreadcrumbs,
  productJsonLd,
  serializeJsonLd,
  shareImagePath,
} from "./structured-data.ts";

const ORIGIN = "https://shop.example";

const product = {
  id: 7,
  slug: "kestrel-x12-smartphone",
  name: "Kestrel X12 Smartphone",
  description: "A phone.",
  brand: "Kestrel",
  category: { id: "electronics", name: "Electronics" },
  subcategory: { id: "smartphones", name: "Smartphones" },
  priceCents: 89999,
  rating: 4.6,
  reviewCount: 1284,
  stock: 42,
  images: [
    { key: "products/a-1", alt: "front", width: 960, height: 960, widths: [320, 640, 960] },
    { key: "products/a-2", alt: "side", width: 640, height: 640, widths: [320, 640] },
  ],
};

describe("decimalPrice", () => {
  it.each([
    [89999, "899.99"],
    [129999, "1299.99"],
    [100, "1.00"],
    [5, "0.05"],
    [0, "0.00"],
  ])("%i cents → %s", (cents, text) => {
    expect(decimalPrice(cents)).toBe(text);
  });
});

describe("metaDescription", () => {
  it("keeps a short text whole, with whitespace collapsed", () => {
    expect(metaDescription("  A  short\n text. ")).toBe("A short text.");
  });

  it("cuts a long text at a word boundary, within ~155 characters", () => {
    const text = "word ".repeat(60).trim();
    const description = metaDescription(text);
    expect(description.length).toBeLessThanOrEqual(155);
    expect(description.endsWith("word…")).toBe(true);
  });
});

describe("productBreadcrumbs", () => {
  it("is Home › Category › Subcategory › Product with listing links", () => {
    expect(productBreadcrumbs(product)).toEqual([
      { name: "Home", path: "/" },
      { name: "Electronics", path: "/products?category=electronics" },
      { name: "Smartphones", path: "/products?category=electronics&subcategory=smartphones" },
      { name: "Kestrel X12 Smartphone", path: "/products/kestrel-x12-smartphone" },
    ]);
  });

  it("leaves out the subcategory when there is none", () => {
    expect(productBreadcrumbs({ ...product, subcategory: null }).map((c) => c.name)).toEqual([
      "Home",
      "Electronics",
      "Kestrel X12 Smartphone",
    ]);
  });
});

describe("productJsonLd", () => {
  it("gives the offer in the shop's currency", () => {
    expect(productJsonLd(product, [], ORIGIN, "EUR")).toMatchObject({ offers: { priceCurrency: "EUR" } });
  });

  it("gives a catalogue sale's price until its end (decision 035), and no end when it has none", () => {
    const onSale = { ...product, priceCents: 7_200, saleEndsAt: "2026-12-05T00:00:00.000Z" };
    expect(productJsonLd(onSale, [], ORIGIN, "USD")).toMatchObject({
      offers: { price: "72.00", priceValidUntil: "2026-12-05" },
    });
    const open = productJsonLd({ ...onSale, saleEndsAt: null }, [], ORIGIN, "USD");
    expect(open.offers).not.toHaveProperty("priceValidUntil");
    expect(productJsonLd(product, [], ORIGIN, "USD").offers).not.toHaveProperty("priceValidUntil");
  });

  it("describes the product, its offer and its rating", () => {
    const data = productJsonLd(product, [], ORIGIN, "USD");
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Kestrel X12 Smartphone",
      description: "A phone.",
      sku: "kestrel-x12-smartphone",
      brand: { "@type": "Brand", name: "Kestrel" },
      image: [
        "https://shop.example/images/products/a-1-960.webp",
        "https://shop.example/images/products/a-2-640.webp",
      ],
      url: "https://shop.example/products/kestrel-x12-smartphone",
      offers: {
        "@type": "Offer",
        price: "899.99",
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
        url: "https://shop.example/products/kestrel-x12-smartphone",
      },
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.6, reviewCount: 1284 },
    });
    expect(data.review).toBeUndefined();
  });

  it("says OutOfStock at stock 0, InStock when low, and leaves out a rating nobody gave", () => {
    const out = productJsonLd({ ...product, stock: 0, reviewCount: 0 }, [], ORIGIN, "USD");
    expect((out.offers as { availability: string }).availability).toBe("https://schema.org/OutOfStock");
    expect(out.aggregateRating).toBeUndefined();
    const low = productJsonLd({ ...product, stock: 3 }, [], ORIGIN, "USD");
    expect((low.offers as { availability: string }).availability).toBe("https://schema.org/InStock");
  });

  it("lists the reviews shown on the page", () => {
    const data = productJsonLd(
      product,
      [
        {
          authorName: "Ann",
          rating: 5,
          title: "Great",
          body: "Loved it",
          createdAt: "2026-11-02T10:00:00.000Z",
        },
      ],
      ORIGIN,
      "USD",
    );
    expect(data.review).toEqual([
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Ann" },
        datePublished: "2026-11-02",
        name: "Great",
        reviewBody: "Loved it",
        reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
      },
    ]);
  });
});

describe("breadcrumbJsonLd", () => {
  it("numbers the crumbs from 1 with absolute URLs", () => {
    const data = breadcrumbJsonLd(productBreadcrumbs(product), ORIGIN);
    expect(data["@type"]).toBe("BreadcrumbList");
    expect(data.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://shop.example/" },
      {
        "@type": "ListItem",
        position: 2,
        name: "Electronics",
        item: "https://shop.example/products?category=electronics",
      },
      {
        "@type": "ListItem",
        position: 3,
        name: "Smartphones",
        item: "https://shop.example/products?category=electronics&subcategory=smartphones",
      },
      {
        "@type": "ListItem",
        position: 4,
        name: "Kestrel X12 Smartphone",
        item: "https://shop.example/products/kestrel-x12-smartphone",
      },
    ]);
  });
});

describe("serializeJsonLd", () => {
  it("escapes every '<' so catalogue text cannot close the script element", () => {
    const html = serializeJsonLd({ name: "</script><script>alert(1)</script><!--" });
    expect(html).not.toContain("<");
    expect(html).toContain("\\u003c/script>");
    expect(JSON.parse(html)).toEqual({ name: "</script><script>alert(1)</script><!--" });
  });
});

describe("shareImagePath", () => {
  it("uses the 960 px rendering, or the largest one there is", () => {
    expect(shareImagePath(product.images[0]!)).toBe("/images/products/a-1-960.webp");
    expect(shareImagePath(product.images[1]!)).toBe("/images/products/a-2-640.webp");
  });
});

describe("productJsonLd for a product sold in variants", () => {
  it("is a ProductGroup varying by its options, each variant a Product with its SKU, values and offer", () => {
    const data = productJsonLd(
      {
        ...product,
        options: [
          { position: 1, name: "Storage", values: ["256 GB", "512 GB"] },
          { position: 2, name: "Colour", values: ["Graphite"] },
        ],
        variants: [
          {
            id: 11,
            sku: "KES-256-GRA",
            values: ["256 GB", "Graphite", null],
            priceCents: 89_999,
            originalPriceCents: null,
            stock: 4,
            imageIndex: null,
          },
          {
            id: 12,
            sku: "KES-512-GRA",
            values: ["512 GB", "Graphite", null],
            priceCents: 99_999,
            originalPriceCents: null,
            stock: 0,
            imageIndex: null,
          },
        ],
      },
      [],
      ORIGIN,
      "USD",
    );
    expect(data["@type"]).toBe("ProductGroup");
    expect(data).toMatchObject({
      productGroupID: "kestrel-x12-smartphone",
      variesBy: ["Storage", "https://schema.org/color"],
    });
    expect(data.offers).toBeUndefined();
    expect(data.sku).toBeUndefined();
    expect(data.hasVariant).toEqual([
      {
        "@type": "Product",
        sku: "KES-256-GRA",
        name: "Kestrel X12 Smartphone (Storage: 256 GB · Colour: Graphite)",
        url: "https://shop.example/products/kestrel-x12-smartphone?variant=11",
        color: "Graphite",
        additionalProperty: [{ "@type": "PropertyValue", name: "Storage", value: "256 GB" }],
        offers: expect.objectContaining({ price: "899.99", availability: "https://schema.org/InStock" }),
      },
      {
        "@type": "Product",
        sku: "KES-512-GRA",
        name: "Kestrel X12 Smartphone (Storage: 512 GB · Colour: Graphite)",
        url: "https://shop.example/products/kestrel-x12-smartphone?variant=12",
        color: "Graphite",
        additionalProperty: [{ "@type": "PropertyValue", name: "Storage", value: "512 GB" }],
        offers: expect.objectContaining({ price: "999.99", availability: "https://schema.org/OutOfStock" }),
      },
    ]);
  });
});
