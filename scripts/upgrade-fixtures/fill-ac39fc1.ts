// @ts-nocheck — runs against the app of commit ac39fc1 (make-fixture.ts copies it into a worktree of that commit and type-checks it there); against today's app its imports do not type-check.
/**
 * Fills the upgrade fixture of ac39fc1 — the last release before issue 28's work (schema up to
 * 2026-11-26T2000-shop-settings) — through that version's own functions: the demo catalogue (products
 * in options and variants, pictures, reviews, coupons), staff of every role and two invitations (one
 * used, one not), customers with addresses, a saved card and a disabled account, the owner's shop
 * settings (saved after two orders, so orders in two currencies), coupons, reviews and votes,
 * wishlists, carts, and orders in every state the version has: paid, shipped, delivered, cancelled
 * (refunded), payment failed, pending payment, partially refunded, refunded, a return refunded and
 * one requested. Then writes the snapshot (fixture-kit.ts).
 *
 *   node scripts/upgrade-fixtures/fill-ac39fc1.ts --database <url> --scratch <dir> --snapshot <file> --commit <sha>
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { Mailer, MailMessage } from "../../app/adapters/mail/mail-message.ts";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import { assembleServices } from "../../app/composition.server.ts";
import { createDatabase, engineOf } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import type { OrderStatus } from "../../app/db/schema.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { addAddress } from "../../app/domain/accounts/addresses.server.ts";
import { enterAccount, register } from "../../app/domain/accounts/authentication.server.ts";
import { setCustomerDisabled } from "../../app/domain/accounts/customers.server.ts";
import { resetPassword } from "../../app/domain/accounts/password-reset.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import { inviteStaff } from "../../app/domain/accounts/staff.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import {
  setProductsArchived,
  setProductsStock,
} from "../../app/domain/catalog/admin/product-delete.server.ts";
import { saveCheckoutProgress } from "../../app/domain/checkout/checkout-progress.server.ts";
import { contactMessageSchema, saveContactMessage } from "../../app/domain/contact/contact-message.server.ts";
import { createCoupon, setCouponActive } from "../../app/domain/coupons/coupon-admin.server.ts";
import type { CouponInput } from "../../app/domain/coupons/coupon-form.ts";
import { applyCouponToCart } from "../../app/domain/coupons/coupons.server.ts";
import { subscribeToNewsletter } from "../../app/domain/newsletter/subscribe.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { refundOrder } from "../../app/domain/orders/order-refund.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { moveReturn, requestReturn } from "../../app/domain/returns/returns.server.ts";
import { type VoteKind, voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import { saveShopSettings } from "../../app/domain/settings/shop-settings.server.ts";
import { addToWishlist } from "../../app/domain/wishlist/wishlist.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import type { CarrierId } from "../../app/lib/carriers.ts";
import { calculateTotals } from "../../app/lib/pricing.ts";
import type { Role } from "../../app/lib/staff-roles.ts";
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
/** the shop's outbox: the invitee's link is read from their e-mail */
const outbox: { to: string; subject: string; text: string }[] = [];
const mail: Mailer = {
  async send(message: MailMessage) {
    outbox.push(message);
    return { messageId: `<${outbox.length}@fixture>` };
  },
};
const gateway = createTestGateway({ processingDelayMs: 0, secret: FIXTURE_SECRET, db });
const services = assembleServices(config, {
  db,
  files: createLocalFileStore(join(args.scratch, "uploads")),
  mail,
  gateway,
});
const { auth } = services;
const shop = { shopName: "Cartwheel", publicUrl: FIXTURE_PUBLIC_URL };
const browser = () => authSessionFromHeaders(new Headers({ "user-agent": "fixture" }));

// --- catalogue -------------------------------------------------------------------------------
await seedDemoCatalog(db, services.files);

