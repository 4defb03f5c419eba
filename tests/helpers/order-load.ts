/**
 * A child process for the payment crash test (tests/integration/payment-crash.test.ts): places
 * orders on the database at argv[2] from several concurrent loops until it is killed, through the
 * real Place Order workflow and the test gateway's ledger. Prints "ready" once its first Place Order answered.
 *
 *   node tests/helpers/order-load.ts <database url> <gateway secret> <product ids, comma-separated>
 */
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { GIFT_CARD_PAYMENT } from "../../app/domain/payments/charges.server.ts";
import { SPEC_SHOP, specTotals } from "./spec-pricing.ts";

const [url, secret, ids] = process.argv.slice(2) as [string, string, string];
const products = ids.split(",").map(Number);
const db = createDatabase(url, url.startsWith("file:") ? {} : { poolSize: 8 });
// a small processing time, so that a kill often lands while a payment is under way
const gateway = createTestGateway({ processingDelayMs: 2, secret, db });
const SHIPPING = {
  firstName: "Load",
  lastName: "Test",
  email: "load@example.com",
  phone: "+1 555 0100",
  address: "1 Crash Lane",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

async function loop(worker: number) {
  for (let n = 0; ; n++) {
    const cartId = newCartId();
    const productId = products[(worker + n) % products.length]!;
    const added = await addToCart(db, { cartId, productId, quantity: 1 + (n % 2) });
    // a load that cannot add (stock ran out) would spin without ever placing an order, and a test
    // waiting for "ready" would wait until it timed out: stop and say why instead
    if (!added.ok) throw new Error(`could not add product ${productId}: ${JSON.stringify(added)}`);
    const cart = await getCart(db, cartId, SPEC_SHOP);
    if (cart.lines.length === 0) throw new Error(`the cart of product ${productId} is empty`);
    const card = await gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Load Test",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const totalCents = specTotals(cart.totals.subtotalCents, { method: "standard" }).totalCents;
    // a third of the orders are paid $5 by a gift card, a third whole by one (no gateway call),
    // spread over the loops so that the first order of each run already has every kind (a run is
    // killed after a few orders a loop, fewer on PostgreSQL)
    const kind = (worker + n) % 3;
    const whole = kind === 2;
    const giftCents = whole ? totalCents : kind === 1 ? 500 : 0;
    const gift =
      giftCents > 0
        ? await issueGiftCard(db, {
            input: {
              amountCents: Math.max(100, giftCents),
              currency: "USD",
              expiresAt: null,
              recipientEmail: null,
              recipientName: null,
              message: null,
              key: `${process.pid}-${worker}-${n}`,
            },
            actor: { id: "owner", email: "owner@crash.example", role: "owner" },
          })
        : null;
    await placeOrder(db, gateway, {
      cartId,
      idempotencyKey: `${process.pid}-${worker}-${n}`,
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: whole
        ? { token: GIFT_CARD_PAYMENT, brand: "Gift card", last4: "TEST" }
        : { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: totalCents,
      giftCardIds: gift?.ok ? [gift.value.card.id] : [],
      expectedGiftCardCents: gift?.ok ? giftCents : 0,
    });
    ready();
  }
}

// "ready" once Place Order went all the way through once: the kill that follows lands mid-flow even
// when a loaded machine takes a while to start (killed before any payment, a run checked nothing)
let announced = false;
function ready() {
  if (announced) return;
  announced = true;
  process.stdout.write("ready\n");
}
await Promise.all(Array.from({ length: 6 }, (_, worker) => loop(worker)));
