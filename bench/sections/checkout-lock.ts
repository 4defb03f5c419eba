import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import type { Database } from "../../app/db/database.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { priceCart, totalsFor } from "../../app/domain/cart/cart-pricing.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { writeLockStats } from "../../app/infra/sqlite-dialect.server.ts";
import { DEFAULT_MARKETS } from "../../app/lib/markets.ts";
import { DEFAULT_CURRENCY } from "../../app/lib/money.ts";
import { DEFAULT_SHOP_SETTINGS } from "../../app/lib/shop-settings.ts";

const SHOP = { ...DEFAULT_SHOP_SETTINGS, currency: DEFAULT_CURRENCY, markets: DEFAULT_MARKETS };

/**
 * How long one order holds SQLite's write lock (decision 020: only the reservation and the
 * outcome's transaction, plus the test gateway's own ledger writes — never a gateway call): Place
 * Order run `orders` times in this process on the bench's database, one after the other, with the
 * test gateway answering at once; the driver's lock statistics (sqlite-dialect.server.ts) divided
 * by the orders. The carts are filled before the count starts.
 */
export async function writeLockPerOrder(db: Database, productIds: number[], orders = 300) {
  const ledger = createTestGateway({
    processingDelayMs: 0,
    secret: "bench-lock-secret-0123456789abcdef0123",
    db,
  });
  // the stand-in provider's own writes (its ledger, in the shop's file so every process sees the
  // same payments) counted apart from the shop's transactions
  const provider = { transactions: 0, heldMs: 0 };
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const before = { ...writeLockStats };
      try {
        return await call(...args);
      } finally {
        provider.transactions += writeLockStats.transactions - before.transactions;
        provider.heldMs += writeLockStats.heldMs - before.heldMs;
      }
    };
  const gateway = {
    ...ledger,
    authorize: counted(ledger.authorize),
    capture: counted(ledger.capture),
  };
  const card = await gateway.tokenize({
    number: "4242424242424242",
    expMonth: 12,
    expYear: 2031,
    cvv: "123",
    name: "Bench Lock",
  });
  if (!card.ok) throw new Error("tokenize failed");
  const carts: { cartId: string; totalCents: number }[] = [];
  for (let i = 0; i < orders; i++) {
    const cartId = newCartId();
    await addToCart(db, { cartId, productId: productIds[i % productIds.length]!, quantity: 1 });
    const cart = await getCart(db, cartId, SHOP);
    // with the shop's promotions, if the bench gave it some (BENCH_CHECKOUT_PROMOTIONS)
    const quote = {
      lines: cart.lines,
      discountCents: 0,
      destination: { country: "US", region: "IL" },
      offers: cart.offers,
    };
    const priced = priceCart(SHOP.markets, { ...quote, methodCode: "standard" });
    carts.push({ cartId, totalCents: totalsFor(priced, quote, "").totalCents });
  }
  const before = { ...writeLockStats };
  provider.transactions = 0;
  provider.heldMs = 0;
  const started = performance.now();
  let placed = 0;
  for (const [i, { cartId, totalCents }] of carts.entries()) {
    const result = await placeOrder(db, gateway, {
      cartId,
      idempotencyKey: `bench-lock-${process.pid}-${i}`,
      shipping: {
        firstName: "Bench",
        lastName: "Lock",
        email: "bench-lock@example.com",
        phone: "+1 555 0100",
        address: "1 Lock Street",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
      },
      method: "standard",
      shop: SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: totalCents,
    });
    if (result.ok) placed++;
  }
  const wallMs = performance.now() - started;
  const per = (value: number) => (placed ? value / placed : null);
  const heldMs = writeLockStats.heldMs - before.heldMs;
  const transactions = writeLockStats.transactions - before.transactions;
  return {
    orders: placed,
    heldMsPerOrder: per(heldMs),
    transactionsPerOrder: per(transactions),
    /** the shop's own transactions: the reservation and the outcome */
    shopHeldMsPerOrder: per(heldMs - provider.heldMs),
    shopTransactionsPerOrder: per(transactions - provider.transactions),
    /** the test gateway's ledger writes (the stand-in provider's) */
    ledgerHeldMsPerOrder: per(provider.heldMs),
    ledgerTransactionsPerOrder: per(provider.transactions),
    wallMsPerOrder: per(wallMs),
  };
}