// --- staff and customers ---------------------------------------------------------------------
const staffUser = async (email: string, role: Role, name: string) => {
  const made = expectOk(
    email,
    await createOrUpdateUser({ auth, db }, { email, password: FIXTURE_PASSWORD, role, name }),
  );
  return { id: made.userId, email };
};
const owner = await staffUser(FIXTURE_EMAILS.owner, "owner", "Olive Owner");
await staffUser(FIXTURE_EMAILS.admin, "admin", "Adam Admin");
await staffUser(FIXTURE_EMAILS.staff, "staff", "Stella Staff");

const customer = async (email: string, name: string) => {
  const signedIn = expectOk(
    email,
    await register({ auth }, { name, email, password: FIXTURE_PASSWORD }, browser()),
  );
  return { id: signedIn.userId, email, name };
};
const ada = await customer(FIXTURE_EMAILS.ada, "Ada Lovelace");
const grace = await customer(FIXTURE_EMAILS.grace, "Grace Hopper");
const linus = await customer(FIXTURE_EMAILS.linus, "Linus Torvalds");
const disabled = await customer(FIXTURE_EMAILS.disabled, "Dora Disabled");
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
expectOk("disable", await setCustomerDisabled(db, { userId: disabled.id, disabled: true, actor: owner }));

// two invitations: one never used, one whose link was used and who signed in
for (const [email, role] of [
  [FIXTURE_EMAILS.invited, "staff"],
  [FIXTURE_EMAILS.joined, "admin"],
] as const) {
  expectOk(email, await inviteStaff({ auth, db, mail, shop }, { email, role, actor: owner }));
}
const invitation = outbox.find((m) => m.to === FIXTURE_EMAILS.joined);
const token = invitation?.text.match(/reset-password\?token=([^\s&]+)/)?.[1];
if (!token) throw new Error("no invitation link in the joined invitee's e-mail");
expectOk(
  "set password",
  await resetPassword({ auth }, { token: decodeURIComponent(token), password: FIXTURE_PASSWORD }),
);
expectOk(
  "joined signs in",
  await enterAccount(
    { auth, db },
    { intent: "sign-in", fields: { email: FIXTURE_EMAILS.joined, password: FIXTURE_PASSWORD } },
    { session: browser(), ip: "203.0.113.7", guestCartId: null, redirectTo: "/admin" },
  ),
);

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
type Customer = { id: string; name: string };
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
await review("stride-runner-sneakers", grace, 2, "Run small");
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
await vote("stride-runner-sneakers", grace, linus, "report");
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
/** a line: a variant's SKU, or the slug of a product sold without options */
const itemOf = async (ref: string) => {
  const variant = await db
    .selectFrom("productVariants")
    .select(["id", "productId"])
    .where("sku", "=", ref)
    .executeTakeFirst();
  return variant
    ? { productId: variant.productId, variantId: variant.id }
    : { productId: await productId(ref) };
};
/** the test gateway as a process dying before it heard the gateway's answer leaves it */
const unreachable = {
  ...gateway,
  async authorize() {
    throw new Error("connection lost");
  },
};
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
    payWith = gateway,
    token = cardToken,
  }: {
    user?: { id: string } | null;
    email: string;
    firstName: string;
    lines: [string, number][];
    method?: "standard" | "express";
    couponCode?: string;
    payWith?: typeof gateway;
    token?: string;
  },
) {
  const cartId = newCartId();
  for (const [ref, quantity] of lines) {
    expectOk(`${label}: add ${ref}`, await addToCart(db, { cartId, ...(await itemOf(ref)), quantity }));
  }
  const pricing = await services.settings.current();
  if (couponCode) {
    const cart = await getCart(db, cartId, pricing);
    expectOk(
      couponCode,
      await applyCouponToCart(db, {
        cartId,
        code: couponCode,
        subtotalCents: cart.totals.subtotalCents,
        currency: pricing.currency,
      }),
    );
  }
  // the total the review step shows
  const cart = await getCart(db, cartId, pricing);
  const totals = calculateTotals(pricing, cart.totals.subtotalCents, {
    method,
    discountCents: cart.coupon?.discountCents ?? 0,
  });
  const placed = await placeOrder(db, payWith, {
    cartId,
    idempotencyKey: randomUUID(),
    shipping: shippingFor(email, firstName),
    method,
    pricing,
    payment: { token, brand: "Visa", last4: "4242" },
    expectedTotalCents: totals.totalCents,
    userId: user?.id ?? null,
  });
  const number = placed.ok
    ? placed.value.order.number
    : (
        await db
          .selectFrom("orders")
          .select("number")
          .where("email", "=", email)
          .orderBy("id", "desc")
          .executeTakeFirstOrThrow()
      ).number;
  labels[label] = number;
  return { number, placed };
}
const move = async (
  number: string,
  to: OrderStatus,
  shipment?: { carrier?: CarrierId; trackingNumber?: string },
) =>
  expectOk(
    `${number} → ${to}`,
    await advanceOrder({ db, gateway, mail, shop }, { number, to, actor: owner, shipment }),
  );
