// @ts-nocheck — runs against the app of commit 2c6f616 (make-fixture.ts copies it into a worktree of that commit and type-checks it there); against today's app its imports may not type-check.
/**
 * Fills the upgrade fixture of 2c6f616 — the schema after issue 30's markets and invoices and issue
 * 31's promotions, promotion codes, the shop's time zone, customer groups and gift cards (up to
 * 2026-11-28T0730-gift-cards), so that the next migration is tried on a populated database too —
 * through that version's own functions. Everything the fixture of cb83ad7 holds (the demo catalogue,
 * staff of every role, an open invitation and one accepted, customers with addresses, a saved card
 * and a disabled account, coupons, reviews and votes, wishlists, carts with a checkout in progress,
 * orders in every state, a stock-ledger check's turn and a backup run), and what this era added:
 * - the owner's settings with the invoice's legal details and the shop's time zone (Europe/London);
 *   the one zone the shop started with changed through the zones admin (North America: a state's own
 *   rate, standard shipping by subtotal bands) and a second one made (Europe: VAT on shipping, a
 *   reduced rate, express by weight bands), tax rounded per line — orders shipped to both;
 * - an invoice for every paid order (Place Order issues it) and a credit note for every refund;
 * - promotions of every kind the admin makes: automatic (buy 2 get 1 half price, a customer group's
 *   percentage), one with a shared code (free shipping, limits per customer), one applied by unique
 *   single-use codes (one code used, one taken and given back by a failed payment, one by a
 *   cancellation), one spending a campaign's budget, an ended one and a disabled one — used by
 *   orders (their redemptions);
 * - customer groups: members added by hand, by a CSV and by a rule (spent over 100.00);
 * - gift cards issued by staff (one e-mailed to its recipient, one expiring, one disabled). This
 *   release has no way to pay with one (checkout takes none yet), nor to give store credit: none is
 *   spent, and there is no store credit.
 * Then writes the snapshot (fixture-kit.ts).
 *
 *   node scripts/upgrade-fixtures/fill-2c6f616.ts --database <url> --scratch <dir> --snapshot <file> --commit <sha>
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { createAuth } from "../../app/adapters/auth/auth.server.ts";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import { queueEmailChangeLink } from "../../app/adapters/auth/email-change.server.ts";
import { sendPasswordResetEmail } from "../../app/adapters/auth/password-reset-email.server.ts";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { Mailer, MailMessage } from "../../app/adapters/mail/mail-message.ts";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import { createDatabase, engineOf } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import type { OrderStatus } from "../../app/db/schema.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { addAddress } from "../../app/domain/accounts/addresses.server.ts";
import { enterAccount, register } from "../../app/domain/accounts/authentication.server.ts";
import { setCustomerDisabled } from "../../app/domain/accounts/customers.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import { inviteStaff } from "../../app/domain/accounts/staff.server.ts";
import { joinStaff } from "../../app/domain/accounts/staff-join.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { backupServices, takeBackup } from "../../app/domain/backups/take-backup.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { applyCodeToCart } from "../../app/domain/cart/cart-code.server.ts";
import { couponDiscountCents, priceCart, totalsFor } from "../../app/domain/cart/cart-pricing.ts";
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
import { createGroup, updateGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { addMembers, importMembersCsv } from "../../app/domain/customer-groups/group-members.server.ts";
import { sendGiftCardEmail } from "../../app/domain/gift-cards/gift-card-email.server.ts";
import { issueGiftCard, setGiftCardDisabled } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import { setInvoiceSellerDefaults } from "../../app/domain/invoices/issue-documents.server.ts";
import {
  createZone,
  readZonesOverview,
  saveMarketSettings,
  updateZone,
} from "../../app/domain/markets/zone-admin.server.ts";
import { subscribeToNewsletter } from "../../app/domain/newsletter/subscribe.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import {
  createCampaign,
  createPromotion,
  setPromotionActive,
} from "../../app/domain/promotions/promotion-admin.server.ts";
import { generateCodes } from "../../app/domain/promotions/promotion-codes.server.ts";
import type { PromotionInput } from "../../app/domain/promotions/promotion-form.ts";
import { moveReturn, requestReturn } from "../../app/domain/returns/returns.server.ts";
import { type VoteKind, voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import { ShopSettingsSource, saveShopSettings } from "../../app/domain/settings/shop-settings.server.ts";
import { addToWishlist } from "../../app/domain/wishlist/wishlist.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { runJobTurn } from "../../app/jobs/job-lease.server.ts";
import type { CarrierId } from "../../app/lib/carriers.ts";
import { DEFAULT_SHOP_SETTINGS, mailShop } from "../../app/lib/shop-settings.ts";
import type { Role, StaffRole } from "../../app/lib/staff-roles.ts";
import { instantOf } from "../../app/lib/time-zones.ts";
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
// the app's services as composition.server.ts's assembleServices makes them (it cannot be imported
// here: through the first start's demo history it imports the order e-mail's JSX, which node does
// not load)
const settings = new ShopSettingsSource(db, {
  ...DEFAULT_SHOP_SETTINGS,
  shopName: config.SHOP_NAME,
  contactEmail: config.CONTACT_EMAIL,
  contactPhone: config.CONTACT_PHONE,
  contactAddress: config.CONTACT_ADDRESS,
});
setInvoiceSellerDefaults(settings.defaults);
const mailShopNow = async () => mailShop(await settings.current(), config.PUBLIC_URL);
const auth = createAuth({
  db,
  secret: config.SESSION_SECRET,
  baseURL: config.PUBLIC_URL,
  shopName: config.SHOP_NAME,
  sendResetPassword: async (data) => sendPasswordResetEmail(mail, await mailShopNow(), data),
  sendEmailChangeLink: (data) => queueEmailChangeLink(mail, mailShopNow, data),
});
const services = { files: createLocalFileStore(join(args.scratch, "uploads")), settings };
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
const owner = { ...(await staffUser(FIXTURE_EMAILS.owner, "owner", "Olive Owner")), role: "owner" as const };
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

// two invitations: one still open, one accepted through its link (the invitee then signed in)
for (const [email, role] of [
  [FIXTURE_EMAILS.invited, "staff"],
  [FIXTURE_EMAILS.joined, "admin"],
] as [string, StaffRole][]) {
  expectOk(email, await inviteStaff({ db, mail, shop }, { email, role, actor: owner }));
}
const invitation = outbox.find((m) => m.to === FIXTURE_EMAILS.joined);
const token = invitation?.text.match(/staff\/join\?token=([^\s&]+)/)?.[1];
if (!token) throw new Error("no invitation link in the joined invitee's e-mail");
expectOk(
  "join",
  await joinStaff({ auth, db }, { token: decodeURIComponent(token), password: FIXTURE_PASSWORD }),
);
expectOk(
  "joined signs in",
  await enterAccount(
    { auth, db },
    { intent: "sign-in", fields: { email: FIXTURE_EMAILS.joined, password: FIXTURE_PASSWORD } },
    { session: browser(), ip: "203.0.113.7", device: null, guestCartId: null, redirectTo: "/admin" },
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
  async refund() {
    throw new Error("connection lost");
  },
};
const refunds = { db, gateway, mail, shop };
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
    shipTo,
  }: {
    user?: { id: string } | null;
    email: string;
    firstName: string;
    lines: [string, number][];
    method?: string;
    /** a coupon's or a promotion's code, typed into the cart's code field */
    couponCode?: string;
    payWith?: typeof gateway;
    token?: string;
    /** elsewhere than shippingFor's address in Illinois */
    shipTo?: Partial<ReturnType<typeof shippingFor>>;
  },
) {
  const cartId = newCartId();
  for (const [ref, quantity] of lines) {
    expectOk(`${label}: add ${ref}`, await addToCart(db, { cartId, ...(await itemOf(ref)), quantity }));
  }
  const shop = await services.settings.current();
  const shopper = { userId: user?.id ?? null, email };
  if (couponCode) {
    expectOk(couponCode, await applyCodeToCart(db, { cartId, code: couponCode, shop, shopper }));
  }
  // the total the review step shows: the cart priced for the address and method, its promotions in
  const shipping = { ...shippingFor(email, firstName), ...shipTo };
  const cart = await getCart(db, cartId, shop, shopper);
  const quote = {
    lines: cart.lines,
    discountCents: couponDiscountCents(cart.coupon),
    destination: { country: shipping.country, region: shipping.state },
    offers: cart.offers,
  };
  const total = totalsFor(priceCart(shop.markets, { ...quote, methodCode: method }), quote, "").totalCents;
  const placed = await placeOrder(db, payWith, {
    cartId,
    idempotencyKey: randomUUID(),
    shipping,
    method,
    shop,
    payment: { token, brand: "Visa", last4: "4242" },
    expectedTotalCents: total,
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
    await advanceOrder({ db, gateway, mail, shop }, { number, to, actor: owner, shipment, confirmed: true }),
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

// the owner's settings: euros, the seller's details the invoices name, the shop's time zone
const { markets: _markets, ...before } = await services.settings.current();
const saved = await saveShopSettings(db, {
  settings: {
    ...before,
    shopName: "Fixture Supply Co.",
    contactEmail: "help@fixture.example",
    contactPhone: "+44 20 7946 0000",
    contactAddress: "1 Fixture Lane, London",
    socialLinks: { ...before.socialLinks, x: "https://x.com/fixture", youtube: "" },
    currency: "EUR",
    legalName: "Fixture Supply Co. Ltd",
    legalAddress: "1 Fixture Lane, London EC1A 1AA, United Kingdom",
    taxId: "GB123456789",
    timeZone: "Europe/London",
  },
  defaults: services.settings.defaults,
  actor: owner,
});
if (!saved.saved) throw new Error("settings not saved");

// where the shop sells, through the zones admin: the zone it started with becomes North America
// (Illinois's own rate, standard shipping by subtotal bands), Europe gets a zone of its own (VAT on
// shipping, a reduced rate, express by weight bands), and tax is rounded per line
const [startZone] = (await readZonesOverview(db)).zones;
if (!startZone) throw new Error("no zone to start from");
const rates = (standard: number, reduced: number) =>
  [
    ["standard", standard],
    ["reduced", reduced],
    ["zero", 0],
    ["exempt", 0],
  ].map(([taxClass, basisPoints]) => ({ region: "", taxClass, basisPoints })) as {
    region: string;
    taxClass: "standard" | "reduced" | "zero" | "exempt";
    basisPoints: number;
  }[];
expectOk(
  "North America",
  await updateZone(db, {
    id: startZone.id,
    input: {
      name: "North America",
      countries: ["US", "CA"],
      regions: {},
      taxLabel: "Sales tax",
      taxShipping: false,
      rates: [...rates(700, 700), { region: "IL", taxClass: "standard", basisPoints: 625 }],
      methods: [
        {
          code: "standard",
          name: "Standard Shipping",
          rule: "subtotal",
          flatCents: 0,
          bands: [
            { upTo: 5_000, priceCents: 690 },
            { upTo: null, priceCents: 490 },
          ],
          freeOverCents: 15_000,
          daysMin: 3,
          daysMax: 5,
        },
        {
          code: "express",
          name: "Express Shipping",
          rule: "flat",
          flatCents: 1_490,
          bands: [],
          freeOverCents: null,
          daysMin: 1,
          daysMax: 2,
        },
      ],
    },
    actor: owner,
  }),
);
expectOk(
  "Europe",
  await createZone(db, {
    input: {
      name: "Europe",
      countries: ["GB", "DE", "FR"],
      regions: {},
      taxLabel: "Including VAT",
      taxShipping: true,
      rates: rates(2_000, 500),
      methods: [
        {
          code: "standard",
          name: "Standard Shipping",
          rule: "flat",
          flatCents: 590,
          bands: [],
          freeOverCents: 10_000,
          daysMin: 2,
          daysMax: 4,
        },
        {
          code: "express",
          name: "Express Courier",
          rule: "weight",
          flatCents: 0,
          bands: [
            { upTo: 2_000, priceCents: 1_290 },
            { upTo: null, priceCents: 1_990 },
          ],
          freeOverCents: null,
          daysMin: 1,
          daysMax: 2,
        },
      ],
    },
    actor: owner,
  }),
);
expectOk(
  "market settings",
  await saveMarketSettings(db, {
    settings: { pricesIncludeTax: false, taxRounding: "per-line", estimateCountry: "US" },
    actor: owner,
  }),
);

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
  await refundOrder(refunds, {
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
  await refundOrder(refunds, {
    number: refunded.number,
    key: randomUUID(),
    lines: [],
    amountCents: refundedTotal,
    restock: false,
    reason: "Customer changed their mind before shipping",
    actor: owner,
  }),
);

// a refund whose gateway call never came back: recorded pending, for the job to settle later
const waiting = await order("refund_pending", {
  user: linus,
  email: linus.email,
  firstName: "Linus",
  lines: [["VEL-CLS-40", 1]],
});
const stillPending = await refundOrder(
  { ...refunds, gateway: unreachable },
  {
    number: waiting.number,
    key: randomUUID(),
    lines: [],
    amountCents: 2500,
    restock: false,
    reason: "Goodwill for a late delivery",
    actor: owner,
  },
);
if (stillPending.ok || stillPending.error.code !== "pending")
  throw new Error("the refund did not stay pending");

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

// --- customer groups, promotions and the orders that used them ---------------------------------
// VIP: Grace by hand, and whoever has spent over 100.00 by its rule; Wholesale: a CSV's customers
const vip = expectOk(
  "VIP",
  await createGroup(db, { input: { name: "VIP", description: "Our best customers" }, actor: owner }),
);
expectOk("VIP members", await addMembers(db, { id: vip.id, emails: [grace.email], actor: owner }));
const vipRule = expectOk(
  "VIP rule",
  await updateGroup(db, {
    id: vip.id,
    input: { name: "VIP", description: "Our best customers" },
    rule: { type: "spent-over", cents: 10_000 },
    actor: owner,
  }),
);
if (vipRule.added === 0) throw new Error("the VIP rule found no customer");
const wholesale = expectOk(
  "Wholesale",
  await createGroup(db, { input: { name: "Wholesale", description: "Trade accounts" }, actor: owner }),
);
const imported = expectOk(
  "Wholesale import",
  await importMembersCsv(db, {
    id: wholesale.id,
    text: `email,name\n${linus.email},Linus Torvalds\nnobody@fixture.example,Nobody\n`,
    filename: "trade.csv",
    actor: owner,
  }),
);
if (imported.added !== 1 || imported.problems.length !== 1) throw new Error("the CSV import");

const target = (...refs: string[]) => ({ refs, categories: [], brands: [] });
const promotion = async (input: Pick<PromotionInput, "name" | "action"> & Partial<PromotionInput>) =>
  expectOk(
    input.name,
    await createPromotion(db, {
      input: {
        code: null,
        active: true,
        startsAt: null,
        endsAt: null,
        priority: 0,
        combines: true,
        usageLimit: null,
        perCustomerLimit: null,
        campaignId: null,
        conditions: [],
        ...input,
      },
      actor: owner,
    }),
  );
await promotion({
  name: "Buy 2 tees, get 1 half price",
  priority: 10,
  action: {
    type: "buy-x-get-y",
    buy: { target: target("loomwell-organic-cotton-t-shirt"), quantity: 2 },
    get: { target: target("loomwell-organic-cotton-t-shirt"), quantity: 1 },
    basisPoints: 5_000,
    maxTimes: null,
  },
});
await promotion({
  name: "Free shipping with SHIPFREE",
  code: "SHIPFREE",
  usageLimit: 100,
  perCustomerLimit: 1,
  conditions: [{ type: "min-subtotal", cents: 2_000 }],
  action: { type: "free-shipping", methods: null },
});
const thanks = await promotion({
  name: "Thank you: 10.00 off",
  conditions: [{ type: "min-subtotal", cents: 3_000 }],
  action: { type: "order-fixed", cents: 1_000 },
});
expectOk(
  "single-use codes",
  await generateCodes(db, { promotionId: thanks.id, count: 5, prefix: "THANKS", actor: owner }),
);
const thanksCodes = (
  await db
    .selectFrom("promotionCodes")
    .select("code")
    .where("promotionId", "=", thanks.id)
    .orderBy("id")
    .execute()
).map((row) => row.code);
const launch = await createCampaign(db, {
  input: { name: "Headphones launch", budgetCents: 5_000 },
  actor: owner,
});
await promotion({
  name: "Launch: 15.00 off headphones",
  priority: 5,
  campaignId: launch.id,
  action: { type: "items-fixed", target: target("aurora-anc-headphones"), cents: 1_500, apply: "all" },
});
await promotion({
  name: "VIP 15 % off",
  conditions: [{ type: "customer-group", groupIds: [vip.id] }],
  action: { type: "order-percent", basisPoints: 1_500 },
});
/** a time as the admin types it, in the shop's time zone (Europe/London) */
const shopTime = (local: string) => {
  const instant = instantOf(local, "Europe/London");
  if (!instant) throw new Error(local);
  return instant;
};
await promotion({
  name: "Autumn sale",
  startsAt: shopTime("2026-10-01T00:00"),
  endsAt: shopTime("2026-11-01T00:00"),
  action: { type: "order-percent", basisPoints: 2_000 },
});
const spring = await promotion({
  name: "Spring preview",
  code: "SPRING",
  action: { type: "order-percent", basisPoints: 500 },
});
expectOk("disable SPRING", await setPromotionActive(db, { id: spring.id, active: false, actor: owner }));

// a guest in Germany: the tees' buy 2 get 1 (Europe's VAT, on shipping too); one tee refunded later
const teesAbroad = await order("promotion_automatic", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [
    ["LMW-TEE-M-WHI", 2],
    ["LMW-TEE-L-NAV", 1],
  ],
  method: "express",
  shipTo: { address: "5 Fixturestraße", city: "Berlin", state: "", zipCode: "10115", country: "DE" },
});
expectOk("promotion_automatic", teesAbroad.placed);
const abroadTee = (await itemIds(teesAbroad.number)).find((i) => i.sku === "LMW-TEE-L-NAV")!;
expectOk(
  "refund of a promoted line",
  await refundOrder(refunds, {
    number: teesAbroad.number,
    key: randomUUID(),
    lines: [{ itemId: abroadTee.id, quantity: 1 }],
    amountCents: null,
    restock: true,
    reason: "Wrong size",
    actor: owner,
  }),
);
expectOk(
  "shared code",
  (
    await order("promotion_code", {
      user: linus,
      email: linus.email,
      firstName: "Linus",
      lines: [["tumbletown-family-board-game", 1]],
      couponCode: "SHIPFREE",
    })
  ).placed,
);
expectOk(
  "single-use code",
  (
    await order("promotion_single_use", {
      user: ada,
      email: ada.email,
      firstName: "Ada",
      lines: [
        ["brightfold-1000-piece-jigsaw-puzzle", 1],
        ["the-patient-garden-hardcover", 1],
      ],
      couponCode: thanksCodes[0],
    })
  ).placed,
);
expectOk(
  "campaign",
  (
    await order("promotion_campaign", {
      user: grace,
      email: grace.email,
      firstName: "Grace",
      lines: [["AUR-ANC-MID", 1]],
    })
  ).placed,
);
// a single-use code taken by a payment that failed, and one by an order then cancelled: free again
const codeFailed = await order("promotion_code_failed", {
  email: FIXTURE_EMAILS.guest,
  firstName: "Gus",
  lines: [["evenkeel-family-first-aid-kit", 1]],
  couponCode: thanksCodes[1],
  token: mintTestToken("card_declined", { secret: FIXTURE_SECRET }),
});
if (codeFailed.placed.ok || codeFailed.placed.error.code !== "payment-declined")
  throw new Error("not declined");
const codeCancelled = await order("promotion_cancelled", {
  user: linus,
  email: linus.email,
  firstName: "Linus",
  lines: [["IRL-DB-12", 1]],
  couponCode: thanksCodes[2],
});
expectOk("promotion_cancelled", codeCancelled.placed);
await move(codeCancelled.number, "cancelled");

// --- gift cards issued by staff -----------------------------------------------------------------
const { currency, shopName, timeZone } = await services.settings.current();
const giftCard = async (input: {
  amountCents: number;
  expiresAt?: string | null;
  recipientEmail?: string | null;
  recipientName?: string | null;
  message?: string | null;
}) =>
  expectOk(
    "gift card",
    await issueGiftCard(db, {
      input: {
        key: randomUUID(),
        currency,
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
        ...input,
      },
      actor: owner,
    }),
  );
const birthday = await giftCard({
  amountCents: 5_000,
  recipientEmail: ada.email,
  recipientName: "Ada Lovelace",
  message: "Happy birthday!",
});
if (!birthday.code) throw new Error("no gift card code");
await sendGiftCardEmail(
  mail,
  { shopName, publicUrl: FIXTURE_PUBLIC_URL, timeZone },
  { card: birthday.card, code: birthday.code, message: "Happy birthday!" },
);
await giftCard({ amountCents: 2_500, expiresAt: shopTime("2027-12-31T23:59") });
const withdrawn = await giftCard({ amountCents: 10_000, recipientEmail: FIXTURE_EMAILS.guest });
expectOk(
  "disable a gift card",
  await setGiftCardDisabled(db, { id: withdrawn.card.id, disabled: true, actor: owner }),
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

/** the stock-ledger check's turn: a day (background-jobs.server.ts, which imports e-mail templates node cannot load) */
const DAY_MS = 24 * 60 * 60_000;
// the daily stock-ledger check has taken today's turn, as the scheduler runs it (a job_turns row)
const checked = await runJobTurn(
  db,
  "stock-ledger-check",
  { ttlMs: 60 * 60_000, turn: Math.floor(Date.now() / DAY_MS) },
  () => checkStockLedger(db),
);
if (!checked.ran || checked.value.variants.length + checked.value.products.length > 0) {
  throw new Error(`the stock ledger check: ${JSON.stringify(checked)}`);
}

// a backup from the command line (npm run cli -- backup): its run is recorded
expectOk(
  "backup",
  await takeBackup(backupServices({ config, db, files: services.files }), {
    origin: "cli",
    destination: join(args.scratch, "backups"),
  }),
);

writeSnapshot(args.snapshot, await takeSnapshot(db, { commit: args.commit, engine: engineOf(db), labels }));
await db.destroy();
