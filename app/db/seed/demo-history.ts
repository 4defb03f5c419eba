import type { Auth } from "../../adapters/auth/auth.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import { createTestGateway, mintTestToken } from "../../adapters/payments/test-gateway.server.ts";
import { addAddress, listAddresses } from "../../domain/accounts/addresses.server.ts";
import { createOrUpdateUser } from "../../domain/accounts/users.server.ts";
import type { StaffActor } from "../../domain/audit/audit-log.server.ts";
import { addToCart } from "../../domain/cart/add-item.server.ts";
import { applyCodeToCart } from "../../domain/cart/cart-code.server.ts";
import { priceCart, totalsFor } from "../../domain/cart/cart-pricing.ts";
import { newCartId } from "../../domain/cart/cart-store.server.ts";
import { getCart } from "../../domain/cart/get-cart.server.ts";
import { adjustStockLevel } from "../../domain/inventory/inventory.server.ts";
import { advanceOrder } from "../../domain/orders/order-admin.server.ts";
import { sendPlacedOrderConfirmation } from "../../domain/orders/order-confirmation.server.ts";
import { placeOrder } from "../../domain/orders/place-order.server.ts";
import { refundOrder } from "../../domain/payments/refunds.server.ts";
import { moveReturn, requestReturn } from "../../domain/returns/returns.server.ts";
import { saveReview } from "../../domain/reviews/write-review.server.ts";
import type { ShopSettingsSource } from "../../domain/settings/shop-settings.server.ts";
import type { Env } from "../../env.server.ts";
import { mailShop } from "../../lib/shop-settings.ts";
import type { Database } from "../database.server.ts";
import { DEMO_PRODUCTS } from "./demo-catalog.ts";

import {
  type CatalogueProduct,
  comesBack,
  DAY,
  DEMO_CUSTOMER_PASSWORD,
  DEMO_CUSTOMERS,
  DEMO_HISTORY_DAYS,
  type Person,
  type PlannedOrder,
  planDemoHistory,
  REJECTION,
  type ReturnTarget,
} from "./demo-history-plan.ts";

export { DEMO_CUSTOMER_PASSWORD, DEMO_CUSTOMERS, DEMO_HISTORY_DAYS } from "./demo-history-plan.ts";

/**
 * About 90 days of a shop's life on top of the demo catalogue, for a local first start (README):
 * customers with addresses, orders in every state, shipments with carriers and tracking numbers,
 * refunds, returns in each of their states and customers' reviews — so the dashboard, the orders,
 * customers and returns lists and the customer pages show what they are for.
 *
 * Everything goes through the shop's own commands, as a shopper and the owner would, with their
 * `now` set in the past: Place Order with the built-in test gateway (its ledger is the
 * provider's books), advanceOrder, refundOrder, requestReturn/moveReturn, saveReview,
 * createOrUpdateUser, addAddress. So every invariant holds as it does for real orders: the stock
 * ledger balances, what the gateway paid back equals the refunds, the sales rollups follow.
 *
 * Deterministic: a seeded random plans it all relative to `now` (order and return numbers and
 * account ids are the shop's own random ones). The demo products end with the stock the catalogue
 * gives them: before its first sale each variant the history sells gets a delivery of exactly the
 * units the history takes from it for good (the owner's "changed by staff" movement), and only
 * variants with stock to spare come back through a cancellation, a failed payment or a return.
 * The customers' e-mails are not written anywhere (they are invented); the orders' confirmations
 * count as sent, so the resend job leaves them alone.
 */

export interface DemoHistoryServices {
  db: Database;
  auth: Auth;
  settings: ShopSettingsSource;
  config: Pick<Env, "SESSION_SECRET" | "PUBLIC_URL">;
}

export interface DemoHistorySummary {
  customers: number;
  orders: number;
  refunds: number;
  returns: number;
  reviews: number;
}

/** The customers are invented: their e-mails go nowhere. */
const NOWHERE: Mailer = { send: async () => ({ messageId: "demo-history" }) };

/**
 * Seeds the history (see the top of this file) into a shop that has no orders yet and still sells
 * the demo products, acting as its owner; null when it does not apply (orders exist, no owner, no
 * demo product) and nothing was added.
 */
