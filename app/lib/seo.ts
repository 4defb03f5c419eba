import type { MetaDescriptor } from "react-router";

export interface SeoInput {
  title: string;
  description: string;
  /** path and query of the canonical URL, e.g. "/products?category=home" */
  path: string;
  origin: string;
  shopName: string;
  image?: string;
  type?: "website" | "product";
}

/** Title, description, canonical link and Open Graph tags for one page. */
export function seoMeta({
  title,
  description,
  path,
  origin,
  shopName,
  image,
  type = "website",
}: SeoInput): MetaDescriptor[] {
  const url = new URL(path, origin).toString();
  const fullTitle = title === shopName ? title : `${title} | ${shopName}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: shopName },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
  if (image) tags.push({ property: "og:image", content: new URL(image, origin).toString() });
  return tags;
}

interface RootData {
  origin: string;
  shop: { shopName: string };
}

/** What a route's `meta` function needs of the root loader's data: the site's origin and the shop's name. */
export function rootMetaData(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): {
  origin: string;
  contact: { name: string };
} {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
  return {
    origin: root?.origin ?? "http://localhost:3000",
    contact: { name: root?.shop.shopName ?? "Cartwheel" },
  };
}