const itemIds = async (number: string) =>
  db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select(["orderItems.id", "orderItems.sku", "orderItems.quantity"])
    .where("orders.number", "=", number)
    .orderBy("orderItems.id")
    .execute();

// two orders in US dollars, before the owner's settings
const paid = await order("paid", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [
    ["AUR-ANC-MID", 1],
    ["solace-radiance-skincare-set", 1],
  ],
});
expectOk("paid", paid.placed);
const shipped = await order("shipped", {
  user: ada,
  email: ada.email,
  firstName: "Ada",
  lines: [["LMW-TEE-M-BLA", 2]],
  method: "express",
});
await move(shipped.number, "shipped", { carrier: "ups", trackingNumber: "1Z999AA10123456784" });

// the owner's settings: euros, 20 % VAT, the shop's own fees and days
const before = await services.settings.current();
const saved = await saveShopSettings(db, {
  settings: {
    ...before,
    shopName: "Fixture Supply Co.",
    contactEmail: "help@fixture.example",
    contactPhone: "+44 20 7946 0000",
    contactAddress: "1 Fixture Lane, London",
    socialLinks: { ...before.socialLinks, x: "https://x.com/fixture", youtube: "" },
    currency: "EUR",
    taxRateBasisPoints: 2000,
    taxLabel: "Including VAT (20 %)",
    standardShippingCents: 590,
    freeShippingThresholdCents: 10_000,
    expressShippingCents: 1290,
    standardDays: { min: 3, max: 5 },
    expressDays: { min: 1, max: 2 },
  },
  defaults: services.settings.defaults,
  actor: owner,
});
if (!saved.saved) throw new Error("settings not saved");

const delivered = await order("delivered", {
  user: grace,
  email: grace.email,
  firstName: "Grace",
  lines: [["STR-RUN-42-BLA", 1]],
});
await move(delivered.number, "shipped", { carrier: "dhl", trackingNumber: "JD014600006281230704" });
await move(delivered.number, "delivered");

const cancelled = await order("cancelled", {
  user: linus,
  email: linus.email,
  firstName: "Linus",
  lines: [["kestrel-home-security-camera", 2]],
});
await move(cancelled.number, "cancelled");

const failed = await order("payment_failed", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [["VEL-CLS-44", 1]],
  token: mintTestToken("card_declined", { secret: FIXTURE_SECRET }),
});
if (failed.placed.ok || failed.placed.error.code !== "payment-declined") throw new Error("not declined");

const pending = await order("pending_payment", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [["KES-X12-256-SIL", 1]],
  payWith: unreachable,
});
if (pending.placed.ok) throw new Error("the pending order was paid");

