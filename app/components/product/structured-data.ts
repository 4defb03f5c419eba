import type { ProductDetail } from "../../domain/catalog/product-detail.server.ts";
import type { ProductReview } from "../../domain/reviews/list-reviews.server.ts";
import { productsUrl } from "../../lib/catalog-constants.ts";
import type { CardImage } from "../../lib/catalog-types.ts";
import type { Currency } from "../../lib/money.ts";
import { stockLevel } from "../../lib/stock.ts";
import { variantTitle } from "../../lib/variants.ts";
import { imageUrl } from "../product-image.tsx";

export interface Crumb {
  name: string;
  /** path of the page; the last crumb (the product itself) has its canonical path too */
  path: string;
}

type BreadcrumbProduct = Pick<ProductDetail, "slug" | "name" | "category" | "subcategory">;

/** Home › Category › Subcategory › Product, each with the listing URL it stands for. */
export function productBreadcrumbs(product: BreadcrumbProduct): Crumb[] {
  const crumbs: Crumb[] = [
    { name: "Home", path: "/" },
    { name: product.category.name, path: productsUrl({ category: product.category.id }) },
  ];
  if (product.subcategory) {
    crumbs.push({
      name: product.subcategory.name,
      path: productsUrl({ category: product.category.id, subcategory: product.subcategory.id }),
    });
  }
  crumbs.push({ name: product.name, path: productPath(product.slug) });
  return crumbs;
}

export function productPath(slug: string): string {
  return `/products/${slug}`;
}

/** 89999 → "899.99": the decimal string schema.org and Open Graph expect (no currency sign, no grouping). */
export function decimalPrice(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, "0")}`;
}

/** The first ~155 characters of a text for a meta description, cut at a word boundary. */
export function metaDescription(text: string, max = 155): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, "")}…`;
}

/** The image URL used for sharing and structured data: the 960 px rendering, or the largest there is. */
export function shareImagePath(image: CardImage): string {
  const width = image.widths.includes(960) ? 960 : Math.max(...image.widths, image.width);
  return imageUrl(image.key, width);
}

type JsonLdProduct = Pick<
  ProductDetail,
  | "id"
  | "slug"
  | "name"
  | "description"
  | "brand"
  | "category"
  | "subcategory"
  | "priceCents"
  | "rating"
  | "reviewCount"
  | "stock"
  | "images"
> &
  Partial<Pick<ProductDetail, "options" | "variants" | "saleEndsAt">>;

const SCHEMA = "https://schema.org/";

/** schema.org's own property for an option where it has one (Size, Colour, Material), else the option's name. */
function variesByProperty(name: string): string {
  const key = name.trim().toLowerCase();
  if (key === "size" || key.endsWith(" size")) return `${SCHEMA}size`;
  if (key === "colour" || key === "color") return `${SCHEMA}color`;
  if (key === "material") return `${SCHEMA}material`;
  return name;
}

/**
 * schema.org for the product page: a Product with its offer, or — sold in variants — a
 * ProductGroup whose `hasVariant` Products each carry their SKU, option values and offer; with
 * the aggregate rating and the reviews shown on the page.
 */
export function productJsonLd(
  product: JsonLdProduct,
  reviews: Pick<ProductReview, "authorName" | "rating" | "title" | "body" | "createdAt">[],
  origin: string,
  currency: Currency,
): Record<string, unknown> {
  const url = new URL(productPath(product.slug), origin).toString();
  const offer = (offerUrl: string, priceCents: number, stock: number) => ({
    "@type": "Offer",
    url: offerUrl,
    price: decimalPrice(priceCents),
    priceCurrency: currency,
    availability:
      stockLevel(stock) === "out" ? "https://schema.org/OutOfStock" : "https://schema.org/InStock",
    itemCondition: "https://schema.org/NewCondition",
    // a catalogue promotion's price holds until its end (decision 035): the date, as schema.org asks
    ...(product.saleEndsAt ? { priceValidUntil: product.saleEndsAt.slice(0, 10) } : {}),
  });
  const options = product.options ?? [];
  const variants = product.variants ?? [];
  const grouped = options.length > 0 && variants.length > 0;
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": grouped ? "ProductGroup" : "Product",
    "@id": `${url}#product`,
    name: product.name,
    description: product.description,
    ...(grouped ? { productGroupID: product.slug } : { sku: product.slug, productID: String(product.id) }),
    brand: { "@type": "Brand", name: product.brand },
    category: [product.category.name, product.subcategory?.name].filter(Boolean).join(" > "),
    image: product.images.map((image) => new URL(shareImagePath(image), origin).toString()),
    url,
  };
  if (grouped) {
    data.variesBy = options.map((option) => variesByProperty(option.name));
    data.hasVariant = variants.map((variant) => {
      const variantUrl = `${url}?variant=${variant.id}`;
      const entry: Record<string, unknown> = {
        "@type": "Product",
        sku: variant.sku,
        name: `${product.name} (${variantTitle(options, variant.values)})`,
        url: variantUrl,
        offers: offer(variantUrl, variant.priceCents, variant.stock),
      };
      const extra: Record<string, unknown>[] = [];
      for (const option of options) {
        const value = variant.values[option.position - 1];
        if (!value) continue;
        const property = variesByProperty(option.name);
        if (property.startsWith(SCHEMA)) entry[property.slice(SCHEMA.length)] = value;
        else extra.push({ "@type": "PropertyValue", name: option.name, value });
      }
      if (extra.length > 0) entry.additionalProperty = extra;
      return entry;
    });
  } else {
    data.offers = offer(url, product.priceCents, product.stock);
  }
  if (product.reviewCount > 0) {
    data.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: product.rating,
      reviewCount: product.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
  }
  if (reviews.length > 0) {
    data.review = reviews.map((review) => ({
      "@type": "Review",
      author: { "@type": "Person", name: review.authorName },
      datePublished: review.createdAt.slice(0, 10),
      name: review.title,
      reviewBody: review.body,
      reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    }));
  }
  return data;
}

export function breadcrumbJsonLd(crumbs: Crumb[], origin: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: new URL(crumb.path, origin).toString(),
    })),
  };
}

/**
 * JSON for an inline <script type="application/ld+json">: every "<" escaped, so no text from the
 * catalogue (a name containing "</script>", say) can end the script element early.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
