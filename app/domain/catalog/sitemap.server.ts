import { HELP_PAGE_PATHS } from "../../content/help/pages.ts";
import type { Database } from "../../db/database.server.ts";
import { CATEGORY_TREE, productsUrl } from "../../lib/catalog-constants.ts";

/** sitemaps.org: at most 50 000 URLs per sitemap file. */
export const SITEMAP_XML_MAX_URLS = 50_000;
/** The HTML sitemap lists this many of the newest products and links to the listing for the rest. */
export const HTML_SITEMAP_PRODUCT_LIMIT = 500;

export interface SitemapProduct {
  slug: string;
  name: string;
  updatedAt: string;
}

export const productPath = (slug: string) => `/products/${encodeURIComponent(slug)}`;

/** The newest live (not archived) products first. */
export async function listSitemapProducts(db: Database, limit: number): Promise<SitemapProduct[]> {
  if (limit <= 0) return [];
  return db
    .selectFrom("products")
    .select(["slug", "name", "updatedAt"])
    .where("archivedAt", "is", null)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function countLiveProducts(db: Database): Promise<number> {
  const { count } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("archivedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** What /sitemap shows from the database: the newest products and how many there are in all. */
export async function getHtmlSitemapProducts(
  db: Database,
  limit = HTML_SITEMAP_PRODUCT_LIMIT,
): Promise<{ products: SitemapProduct[]; total: number }> {
  const [products, total] = await Promise.all([listSitemapProducts(db, limit), countLiveProducts(db)]);
  return { products, total };
}

/**
 * The storefront's indexable pages that do not come from the database: home, the listings
 * (all, new arrivals, deals, every category and subcategory), the help centre and contact.
 * Cart, checkout, account and admin are private and left out (robots.txt disallows them).
 */
export function staticSitemapPaths(): string[] {
  const categoryPaths = CATEGORY_TREE.flatMap((category) => [
    productsUrl({ category: category.id }),
    ...category.subcategories.map((sub) => productsUrl({ category: category.id, subcategory: sub.id })),
  ]);
  return [
    "/",
    "/products",
    "/products/new-arrivals",
    "/products/deals",
    ...categoryPaths,
    "/help",
    ...HELP_PAGE_PATHS,
    "/contact",
    "/sitemap",
  ];
}

export interface SitemapEntry {
  /** absolute URL */
  loc: string;
  /** W3C date (YYYY-MM-DD) */
  lastmod?: string;
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** A sitemaps.org <urlset> document. */
export function renderUrlset(entries: SitemapEntry[]): string {
  const urls = entries.map(({ loc, lastmod }) =>
    lastmod
      ? `<url><loc>${escapeXml(loc)}</loc><lastmod>${escapeXml(lastmod)}</lastmod></url>`
      : `<url><loc>${escapeXml(loc)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/**
 * /sitemap.xml: the static pages, then product pages newest first, as absolute URLs on `origin`
 * (the shop's PUBLIC_URL). Capped at `maxUrls` (the protocol's 50 000 by default).
 */
export async function buildSitemapXml(
  db: Database,
  origin: string,
  { maxUrls = SITEMAP_XML_MAX_URLS }: { maxUrls?: number } = {},
): Promise<string> {
  const absolute = (path: string) => new URL(path, origin).href;
  const pages: SitemapEntry[] = staticSitemapPaths()
    .slice(0, maxUrls)
    .map((path) => ({ loc: absolute(path) }));
  const products = await listSitemapProducts(db, maxUrls - pages.length);
  return renderUrlset([
    ...pages,
    ...products.map((p) => ({ loc: absolute(productPath(p.slug)), lastmod: p.updatedAt.slice(0, 10) })),
  ]);
}

/** /robots.txt: everything may be crawled except the private areas; points to the sitemap. */
export function renderRobotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /cart",
    "Disallow: /checkout",
    "Disallow: /account",
    "Disallow: /admin",
    "",
    `Sitemap: ${new URL("/sitemap.xml", origin).href}`,
    "",
  ].join("\n");
}
