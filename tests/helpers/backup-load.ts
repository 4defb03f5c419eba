/**
 * A child process for the restore drill (tests/integration/backup-restore.test.ts): a shop taking
 * orders while it is backed up. From several concurrent loops it places orders through the real
 * Place Order workflow and the test gateway's ledger, and refunds every third one it placed — by
 * amount or by a line, back into stock — through the real refund workflow. Prints "placed <number>"
 * and "refunded <number>" as each completes, until it is killed.
 *
 *   node tests/helpers/backup-load.ts <database url> <gateway secret> <product ids, comma-separated>
 */
import { randomUUID } from "node:crypto";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { SPEC_SHOP, specTotals } from "./spec-pricing.ts";

const [url, secret, ids] = process.argv.slice(2) as [string, string, string];
const products = ids.split(",").map(Number);
const db = createDatabase(url, url.startsWith("file:") ? {} : { poolSize: 8 });
const gateway = createTestGateway({ processingDelayMs: 1, secret, db });
const mail = { send: async () => ({ messageId: "none" }) };
const shop = { shopName: "Drill Shop", publicUrl: "http://shop.test" };
const actor = { id: "drill-owner", email: "owner@example.com", role: "owner" as const };
const SHIPPING = {
  firstName: "Drill",
  lastName: "Test",
  email: "drill@example.com",
  phone: "+1 555 0100",
  address: "1 Backup Lane",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

async function loop(worker: number) {
  for (let n = 0; ; n++) {
    const cartId = newCartId();
    for (const [i, productId] of products.entries()) {
      if ((worker + n + i) % 2 === 0) await addToCart(db, { cartId, productId, quantity: 1 + (n % 2) });
    }
    const cart = await getCart(db, cartId, SPEC_SHOP);
    if (cart.lines.length === 0) continue;
    const card = await gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Drill Test",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const placed = await placeOrder(db, gateway, {
      cartId,
      idempotencyKey: `drill-${process.pid}-${worker}-${n}`,
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents, { method: "standard" }).totalCents,
    });
    if (!placed.ok) continue;
    const { number } = placed.value.order;
    process.stdout.write(`placed ${number}\n`);
    if (n % 3 !== 0) continue;
    const line = await db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select("orderItems.id")
      .where("orders.number", "=", number)
      .executeTakeFirst();
    const byLine = n % 2 === 0 && line;
    const refunded = await refundOrder(
      { db, gateway, mail, shop },
      {
        number,
        key: randomUUID(),
        lines: byLine ? [{ itemId: line.id, quantity: 1 }] : [],
        amountCents: byLine ? null : 100 + ((worker * 37 + n * 11) % 400),
        restock: Boolean(byLine),
        reason: "restore drill",
        actor,
      },
    );
    if (refunded.ok) process.stdout.write(`refunded ${number}\n`);
  }
}

const loops = Array.from({ length: 4 }, (_, worker) => loop(worker));
await Promise.all(loops);
