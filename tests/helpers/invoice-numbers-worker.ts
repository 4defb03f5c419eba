/**
 * One of the "processes" of tests/integration/invoice-numbers.test.ts: makes `count` orders awaiting
 * their payment (tests/helpers/invoice-orders.ts), prints "ready", waits for a line on standard
 * input, then pays one, waits until the other process has paid one too (two invoices), and pays the
 * rest at once (their e-mail addresses name the process) (`markPaid`, which invoices each in its own
 * transaction), and prints "paid <n>" with how many it paid.
 *
 *   node tests/helpers/invoice-numbers-worker.ts <databaseUrl> <count>
 */
import { once } from "node:events";
import { createDatabase } from "../../app/db/database.server.ts";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import { insertPendingOrder } from "./invoice-orders.ts";

const [databaseUrl, countText] = process.argv.slice(2);
const count = Number(countText);
const db = createDatabase(databaseUrl!, { poolSize: 10 });

const orders = [];
for (let i = 0; i < count; i++)
  orders.push(await insertPendingOrder(db, { email: `p${process.pid}.buyer${i}@example.com` }));
console.log("ready");
await once(process.stdin, "data");
// one order first, then the rest once the other process has paid its first too: on a busy machine
// one process could otherwise pay all of its orders before the other starts, and the test would
// prove nothing about two processes numbering at once
const [first, ...rest] = orders;
const firstOutcome = await markPaid(db, first!.id, first!.paymentReference);
const deadline = Date.now() + 60_000;
for (;;) {
  const row = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= 2 || Date.now() > deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 5));
}
const settled = [
  firstOutcome,
  ...(await Promise.all(rest.map((order) => markPaid(db, order.id, order.paymentReference)))),
];
console.log(`paid ${settled.filter((outcome) => outcome.status === "paid").length}`);
await db.destroy();
process.exit(0);
