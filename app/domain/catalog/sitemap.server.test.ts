import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { insertProduct } from "../../../tests/helpers/catalog.ts";
import { HELP_PAGE_PATHS } from "../../content/help/pages.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import {
  buildSitemapXml,
  countLiveProducts,
  getHtmlSitemapProducts,
  listSitemapProducts,
  renderRobotsTxt,
  renderUrlset,
  SITEMAP_XML_MAX_URLS,
  staticSitemapPaths,
} from "./sitemap.server.ts";

const ORIGIN = "https://shop.example";
const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + n, 12)).toISOString();
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

describe("staticSitemapPaths", () => {
  const paths = staticSitemapPaths();

  it("lists home, listings, every category and subcategory, the help pages and contact, once each", () => {
    expect(paths.slice(0, 4)).toEqual(["/", "/products", "/products/new-arrivals", "/products/deals"]);
    for (const category of CATEGORY_TREE) {
      expect(paths).toContain(`/products?category=${category.id}`);
      for (const sub of category.subcategories) {
        expect(paths).toContain(`/products?category=${category.id}&subcategory=${sub.id}`);
      }
    }
    expect(paths).toEqual(expect.arrayContaining([...HELP_PAGE_PATHS, "/help", "/contact", "/sitemap"]));
    expect(HELP_PAGE_PATHS).toEqual([
      "/help/shipping",
      "/help/returns",
      "/help/faq",
      "/help/terms",
      "/help/privacy",
      "/help/cookies",
    ]);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("leaves out the private areas", () => {
    for (const path of paths) expect(path).not.toMatch(/^\/(cart|checkout|account|admin)/);
  });
});

describe("renderUrlset", () => {
  it("writes a sitemaps.org urlset and escapes XML special characters", () => {
    const xml = renderUrlset([
      { loc: "https://shop.example/products?category=home&subcategory=garden" },
      { loc: "https://shop.example/products/a'b\"<c>", lastmod: "2026-11-22" },
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        "<url><loc>https://shop.example/products?category=home&amp;subcategory=garden</loc></url>",
        "<url><loc>https://shop.example/products/a&apos;b&quot;&lt;c&gt;</loc><lastmod>2026-11-22</lastmod></url>",
        "</urlset>",
        "",
      ].join("\n"),
    );
  });
});

describe("renderRobotsTxt", () => {
  it("allows everything but the private areas and names the sitemap", () => {
    expect(renderRobotsTxt("https://shop.example")).toBe(
      [
        "User-agent: *",
        "Allow: /",
        "Disallow: /cart",
        "Disallow: /checkout",
        "Disallow: /account",
        "Disallow: /admin",
        "",
        "Sitemap: https://shop.example/sitemap.xml",
        "",
      ].join("\n"),
    );
    expect(renderRobotsTxt("https://shop.example/")).toContain("Sitemap: https://shop.example/sitemap.xml\n");
  });
});

describe.each(ENGINES)("sitemap queries on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    // p1 oldest … p5 newest; p6 is the newest of all but archived; p2b ties p2 on createdAt
    for (let i = 1; i <= 5; i++) {
      await insertProduct(t.db, {
        slug: `p${i}`,
        name: `Product ${i}`,
        createdAt: day(i),
        updatedAt: day(i + 10),
      });
    }
    await insertProduct(t.db, { slug: "p2b", name: "Product 2b", createdAt: day(2), updatedAt: day(2) });
    await insertProduct(t.db, {
      slug: "p6",
      name: "Archived",
      createdAt: day(6),
      updatedAt: day(6),
      archivedAt: day(7),
    });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("lists live products newest first (ties: newest id first), up to the limit", async () => {
    const all = await listSitemapProducts(t.db, 100);
    expect(all.map((p) => p.slug)).toEqual(["p5", "p4", "p3", "p2b", "p2", "p1"]);
    expect(all[0]).toEqual({ slug: "p5", name: "Product 5", updatedAt: day(15) });
    expect((await listSitemapProducts(t.db, 2)).map((p) => p.slug)).toEqual(["p5", "p4"]);
    expect(await listSitemapProducts(t.db, 0)).toEqual([]);
  });

  it("counts live products only", async () => {
    expect(await countLiveProducts(t.db)).toBe(6);
  });

  it("gives the HTML sitemap the newest products and the total", async () => {
    const { products, total } = await getHtmlSitemapProducts(t.db, 3);
    expect(products.map((p) => p.slug)).toEqual(["p5", "p4", "p3"]);
    expect(total).toBe(6);
  });

  it("builds the XML sitemap: static pages first, then product URLs with their last change", async () => {
    const xml = await buildSitemapXml(t.db, ORIGIN);
    const urls = locs(xml);
    const statics = staticSitemapPaths();
    expect(urls.slice(0, statics.length)).toEqual(
      statics.map((path) => `${ORIGIN}${path.replaceAll("&", "&amp;")}`),
    );
    expect(urls.slice(statics.length)).toEqual(
      ["p5", "p4", "p3", "p2b", "p2", "p1"].map((s) => `${ORIGIN}/products/${s}`),
    );
    expect(xml).toContain(
      `<url><loc>${ORIGIN}/products/p5</loc><lastmod>${day(15).slice(0, 10)}</lastmod></url>`,
    );
    expect(xml).not.toContain("/products/p6");
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
  });

  it("caps the number of URLs (50 000 by default), dropping the oldest products first", async () => {
    expect(SITEMAP_XML_MAX_URLS).toBe(50_000);
    const statics = staticSitemapPaths().length;
    const capped = locs(await buildSitemapXml(t.db, ORIGIN, { maxUrls: statics + 2 }));
    expect(capped).toHaveLength(statics + 2);
    expect(capped.slice(-2)).toEqual([`${ORIGIN}/products/p5`, `${ORIGIN}/products/p4`]);
    expect(locs(await buildSitemapXml(t.db, ORIGIN, { maxUrls: 3 }))).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/products`,
      `${ORIGIN}/products/new-arrivals`,
    ]);
  });
});