const partly = await order("partially_refunded", {
  user: ada,
  email: ada.email,
  firstName: "Ada",
  lines: [
    ["VEL-CLS-40", 1],
    ["LMW-TEE-S-WHI", 2],
  ],
  couponCode: "FIXTURE15",
});
const partlyTee = (await itemIds(partly.number)).find((i) => i.sku === "LMW-TEE-S-WHI")!;
expectOk(
  "partial refund",
  await refundOrder(db, gateway, mail, shop, {
    number: partly.number,
    key: randomUUID(),
    lines: [{ itemId: partlyTee.id, quantity: 1 }],
    amountCents: null,
    restock: true,
    reason: "One shirt arrived stained",
    actor: owner,
  }),
);

const refunded = await order("refunded", {
  user: grace,
  email: grace.email,
  firstName: "Grace",
  lines: [["AUR-ANC-SND", 1]],
});
const refundedTotal = (
  await db
    .selectFrom("orders")
    .select("totalCents")
    .where("number", "=", refunded.number)
    .executeTakeFirstOrThrow()
).totalCents;
expectOk(
  "full refund",
  await refundOrder(db, gateway, mail, shop, {
    number: refunded.number,
    key: randomUUID(),
    lines: [],
    amountCents: refundedTotal,
    restock: false,
    reason: "Customer changed their mind before shipping",
    actor: owner,
  }),
);

const returned = await order("returned", {
  user: ada,
  email: ada.email,
  firstName: "Ada",
  lines: [
    ["kestrel-home-security-camera", 1],
    ["LMW-TEE-XL-NAV", 1],
  ],
});
await move(returned.number, "shipped", { carrier: "usps", trackingNumber: "9400111899223856923391" });
await move(returned.number, "delivered");
const returnedTee = (await itemIds(returned.number)).find((i) => i.sku === "LMW-TEE-XL-NAV")!;
const theReturn = expectOk(
  "return",
  await requestReturn(db, mail, shop, {
    orderNumber: returned.number,
    lines: [{ itemId: returnedTee.id, quantity: 1 }],
    reason: "Arrived damaged or faulty",
  }),
);
for (const to of ["approved", "received", "refunded"] as const) {
  expectOk(
    `return → ${to}`,
    await moveReturn(db, { gateway, mail, shop }, { number: theReturn.number, to, actor: owner }),
  );
}

const asked = await order("return_requested", {
  user: linus,
  email: linus.email,
  firstName: "Linus",
  lines: [["STR-RUN-41-WHI", 1]],
});
await move(asked.number, "shipped");
await move(asked.number, "delivered");
const askedLine = (await itemIds(asked.number))[0]!;
expectOk(
  "return requested",
  await requestReturn(db, mail, shop, {
    orderNumber: asked.number,
    lines: [{ itemId: askedLine.id, quantity: 1 }],
    reason: "It doesn't fit",
  }),
);

expectOk(
  "fixed coupon",
  (
    await order("coupon_express", {
      user: ada,
      email: ada.email,
      firstName: "Ada",
      lines: [["lumen-book-pro-14", 1]],
      method: "express",
      couponCode: "TENOFF",
    })
  ).placed,
);

// --- the back office's stock and catalogue changes, carts left behind -------------------------
await setProductsArchived(db, {
  ids: [await productId("nordhaus-pro-stand-mixer")],
  archived: true,
  actor: owner,
});
await setProductsStock(db, {
  ids: [await productId("solace-radiance-skincare-set")],
  stock: 20,
  actor: owner,
});
const abandoned = newCartId();
for (const [ref, quantity] of [
  ["KES-X12-512-GRA", 1],
  ["LMW-TEE-L-WHI", 3],
] as const) {
  expectOk("cart", await addToCart(db, { cartId: abandoned, ...(await itemOf(ref)), quantity }));
}
await saveCheckoutProgress(db, abandoned, {
  shipping: shippingFor(FIXTURE_EMAILS.guest, "Gus"),
  method: "express",
});

writeSnapshot(args.snapshot, await takeSnapshot(db, { commit: args.commit, engine: engineOf(db), labels }));
await db.destroy();
