/**
 * catalogue: listing, facet and search queries on synthetic catalogues (100 000 products by
 * default; BENCH_CATALOG_SIZES=100000,1000000 for the million), on SQLite, each timed in-process
 * through the real domain code (app/domain/catalog/listing.server.ts) and next to the same
 * question answered by a full scan (NOT INDEXED, LIKE instead of the search index) in the same run.
 */
import { join } from "node:path";
import { sql } from "kysely";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { generateSyntheticCatalog } from "../../app/db/seed/synthetic-catalog.ts";
import { searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import { createLocalFileStore } from "../../app/services/file-store.server.ts";
import type { Row, Section } from "../lib/types.ts";

interface Timing {
  p50: number;
  p95: number;
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 2; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

const LIKE_TEXT = sql`lower(name || ' ' || brand || ' ' || category_id || ' ' || coalesce(subcategory_id, '') || ' ' || description)`;

/** The same answer as the listing (page of 24 + total + both facets) read by scanning every row. */
function fullScan(db: Database, where: ReturnType<typeof sql>, order: ReturnType<typeof sql>) {
  return Promise.all([
    sql`select id from products not indexed where archived_at is null and ${where} order by ${order} limit 24`.execute(
      db,
    ),
    sql`select category_id, lower(brand), count(*) from products not indexed
        where archived_at is null and ${where} group by 1, 2`.execute(db),
  ]);
}

export const catalog: Section = {
  name: "catalog",
  description: "listing / facets / search on 100k (and 1M) synthetic products vs a full scan",
  async run(ctx) {
    const sizes = (process.env.BENCH_CATALOG_SIZES ?? "100000")
      .split(",")
      .map(Number)
      .filter((n) => n > 0);
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    for (const size of sizes) {
      const dir = join(ctx.tmpDir, `catalog-${size}`);
      const db = createDatabase(`file:${join(dir, "catalog.db")}`);
      try {
        await migrateToLatest(db);
        const started = performance.now();
        ctx.log(`catalog: generating ${size} products…`);
        await generateSyntheticCatalog(db, createLocalFileStore(join(dir, "files")), { count: size });
        const generateSeconds = (performance.now() - started) / 1000;
        const runs = size >= 1_000_000 ? 10 : 20;
        const rare = await sql<{
          name: string;
        }>`select name from products where id = ${Math.floor(size / 2)}`.execute(db);
        const rareTerm = (rare.rows[0]?.name.split(" ").pop() ?? "zzzz").toLowerCase();
        const cases: Array<{
          label: string;
          qs: string;
          where: ReturnType<typeof sql>;
          order: ReturnType<typeof sql>;
        }> = [
          {
            label: "listing: category + sort + count + facets",
            qs: "category=electronics&sort=price-asc",
            where: sql`category_id = 'electronics'`,
            order: sql`price_cents, id`,
          },
          {
            label: "listing: category + price + rating + sort + count + facets",
            qs: "category=electronics&minPrice=100&maxPrice=500&rating=4&sort=price-asc",
            where: sql`category_id = 'electronics' and price_cents between 10000 and 50000 and rating >= 4`,
            order: sql`price_cents, id`,
          },
          {
            label: "facets of the largest category (electronics)",
            qs: "category=electronics",
            where: sql`category_id = 'electronics'`,
            order: sql`featured desc, rating desc, id desc`,
          },
          {
            label: "search, common term 'wireless'",
            qs: "search=wireless",
            where: sql`${LIKE_TEXT} like '%wireless%'`,
            order: sql`featured desc, rating desc, id desc`,
          },
          {
            label: `search, rare term '${rareTerm}'`,
            qs: `search=${encodeURIComponent(rareTerm)}`,
            where: sql`${LIKE_TEXT} like ${`%${rareTerm}%`}`,
            order: sql`featured desc, rating desc, id desc`,
          },
        ];
        const results: Record<string, unknown> = {};
        for (const c of cases) {
          const query = parseListingQuery(new URLSearchParams(c.qs));
          const ours = await time(runs, () => searchProducts(db, query));
          const scan = await time(Math.max(3, Math.floor(runs / 4)), () => fullScan(db, c.where, c.order));
          results[c.label] = { ours, scan };
          const k = size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;
          rows.push(
            { section: "catalog", metric: `${k} ${c.label} p50`, value: ours.p50, unit: "ms", digits: 1 },
            { section: "catalog", metric: `${k} ${c.label} p95`, value: ours.p95, unit: "ms", digits: 1 },
            {
              section: "catalog",
              metric: `${k} ${c.label} ratio to full scan (p50)`,
              value: ours.p50 / scan.p50,
              unit: "×",
              digits: 3,
              note: `full scan p50 ${scan.p50.toFixed(1)} ms`,
            },
          );
        }
        data[String(size)] = { generateSeconds, runs, results };
      } finally {
        await db.destroy();
      }
    }
    return { rows, data };
  },
};
