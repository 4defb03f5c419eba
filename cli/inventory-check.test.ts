import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../tests/db-utils.ts";
import { defaultVariantOf, insertProduct } from "../tests/helpers/catalog.ts";

vi.setConfig({ testTimeout: 120_000 });

const MAIN = resolve(import.meta.dirname, "main.ts");

async function cli(t: TestDatabase, ...args: string[]) {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [MAIN, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        DATA_DIR: t.dir,
        FILE_STORE_URL: `file:${join(t.dir, "uploads")}`,
      },
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe.each(ENGINES)("inventory:check on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    // this test makes the books drift on purpose
    t = await createTestDatabase(engine, { checkStockLedger: false });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("says the stock balances (exit 0), then names each level that drifted from its ledger (exit 1)", async () => {
    const productId = await insertProduct(t.db, { stock: 12 });
    const balanced = await cli(t, "inventory:check");
    expect(balanced.code).toBe(0);
    expect(balanced.stdout).toContain("Stock balances: every level equals its ledger (1 movements).");

    // a write past the inventory: the variant's level and the product's sum no longer agree with the books
    const variantId = await defaultVariantOf(t.db, productId);
    await t.db.updateTable("productVariants").set({ stock: 9 }).where("id", "=", variantId).execute();
    const drifted = await cli(t, "inventory:check");
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain(`variant ${variantId}: stock 9, ledger 12 (drift -3)`);
    expect(drifted.stdout).toContain(`product ${productId}: summed stock 12, its live variants hold 9`);
    expect(drifted.stdout).toContain("2 differences between stock and the ledger.");
  });
});
