import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { stockWrites } from "../../../scripts/stock-writes.ts";

/**
 * Stock has one owner (decision 026): no module but the inventory area writes a stock column. This
 * reads every source file of the app and the CLI and fails on any statement outside
 * app/domain/inventory that updates `stock` on product_variants or products, or inserts a row there
 * with stock other than 0 — through Kysely or in raw SQL. Migrations (the ledger's opening balances)
 * and the bulk demo generators (which write their opening balances in the same statement) are the
 * exceptions, each checked by the ledger balance of every integration test's database.
 */
const ROOT = join(import.meta.dirname, "../../..");
const ALLOWED = [/^app\/domain\/inventory\//, /^app\/db\/migrations\//, /^app\/db\/seed\//];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("the inventory area is the one writer of stock", () => {
  it("finds the ways a stock column can be written (the check itself can fail)", () => {
    expect(
      stockWrites(`await trx.updateTable("productVariants").set({ stock }).where("id", "=", id).execute();`),
    ).toEqual(["1: update"]);
    expect(
      stockWrites(
        `db.updateTable("products")\n  .set((eb) => ({ stock: eb("stock", "-", 1) }))\n  .execute()`,
      ),
    ).toEqual(["1: update"]);
    expect(
      stockWrites(`db.insertInto("productVariants").values({ sku, stock: row.stock }).execute()`),
    ).toEqual(["1: insert with stock row.stock"]);
    expect(stockWrites("await sql`update product_variants set stock = stock + 1 where id = ${id}`")).toEqual([
      "1: raw SQL",
    ]);
    // reading stock, filtering on it, or a new row starting at 0 is not a write
    expect(
      stockWrites(
        `db.updateTable("products").set({ name }).where("stock", ">", 0).execute();\n` +
          `db.insertInto("productVariants").values({ sku, stock: 0 }).execute();\n` +
          `db.selectFrom("productVariants").select("stock").execute();`,
      ),
    ).toEqual([]);
  });

  it("no module outside app/domain/inventory writes stock", () => {
    const offenders = [...sourceFiles("app"), ...sourceFiles("cli")]
      .map((path) => relative(ROOT, join(ROOT, path)).replaceAll("\\", "/"))
      .filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))
      .flatMap((path) =>
        stockWrites(readFileSync(join(ROOT, path), "utf8")).map((where) => `${path}:${where}`),
      );
    expect(offenders).toEqual([]);
  });
});
