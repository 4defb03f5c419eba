// @ts-nocheck — runs against the app of commit 4dbd61a (make-fixture.ts copies it into a worktree of that commit and type-checks it there); against today's app its imports do not type-check.
/**
 * Fills the upgrade fixture of 4dbd61a — before variants and before checkout became a payment
 * workflow (schema up to 2026-11-25T0120-checkout-progress: the upgrade runs every migration from
 * product variants on) — through that version's own functions: the demo catalogue (products without
 * options, pictures, reviews, coupons), two admins (the one role of the time; the older becomes the
 * owner in migration 1600), customers with addresses and a saved card, coupons, reviews and votes,
 * wishlists, an account's cart and a guest's cart with a checkout in progress, the back office's
 * stock change and a product archived, and orders in every state the version has: paid, shipped,
 * delivered, cancelled (stock given back; no refunds then). Then writes the snapshot (fixture-kit.ts).
 *
 *   node scripts/upgrade-fixtures/fill-4dbd61a.ts --database <url> --scratch <dir> --snapshot <file> --commit <sha>
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { Mailer, MailMessage } from "../../app/adapters/mail/mail-message.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { assembleServices } from "../../app/composition.server.ts";
import { createDatabase, engineOf } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import type { OrderStatus } from "../../app/db/schema.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { addAddress } from "../../app/domain/accounts/addresses.server.ts";
import { register } from "../../app/domain/accounts/authentication.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import { createOrUpdateUser, type Role } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { ensureAccountCart } from "../../app/domain/cart/cart-owner.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { deleteProduct } from "../../app/domain/catalog/admin/product-delete.server.ts";
import { adjustStock } from "../../app/domain/catalog/admin/product-write.server.ts";
import { saveCheckoutProgress } from "../../app/domain/checkout/checkout-progress.server.ts";
import { contactMessageSchema, saveContactMessage } from "../../app/domain/contact/contact-message.server.ts";
import { createCoupon, setCouponActive } from "../../app/domain/coupons/coupon-admin.server.ts";
import type { CouponInput } from "../../app/domain/coupons/coupon-form.ts";
import { applyCouponToCart } from "../../app/domain/coupons/coupons.server.ts";
import { subscribeToNewsletter } from "../../app/domain/newsletter/subscribe.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { type VoteKind, voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import { addToWishlist } from "../../app/domain/wishlist/wishlist.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { calculateTotals } from "../../app/lib/pricing.ts";
import {
  addressFor,
  expectOk,
  FIXTURE_CARD,
  FIXTURE_EMAILS,
  FIXTURE_PASSWORD,
  FIXTURE_PUBLIC_URL,
  FIXTURE_SECRET,
  fillArguments,
  shippingFor,
  takeSnapshot,
  writeSnapshot,
} from "./fixture-kit.ts";

const args = fillArguments();
const db = createDatabase(args.database);
await migrateToLatest(db);

const config = parseEnv({
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SESSION_SECRET: FIXTURE_SECRET,
  PUBLIC_URL: FIXTURE_PUBLIC_URL,
  DATA_DIR: args.scratch,
  DATABASE_URL: args.database,
  FILE_STORE_URL: `file:${join(args.scratch, "uploads")}`,
  MAIL_URL: `file:${join(args.scratch, "mail")}`,
  SEED_ON_EMPTY: "false",
  PAYMENT_DELAY_MS: "0",
});
const mail: Mailer = {
  async send(_message: MailMessage) {
    return { messageId: "<fixture>" };
  },
};
const gateway = createTestGateway({ processingDelayMs: 0, secret: FIXTURE_SECRET });
const services = assembleServices(config, {
  db,
  files: createLocalFileStore(join(args.scratch, "uploads")),
  mail,
  gateway,
});
const { auth, files } = services;
const browser = () => authSessionFromHeaders(new Headers({ "user-agent": "fixture" }));

// --- catalogue -------------------------------------------------------------------------------
await seedDemoCatalog(db, files);

// --- admins and customers --------------------------------------------------------------------
const staffUser = async (email: string, role: Role, name: string) => {
  const made = expectOk(
    email,
    await createOrUpdateUser({ auth, db }, { email, password: FIXTURE_PASSWORD, role, name }),
  );
  return { id: made.userId, email };
};
// the older admin: migration 1600 makes it the owner
const owner = await staffUser(FIXTURE_EMAILS.owner, "admin", "Olive Owner");
await staffUser(FIXTURE_EMAILS.admin, "admin", "Adam Admin");

type Customer = { id: string; name: string; email: string };
const customer = async (email: string, name: string): Promise<Customer> => {
  const signedIn = expectOk(
    email,
    await register({ auth }, { name, email, password: FIXTURE_PASSWORD }, browser()),
  );
  return { id: signedIn.userId, email, name };
};
const ada = await customer(FIXTURE_EMAILS.ada, "Ada Lovelace");
const grace = await customer(FIXTURE_EMAILS.grace, "Grace Hopper");
const linus = await customer(FIXTURE_EMAILS.linus, "Linus Torvalds");
await addAddress(db, ada.id, addressFor("Ada"));
await addAddress(db, ada.id, addressFor("Ada", "Chicago"));
await addAddress(db, grace.id, addressFor("Grace", "Arlington"));
await addAddress(db, linus.id, addressFor("Linus", "Portland"));
const card = await gateway.tokenize({ ...FIXTURE_CARD, name: "Ada Lovelace" });
if (!card.ok) throw new Error("tokenize");
const cardToken = card.token;
await saveCard(db, {
  userId: ada.id,
  brand: card.brand,
  last4: card.last4,
  expMonth: card.expMonth,
  expYear: card.expYear,
  cardholderName: "Ada Lovelace",
  gatewayToken: cardToken,
});

// --- coupons, reviews, wishlists, newsletter, contact ----------------------------------------
const coupon = (input: Pick<CouponInput, "code" | "kind" | "amount"> & Partial<CouponInput>) =>
  createCoupon(db, {
    input: { minSubtotalCents: 0, expiresAt: null, usageLimit: null, ...input },
    actor: owner,
  });
expectOk("FIXTURE15", await coupon({ code: "FIXTURE15", kind: "percent", amount: 15, usageLimit: 100 }));
expectOk("TENOFF", await coupon({ code: "TENOFF", kind: "fixed", amount: 1000, minSubtotalCents: 5000 }));
const retired = expectOk("RETIRED", await coupon({ code: "RETIRED", kind: "percent", amount: 50 }));
expectOk("retire", await setCouponActive(db, { id: retired.id, active: false, actor: owner }));

const productId = async (slug: string) =>
  (await db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
const review = async (slug: string, user: Customer, rating: 1 | 2 | 3 | 4 | 5, title: string) =>
  expectOk(
    title,
    await saveReview(db, {
      productId: await productId(slug),
      user: { id: user.id, displayName: user.name },
      review: { rating, title, body: `${title}. Written for the upgrade fixture.` },
    }),
  );
await review("aurora-anc-headphones", ada, 5, "Quiet at last");
await review("veltro-classic-leather-watch", grace, 2, "Strap too stiff");
await review("kestrel-x12-smartphone", linus, 4, "Fast and light");
const reviewId = async (slug: string, user: Customer) =>
  (
    await db
      .selectFrom("reviews")
      .select("id")
      .where("productId", "=", await productId(slug))
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow()
  ).id;
const vote = async (slug: string, author: Customer, voter: Customer, kind: VoteKind) =>
  expectOk(
    kind,
    await voteOnReview(db, {
      productId: await productId(slug),
      reviewId: await reviewId(slug, author),
      userId: voter.id,
      kind,
    }),
  );
await vote("aurora-anc-headphones", ada, grace, "helpful");
await vote("veltro-classic-leather-watch", grace, linus, "report");
expectOk("wish", await addToWishlist(db, ada.id, await productId("lumen-book-pro-14")));
expectOk("wish", await addToWishlist(db, ada.id, await productId("veltro-classic-leather-watch")));
expectOk("wish", await addToWishlist(db, linus.id, await productId("nordhaus-oak-lounge-chair")));
await subscribeToNewsletter(db, FIXTURE_EMAILS.ada);
await subscribeToNewsletter(db, FIXTURE_EMAILS.guest);
await saveContactMessage(
  db,
  contactMessageSchema.parse({
    name: "Gus Guest",
    email: FIXTURE_EMAILS.guest,
    subject: "Where is my parcel?",
    message: "My order has not arrived yet. Written for the upgrade fixture.",
  }),
);

// --- orders ----------------------------------------------------------------------------------
const labels: Record<string, string> = {};
async function order(
  label: string,
  {
    user = null,
    email,
    firstName,
    lines,
    method = "standard",
    couponCode,
  }: {
    user?: { id: string } | null;
    email: string;
    firstName: string;
    lines: [string, number][];
    method?: "standard" | "express";
    couponCode?: string;
  },
): Promise<string> {
  const cartId = newCartId();
  for (const [slug, quantity] of lines) {
    expectOk(
      `${label}: add ${slug}`,
      await addToCart(db, { cartId, productId: await productId(slug), quantity }),
    );
  }
  if (couponCode) {
    const cart = await getCart(db, cartId);
    expectOk(
      couponCode,
      await applyCouponToCart(db, { cartId, code: couponCode, subtotalCents: cart.totals.subtotalCents }),
    );
  }
  // the total the review step shows
  const cart = await getCart(db, cartId);
  const totals = calculateTotals(cart.totals.subtotalCents, {
    method,
    discountCents: cart.coupon?.discountCents ?? 0,
  });
  const placed = expectOk(
    label,
    await placeOrder(db, gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: shippingFor(email, firstName),
      method,
      payment: { token: cardToken, brand: "Visa", last4: "4242" },
      expectedTotalCents: totals.totalCents,
      userId: user?.id ?? null,
    }),
  );
  labels[label] = placed.order.number;
  return placed.order.number;
}
const move = async (number: string, to: OrderStatus) =>
  expectOk(`${number} → ${to}`, await advanceOrder(db, { number, to, actor: owner }));

await order("paid", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [
    ["aurora-anc-headphones", 1],
    ["solace-radiance-skincare-set", 1],
  ],
});
const shipped = await order("shipped", {
  user: ada,
  email: ada.email,
  firstName: "Ada",
  lines: [["kestrel-x12-smartphone", 1]],
  method: "express",
});
await move(shipped, "shipped");
const delivered = await order("delivered", {
  user: grace,
  email: grace.email,
  firstName: "Grace",
  lines: [
    ["veltro-classic-leather-watch", 1],
    ["solace-radiance-skincare-set", 2],
  ],
});
await move(delivered, "shipped");
await move(delivered, "delivered");
const cancelled = await order("cancelled", {
  user: linus,
  email: linus.email,
  firstName: "Linus",
  lines: [["kestrel-home-security-camera", 2]],
});
await move(cancelled, "cancelled");
await order("coupon_express", {
  user: ada,
  email: ada.email,
  firstName: "Ada",
  lines: [["lumen-book-pro-14", 1]],
  method: "express",
  couponCode: "TENOFF",
});
await order("coupon_percent", {
  user: grace,
  email: grace.email,
  firstName: "Grace",
  lines: [
    ["aurora-anc-headphones", 1],
    ["kestrel-home-security-camera", 1],
  ],
  couponCode: "FIXTURE15",
});

// --- the back office's stock and catalogue changes, carts left behind -------------------------
expectOk(
  "stock",
  await adjustStock(db, { id: await productId("solace-radiance-skincare-set"), delta: 5, actor: owner }),
);
// in an order: archived, not deleted
expectOk(
  "archive",
  await deleteProduct({ db, files }, { id: await productId("kestrel-home-security-camera"), actor: owner }),
);
const accountCart = await ensureAccountCart(db, linus.id);
expectOk(
  "cart",
  await addToCart(db, { cartId: accountCart, productId: await productId("lumen-book-pro-14"), quantity: 1 }),
);
const guestCart = newCartId();
expectOk(
  "cart",
  await addToCart(db, {
    cartId: guestCart,
    productId: await productId("aurora-anc-headphones"),
    quantity: 2,
  }),
);
expectOk(
  "cart",
  await addToCart(db, {
    cartId: guestCart,
    productId: await productId("nordhaus-oak-lounge-chair"),
    quantity: 1,
  }),
);
await saveCheckoutProgress(db, guestCart, {
  shipping: shippingFor(FIXTURE_EMAILS.guest, "Gus"),
  method: "express",
});

writeSnapshot(args.snapshot, await takeSnapshot(db, { commit: args.commit, engine: engineOf(db), labels }));
await db.destroy();
