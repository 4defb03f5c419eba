import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { join } from "node:path";
import pg from "pg";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { renderUpload, storeRenderedUpload } from "../../app/adapters/images/image-upload.server.ts";
import type { Database, Engine } from "../../app/db/database.server.ts";
import { POSTGRES_ADMIN_URL } from "../db-utils.ts";
import { insertProduct } from "./catalog.ts";
import { png } from "./images.ts";

/**
 * What the backup tests share (tests/integration/backup-restore.test.ts): the CLI run as a child
 * process, a shop taking orders in a child process (tests/helpers/backup-load.ts), products with
 * real images, empty targets to restore into, and what a database says about its orders.
 */
const ROOT = join(import.meta.dirname, "../..");

export interface CliRun {
  code: number | null;
  /** standard output and error, in the order they came */
  out: string;
}

/** `npm run cli -- <args>` as its own process, with these settings over the test's environment. */
export function startCli(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, ["cli/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const done = once(child, "exit").then(([code]) => ({ code: code as number | null, out }));
  return { child, done };
}

export const cli = (args: string[], env: Record<string, string>): Promise<CliRun> => startCli(args, env).done;

/** A product selling one variant, with an uploaded picture rendered and stored as the shop does it. */
export async function productWithImage(db: Database, files: FileStore, priceCents: number): Promise<number> {
  const id = await insertProduct(db, { stock: 100_000, priceCents });
  const rendered = await renderUpload(await png(64 + (priceCents % 50), 48));
  if (!rendered.ok) throw new Error("the test picture did not render");
  const stored = await storeRenderedUpload(files, rendered.value);
  await db
    .insertInto("productImages")
    .values({
      productId: id,
      position: 0,
      key: stored.key,
      alt: "A test picture",
      width: stored.width,
      height: stored.height,
      widths: JSON.stringify(stored.widths),
    })
    .execute();
  return id;
}

/** The order load (backup-load.ts) as a child process, with what it reported so far. */
export class OrderLoad {
  readonly placed: string[] = [];
  readonly refunded: string[] = [];
  readonly #child: ChildProcess;
  readonly #exited: Promise<unknown>;
  #listeners = new Set<() => void>();
  #output = "";

  constructor(url: string, secret: string, products: number[]) {
    this.#child = spawn(process.execPath, ["tests/helpers/backup-load.ts", url, secret, products.join(",")], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#exited = once(this.#child, "exit");
    let partial = "";
    this.#child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const [what, number] = line.split(" ");
        if (what === "placed" && number) this.placed.push(number);
        if (what === "refunded" && number) this.refunded.push(number);
      }
      for (const listener of this.#listeners) listener();
    });
    this.#child.stderr!.on("data", (chunk: Buffer) => {
      this.#output += chunk.toString();
    });
  }

  /** Resolves once `ready()` holds after a line the load printed; rejects if the load stops first. */
  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        this.#listeners.delete(check);
        resolve();
      };
      this.#listeners.add(check);
      this.#exited.then(() => reject(new Error(`the order load stopped: ${this.#output.slice(-2_000)}`)));
    });
  }

  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGKILL");
    await this.#exited;
  }
}

/** An empty place to restore into: a fresh data directory, and on PostgreSQL a new empty database. */
export interface RestoreTarget {
  dir: string;
  databaseUrl: string;
  /** the CLI's target arguments */
  args: string[];
  drop(): Promise<void>;
}

export async function emptyTarget(engine: Engine, dir: string): Promise<RestoreTarget> {
  if (engine === "sqlite") {
    return {
      dir,
      databaseUrl: `file:${join(dir, "cartwheel.db")}`,
      args: ["--into", dir],
      drop: async () => {},
    };
  }
  const name = `cartwheel_restore_${randomBytes(5).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    dir,
    databaseUrl: url.toString(),
    args: ["--into", dir, "--database-url", url.toString()],
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Every order confirmed (paid) so far, as the books hold it: the order, its lines, the test
 * gateway's payment, and the refunds that succeeded with the gateway's refund rows.
 */
export async function confirmedOrders(db: Database) {
  const orders = await db
    .selectFrom("orders")
    .select(["id", "number", "email", "totalCents", "currency", "createdAt", "paidAt", "paymentReference"])
    .where("paidAt", "is not", null)
    .orderBy("id")
    .execute();
  const ids = orders.map((order) => order.id);
  if (ids.length === 0) return [];
  const items = await db
    .selectFrom("orderItems")
    .select([
      "id",
      "orderId",
      "productId",
      "variantId",
      "sku",
      "quantity",
      "unitPriceCents",
      "lineTotalCents",
      "imageKey",
    ])
    .where("orderId", "in", ids)
    .orderBy("id")
    .execute();
  const payments = await db
    .selectFrom("testGatewayPayments")
    .select(["idempotencyKey", "authorizationId", "amountCents"])
    .where(
      "authorizationId",
      "in",
      orders.map((order) => order.paymentReference),
    )
    .execute();
  const refunds = await db
    .selectFrom("orderRefunds")
    .select(["id", "orderId", "idempotencyKey", "amountCents", "kind", "status", "gatewayRefundId"])
    .where("orderId", "in", ids)
    .where("status", "=", "succeeded")
    .orderBy("id")
    .execute();
  const gatewayRefunds = await db
    .selectFrom("testGatewayRefunds")
    .select(["idempotencyKey", "authorizationId", "amountCents"])
    .where(
      "authorizationId",
      "in",
      orders.map((order) => order.paymentReference),
    )
    .execute();
  return orders.map((order) => ({
    order,
    items: items.filter((item) => item.orderId === order.id),
    payment: payments.find((payment) => payment.authorizationId === order.paymentReference) ?? null,
    refunds: refunds.filter((refund) => refund.orderId === order.id),
    gatewayRefunds: gatewayRefunds
      .filter((refund) => refund.authorizationId === order.paymentReference)
      .sort((a, b) => (a.idempotencyKey < b.idempotencyKey ? -1 : 1)),
  }));
}