export async function seedDemoHistory(
  services: DemoHistoryServices,
  { now = new Date() }: { now?: Date } = {},
): Promise<DemoHistorySummary | null> {
  const { db, auth, config } = services;
  if (await db.selectFrom("orders").select("id").limit(1).executeTakeFirst()) return null;
  const owner = await db
    .selectFrom("users")
    .select(["id", "email"])
    .where("role", "=", "owner")
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
  const products = await demoCatalogue(db);
  if (!owner || products.length === 0) return null;
  const actor: StaffActor = { id: owner.id, email: owner.email, role: "owner" };
  const plan = planDemoHistory(products, now.getTime());

  // the test gateway's books, kept at the moment each payment or refund is made
  let clock = new Date(now.getTime() - DEMO_HISTORY_DAYS * DAY);
  const gateway: PaymentGateway = createTestGateway({
    processingDelayMs: 0,
    secret: config.SESSION_SECRET,
    db,
    now: () => clock,
  });
  const settings = await services.settings.current();
  const shop = mailShop(settings, config.PUBLIC_URL);
  const commands = { db, gateway, mail: NOWHERE, shop };
  const summary: DemoHistorySummary = { customers: 0, orders: 0, refunds: 0, returns: 0, reviews: 0 };

  const steps: { at: number; run: () => Promise<void> }[] = [];
  const at = (time: number, run: () => Promise<void>) => steps.push({ at: time, run });

  // the customers, each joining on their day with their address
  const userIds = new Map<number, string>();
  DEMO_CUSTOMERS.forEach((customer, i) => {
    at(now.getTime() - customer.joinedDaysAgo * DAY, async () => {
      const created = await createOrUpdateUser(
        { auth, db },
        {
          email: customer.email,
          password: DEMO_CUSTOMER_PASSWORD,
          role: "customer",
          name: `${customer.firstName} ${customer.lastName}`,
        },
      );
      if (!created.ok)
        throw new Error(`demo customer ${customer.email}: ${created.error.problems.join("; ")}`);
      userIds.set(i, created.value.userId);
      // an account's sign-up time is Better Auth's clock: it is set back to the day they joined
      await db
        .updateTable("users")
        .set({ createdAt: clock.toISOString(), updatedAt: clock.toISOString() })
        .where("id", "=", created.value.userId)
        .execute();
      const { email: _email, joinedDaysAgo: _joined, ...address } = customer;
      if ((await listAddresses(db, created.value.userId)).length === 0) {
        await addAddress(db, created.value.userId, address, clock);
      }
      summary.customers++;
    });
  });

  // the deliveries that bring in what the history sells for good (see the top of this file)
  const taken = new Map<number, number>();
  for (const order of plan) {
    order.lines.forEach((line, i) => {
      if (!comesBack(order, i)) taken.set(line.variantId, (taken.get(line.variantId) ?? 0) + line.quantity);
    });
  }
  for (const product of products) {
    const deliveries = product.variants.filter((v) => (taken.get(v.id) ?? 0) > 0);
    if (deliveries.length === 0) continue;
    at(product.createdAt + 30 * 60_000, () =>
      db.transaction().execute(async (trx) => {
        for (const variant of deliveries) {
          const delivered = await adjustStockLevel(
            trx,
            { variantId: variant.id, delta: taken.get(variant.id)! },
            { reason: "admin_adjust", actor: actor.id, now: clock },
          );
          if (!delivered.ok)
            throw new Error(`demo history: stock delivery refused (${delivered.error.code})`);
        }
      }),
    );
  }

  for (const order of plan) {
    let placed: { id: number; number: string; totalCents: number } | null = null;
    at(order.at, async () => {
      placed = await place(order);
      // a declined card leaves its attempt as an order whose payment failed
      summary.orders++;
    });
    const fate = order.fate;
    const number = () => {
      if (!placed) throw new Error(`demo history: order ${order.index} was not placed`);
      return placed.number;
    };
    const move = async (to: "shipped" | "delivered" | "cancelled") => {
      const moved = await advanceOrder(commands, {
        number: number(),
        to,
        actor,
        confirmed: to === "cancelled",
        shipment: to === "shipped" ? { carrier: order.carrier, trackingNumber: order.tracking } : undefined,
        now: clock,
      });
      if (!moved.ok) throw new Error(`demo history: ${number()} → ${to} refused (${moved.error.code})`);
    };
    if (fate.kind === "cancelled") {
      at(fate.at, async () => {
        // a paid order cancelled: its payment is refunded
        await move("cancelled");
        summary.refunds++;
      });
    }
    if (fate.kind === "shipped" || fate.kind === "delivered") at(fate.shipAt, () => move("shipped"));
    if (fate.kind !== "delivered") continue;
    at(fate.deliverAt, () => move("delivered"));
    const { refund, review } = fate;
    if (refund) {
      at(refund.at, async () => {
        const { totalCents } = placed!;
        const refunded = await refundOrder(commands, {
          number: number(),
          key: `demo-history-refund-${order.index}`,
          lines: [],
          amountCents: refund.full ? totalCents : Math.max(100, Math.round(totalCents * 0.15)),
          restock: false,
          reason: refund.reason,
          actor,
          now: clock,
        });
        if (!refunded.ok)
          throw new Error(`demo history: refund of ${number()} refused (${refunded.error.code})`);
        summary.refunds++;
      });
    }
    if (fate.return) {
      const { target, reason, steps: times } = fate.return;
      let returnNumber = "";
      at(times[0]!, async () => {
        const item = await db
          .selectFrom("orderItems")
          .select(["id", "quantity"])
          .where("orderId", "=", placed!.id)
          .orderBy("id")
          .executeTakeFirstOrThrow();
        const asked = await requestReturn(db, NOWHERE, shop, {
          orderNumber: number(),
          lines: [{ itemId: item.id, quantity: item.quantity }],
          reason,
          now: clock,
        });
        if (!asked.ok) throw new Error(`demo history: return of ${number()} refused (${asked.error.code})`);
        returnNumber = asked.value.number;
        summary.returns++;
      });
      const path: ReturnTarget[] =
        target === "rejected" ? ["rejected"] : ["approved", "received", "refunded"];
      times.slice(1).forEach((time, i) => {
        const to = path[i]!;
        at(time, async () => {
          const moved = await moveReturn(db, commands, {
            number: returnNumber,
            to,
            actor,
            rejectionReason: to === "rejected" ? REJECTION : null,
            now: clock,
          });
          if (!moved.ok)
            throw new Error(`demo history: return ${returnNumber} → ${to} refused (${moved.error.code})`);
          if (to === "refunded") summary.refunds++;
        });
      });
    }
    if (review && order.customer !== null) {
      const customer = DEMO_CUSTOMERS[order.customer]!;
      at(review.at, async () => {
        const userId = userIds.get(order.customer!)!;
        const mine = await db
          .selectFrom("reviews")
          .select("id")
          .where("userId", "=", userId)
          .where("productId", "=", order.lines[0]!.productId)
          .executeTakeFirst();
        // one review per customer and product: a second purchase leaves the first review as it is
        if (mine) return;
        const saved = await saveReview(db, {
          productId: order.lines[0]!.productId,
          user: { id: userId, displayName: `${customer.firstName} ${customer.lastName[0]}.` },
          review: review.text,
          now: clock,
        });
        if (saved.ok) summary.reviews++;
      });
    }
  }

  /** Place Order as the shopper does it: a cart, the card, the total they reviewed. */
  async function place(order: PlannedOrder) {
    const cartId = newCartId();
    for (const line of order.lines) {
      const added = await addToCart(db, { cartId, ...line }, clock);
      if (!added.ok || added.value.outcome !== "added") {
        throw new Error(`demo history: could not add variant ${line.variantId} to a cart`);
      }
    }
    if (order.coupon) {
      // WELCOME10, a promotion with a code (demo-coupons.ts): priced by the promotions below
      await applyCodeToCart(db, { cartId, code: "WELCOME10", shop: settings, shopper: {} });
    }
    const cart = await getCart(db, cartId, settings);
    const quote = { lines: cart.lines, offers: cart.offers };
    const destination = { country: order.person.country, region: order.person.state };
    const priced = priceCart(settings.markets, { ...quote, destination, methodCode: order.method });
    const total = totalsFor(priced, { ...quote, destination }, "").totalCents;
    const expiry = { expMonth: 12, expYear: new Date(clock).getUTCFullYear() + 3 };
    let payment: { token: string; brand: string; last4: string };
    if (order.fate.kind === "declined") {
      const last4 = order.card.number.slice(-4);
      const token = mintTestToken("card_declined", { secret: config.SESSION_SECRET, last4, ...expiry });
      payment = { token, brand: "Visa", last4 };
    } else {
      const card = await gateway.tokenize({
        number: order.card.number,
        cvv: order.card.cvv,
        name: `${order.person.firstName} ${order.person.lastName}`,
        ...expiry,
      });
      if (!card.ok) throw new Error(`demo history: the test card was refused (${card.code})`);
      payment = { token: card.token, brand: card.brand, last4: card.last4 };
    }
    const { joinedDaysAgo: _joined, ...shipping } = order.person as Person & { joinedDaysAgo?: number };
    const result = await placeOrder(db, gateway, {
      cartId,
      idempotencyKey: `demo-history-${order.index}`,
      shipping,
      method: order.method,
      shop: settings,
      payment,
      expectedTotalCents: total,
      userId: order.customer === null ? null : userIds.get(order.customer)!,
      now: clock,
    });
    if (!result.ok) {
      if (order.fate.kind === "declined" && result.error.code === "payment-declined") return null;
      throw new Error(`demo history: an order was refused (${result.error.code})`);
    }
    await sendPlacedOrderConfirmation(
      db,
      NOWHERE,
      shop,
      result.value.order.number,
      result.value.confirmation,
    );
    return result.value.order;
  }

  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) {
    clock = new Date(step.at);
    await step.run();
  }
  return summary;
}

/** The demo products still on sale, with each live variant and what it holds. */
async function demoCatalogue(db: Database): Promise<CatalogueProduct[]> {
  const rows = await db
    .selectFrom("products")
    .innerJoin("productVariants", "productVariants.productId", "products.id")
    .select([
      "products.id as productId",
      "products.createdAt",
      "productVariants.id as variantId",
      "productVariants.stock",
    ])
    .where(
      "products.slug",
      "in",
      DEMO_PRODUCTS.map((p) => p.slug),
    )
    .where("products.archivedAt", "is", null)
    .where("productVariants.archivedAt", "is", null)
    .orderBy("products.id")
    .orderBy("productVariants.id")
    .execute();
  const products = new Map<number, CatalogueProduct>();
  for (const row of rows) {
    const product = products.get(row.productId) ?? {
      id: row.productId,
      createdAt: Date.parse(row.createdAt),
      variants: [],
    };
    product.variants.push({ id: row.variantId, productId: row.productId, stock: row.stock });
    products.set(row.productId, product);
  }
  return [...products.values()];
}
