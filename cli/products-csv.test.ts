import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedCategories } from "../app/db/seed/seed.server.ts";
import { PRODUCT_CSV_COLUMNS, PRODUCT_FIELD_COLUMNS } from "../app/domain/catalog/admin/products-csv.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../tests/db-utils.ts";
import { insertProduct } from "../tests/helpers/catalog.ts";

// Each case starts the CLI (a fresh Node process) a few times; on a busy 2-core machine that is slow.
vi.setConfig({ testTimeout: 120_000 });

const MAIN = resolve(import.meta.dirname, "main.ts");

/** Runs `npm run cli -- …` as npm would (the same Node, cli/main.ts) and collects its output. */
async function cli(t: TestDatabase, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [MAIN, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        DATA_DIR: t.dir,
        FILE_STORE_URL: `file:${join(t.dir, "uploads")}`,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.each(ENGINES)("products:export and products:import on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedCategories(t.db);
    await insertProduct(t.db, {
      slug: "cli-one",
      name: "CLI One",
      categoryId: "electronics",
      subcategoryId: "audio",
    });
    await insertProduct(t.db, { slug: "cli-two", name: 'CLI, "Two"', description: "multi\nline" });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("exports to standard output and to a file, and a round trip changes nothing (exit 0)", async () => {
    const toStdout = await cli(t, "products:export");
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout.split("\n")[0]).toBe(PRODUCT_CSV_COLUMNS.join(","));
    expect(toStdout.stdout).toContain('"CLI, ""Two"""');

    const file = join(t.dir, "products.csv");
    const toFile = await cli(t, "products:export", file);
    expect(toFile).toMatchObject({ code: 0, stdout: `Exported the catalogue to ${file}.\n` });
    expect(readFileSync(file, "utf8")).toBe(toStdout.stdout);

    const imported = await cli(t, "products:import", file);
    expect(imported).toMatchObject({
      code: 0,
      stdout: `Imported ${file}: 0 created, 0 updated, 2 unchanged.\n`,
    });
  });

  it("imports new and changed rows (exit 0)", async () => {
    const file = join(t.dir, "changes.csv");
    const exported = (await cli(t, "products:export")).stdout;
    writeFileSync(
      file,
      `${exported.replace("cli-one,CLI One", "cli-one,CLI One Renamed")}` +
        // a new product sold as one variant: empty option columns (tax class and weight too), its SKU, price and stock
        ",cli-three,CLI Three,Third.,Brand,books,,,,,false,false,false,,,,,,,,,CLI-THREE,1.00,,1,,,USD\n",
    );
    const result = await cli(t, "products:import", file);
    expect(result).toMatchObject({
      code: 0,
      stdout: `Imported ${file}: 1 created, 1 updated, 1 unchanged.\n`,
    });
  });

  it("reports each problem with file and line, imports nothing (exit 1)", async () => {
    const file = join(t.dir, "bad.csv");
    const header = PRODUCT_FIELD_COLUMNS.join(","); // the old layout: product columns only
    writeFileSync(
      file,
      `${header}\n,fine-row,Fine,Fine.,Brand,books,,1.00,,1,,,,\n,bad-row,,Desc,Brand,nowhere,,abc,,1,,,,\n`,
    );
    const result = await cli(t, "products:import", file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `${file}:3: name is required`,
        `${file}:3: unknown category "nowhere"`,
        `${file}:3: price must be an amount from 0 to 1000000 with at most 2 decimals (got "abc")`,
        "Nothing was imported: 3 problems to fix.",
        "",
      ].join("\n"),
    );
    const fine = await t.db
      .selectFrom("products")
      .select("id")
      .where("slug", "=", "fine-row")
      .executeTakeFirst();
    expect(fine).toBeUndefined();
  });

  it("refuses malformed CSV, a missing file and missing arguments (exit 1)", async () => {
    const file = join(t.dir, "malformed.csv");
    writeFileSync(file, `${PRODUCT_FIELD_COLUMNS.join(",")}\n1,"unbalanced\n`);
    const malformed = await cli(t, "products:import", file);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(
      `${file}:2: malformed CSV: a quoted field is never closed (unbalanced double quote)`,
    );

    const missing = await cli(t, "products:import", join(t.dir, "nope.csv"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.csv/);

    expect((await cli(t, "products:import")).code).toBe(1);
    expect((await cli(t, "products:export", "a.csv", "b.csv")).code).toBe(1);
  });
});
