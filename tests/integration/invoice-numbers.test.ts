import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";

/**
 * Invoice numbers under load (issue 30, decision 031): orders paid at once — by two processes on
 * one database, 100 each, or by one process 200 at once — get 200 distinct invoice numbers,
 * INV-000001…INV-000200 without a gap, one per order, and the counter stands at the next one.
 */
const ORDERS = 200;

function worker(url: string, count: number) {
  const child = spawn(process.execPath, ["tests/helpers/invoice-numbers-worker.ts", url, String(count)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  const ready = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready\n")) resolve();
    });
  });
  return {
    ready,
    go: () => child.stdin.write("go\n"),
    exited: once(child, "exit").then(([code]) => ({ code, output })),
  };
}

async function expectGaplessInvoices(t: TestDatabase, count: number) {
  const invoices = await t.db
    .selectFrom("invoices")
    .select(["sequence", "number", "orderId", "kind"])
    .orderBy("sequence")
    .execute();
  expect(invoices).toHaveLength(count);
  expect(invoices.every((invoice) => invoice.kind === "invoice")).toBe(true);
  expect(invoices.map((invoice) => invoice.sequence)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  expect(invoices.map((invoice) => invoice.number)).toEqual(
    Array.from({ length: count }, (_, i) => `INV-${String(i + 1).padStart(6, "0")}`),
  );
  expect(new Set(invoices.map((invoice) => invoice.orderId)).size).toBe(count);
  const paid = await t.db.selectFrom("orders").select("id").where("status", "=", "paid").execute();
  expect(paid).toHaveLength(count);
  const counter = await t.db
    .selectFrom("invoiceCounters")
    .select("nextSequence")
    .where("series", "=", "invoice")
    .executeTakeFirstOrThrow();
  expect(counter.nextSequence).toBe(count + 1);
}

describe.each(ENGINES)("invoice numbers under concurrency on %s", (engine) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it(`numbers ${ORDERS} orders paid at once by one process without a gap`, { timeout: 120_000 }, async () => {
    t = await createTestDatabase(engine);
    const db = t.db;
    const orders = [];
    for (let i = 0; i < ORDERS; i++) orders.push(await insertPendingOrder(db));
    const settled = await Promise.all(orders.map((order) => markPaid(db, order.id, order.paymentReference)));
    expect(settled.filter((outcome) => outcome.status === "paid")).toHaveLength(ORDERS);
    await expectGaplessInvoices(t, ORDERS);
  });

  it.runIf(engine === "postgres")(
    `numbers ${ORDERS} orders paid at once by two processes without a gap`,
    { timeout: 180_000 },
    async () => {
      t = await createTestDatabase(engine);
      const a = worker(t.url, ORDERS / 2);
      const b = worker(t.url, ORDERS / 2);
      await Promise.all([a.ready, b.ready]);
      a.go();
      b.go();
      expect(await Promise.all([a.exited, b.exited])).toEqual([
        { code: 0, output: `ready\npaid ${ORDERS / 2}\n` },
        { code: 0, output: `ready\npaid ${ORDERS / 2}\n` },
      ]);
      await expectGaplessInvoices(t, ORDERS);
      // the two processes' payments were numbered in turn, not one process's after the other's
      const payers = await t.db
        .selectFrom("invoices")
        .innerJoin("orders", "orders.id", "invoices.orderId")
        .select("orders.email")
        .orderBy("invoices.sequence")
        .execute();
      const payer = payers.map((row) => row.email.split(".")[0]);
      expect(new Set(payer).size).toBe(2);
      expect(payer.filter((pid, i) => i > 0 && pid !== payer[i - 1]).length).toBeGreaterThan(1);
    },
  );
});
