/**
 * What every upgrade fixture's fill script shares (tests/fixtures/upgrades/README.md). The driver
 * (make-fixture.ts) copies this file beside the fill script into a worktree of an older commit, so
 * it imports nothing of the app — only Kysely and Node — and reads any version's schema: the
 * snapshot asks the database which tables and columns it has and reads them with plain queries.
 *
 * The snapshot is what the filled database held, written beside it; the upgrade test
 * (tests/integration/upgrades.test.ts) migrates the fixture and checks the upgraded database
 * against it.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Kysely, sql } from "kysely";

/**
 * The fixtures' SESSION_SECRET, which also signs the test gateway's tokens and authorization ids:
 * the upgrade test's gateway uses it too.
 */
export const FIXTURE_SECRET = "cartwheel-upgrade-fixtures-secret-0123456789";
export const FIXTURE_PUBLIC_URL = "http://shop.test";
/** every account's password */
export const FIXTURE_PASSWORD = "fixture-password-1";

/** The accounts every fixture has (those its version can make), by what they are. */
export const FIXTURE_EMAILS = {
  /** the first admin account (made the owner by migration 1600 where it did not exist yet) */
  owner: "owner@fixture.example",
  admin: "admin@fixture.example",
  staff: "staff@fixture.example",
  /** invited by the owner, never used the link */
  invited: "invited@fixture.example",
  /** invited by the owner, set a password through the link and signed in */
  joined: "joined@fixture.example",
  /** customers */
  ada: "ada@fixture.example",
  grace: "grace@fixture.example",
  linus: "linus@fixture.example",
  /** a customer whose account staff disabled */
  disabled: "disabled@fixture.example",
  /** a guest (no account) */
  guest: "guest@fixture.example",
} as const;

export const FIXTURE_CARD = { number: "4242424242424242", expMonth: 12, expYear: 2049, cvv: "123" };

/** A ship-to address for an e-mail (the checkout's shipping step). */
export function shippingFor(email: string, firstName: string, lastName = "Fixture") {
  return {
    firstName,
    lastName,
    email,
    phone: "+1 555 0100",
    address: `${firstName.length} Fixture Street`,
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    country: "US",
  };
}

/** A customer's saved address (the account's address book). */
export function addressFor(firstName: string, city = "Springfield") {
  return {
    firstName,
    lastName: "Fixture",
    phone: "+1 555 0101",
    address: `${firstName.length * 11} Market Street`,
    city,
    state: "IL",
    zipCode: "62704",
    country: "US",
  };
}

export interface FillArguments {
  /** the database to fill: file:… (SQLite) or postgres://… */
  database: string;
  /** a directory for the run's uploads and mail (thrown away) */
  scratch: string;
  /** where the snapshot goes (JSON) */
  snapshot: string;
  /** the commit being filled, recorded in the snapshot */
  commit: string;
}

export function fillArguments(): FillArguments {
  const { values } = parseArgs({
    options: {
      database: { type: "string" },
      scratch: { type: "string" },
      snapshot: { type: "string" },
      commit: { type: "string" },
    },
  });
  const { database, scratch, snapshot, commit } = values;
  if (!database || !scratch || !snapshot || !commit) {
    throw new Error(
      "usage: fill-<commit>.ts --database <url> --scratch <dir> --snapshot <file.json> --commit <sha>",
    );
  }
  return { database, scratch, snapshot, commit };
}

/** Throws unless a step of the fill went as the shop said it would. */
export function expectOk<T>(what: string, result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`${what}: ${JSON.stringify(result.error)}`);
  return result.value;
}

export interface OrderSnapshot {
  number: string;
  status: string;
  email: string;
  userEmail: string | null;
  shippingMethod: string;
  couponCode: string | null;
  /** null: the version has no currency column (every order was USD) */
  currency: string | null;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  refundedCents: number | null;
  refundPendingCents: number | null;
  carrier: string | null;
  trackingNumber: string | null;
  lines: {
    productSlug: string;
    name: string;
    variantTitle: string | null;
    sku: string | null;
    quantity: number;
    unitPriceCents: number;
    lineTotalCents: number;
    refundedQuantity: number | null;
    restockedQuantity: number | null;
  }[];
  refunds: {
    amountCents: number;
    reason: string;
    restocked: number;
    includesShipping: number | null;
    idempotencyKey: string;
    status: string | null;
    kind: string | null;
  }[];
  returns: {
    number: string;
    status: string;
    reason: string;
    refundCents: number | null;
    lines: { name: string; quantity: number }[];
  }[];
  /** the test gateway's ledger for the order's payment (null: no ledger in this version, or no payment) */
  payment: { amountCents: number; refundedCents: number; status: string } | null;
  /** what each status change was, in order */
  events: string[];
}

export interface UserSnapshot {
  email: string;
  role: string | null;
  createdAt: string;
  disabled: boolean | null;
  sessions: number;
  /** Better Auth reset-password tokens for this account (an invitation's link was one) */
  resetTokens: number;
  addresses: number;
}

export interface FixtureSnapshot {
  commit: string;
  engine: "sqlite" | "postgres";
  /** the migrations the fixture's database had run, in order */
  migrations: string[];
  /** rows per table (the search index's FTS tables and the migrator's own left out) */
  counts: Record<string, number>;
  /** what each order is in the fixture ("paid", "refunded", …) → its number */
  labels: Record<string, string>;
  orders: Record<string, OrderSnapshot>;
  users: UserSnapshot[];
  /**
   * Open staff invitations: "account" (migration 1600's: an account with the role, listed until
   * its first sign-in) or "invitation" (migration 2300's: an invitation row, no account yet).
   */
  invitations: { style: "account" | "invitation" | null; emails: string[] };
  products: Record<
    string,
    {
      name: string;
      stock: number;
      priceCents: number;
      rating: number;
      reviewCount: number;
      archived: boolean;
    }
  >;
  /** null: the version has no variants */
  variants: Record<
    string,
    {
      productSlug: string;
      options: (string | null)[];
      stock: number;
      priceCents: number;
      archived: boolean;
    }
  > | null;
  /** the shop_settings row as stored; null when there is none (or no such table) */
  settings: Record<string, unknown> | null;
  coupons: Record<string, { kind: string; amount: number; usedCount: number; active: number }>;
  /*
   * What later schemas added, read only where the version has it: absent from the snapshots of the
   * fixtures made before it was read, null when the version has no such table.
   */
  /** where the shop sells (migration 2026-11-28T0400): the markets row and its zones in order */
  markets?: MarketsSnapshot | null;
  /** promotions by name (migrations 0500, 0600), with their single-use codes and redemptions */
  promotions?: Record<string, PromotionSnapshot> | null;
  campaigns?: Record<string, { budgetCents: number | null; spentCents: number }> | null;
  /** customer groups by name (migration 0710), their members by e-mail */
  customerGroups?: Record<
    string,
    { description: string; rule: string | null; members: { email: string; source: string }[] }
  > | null;
  /** gift cards and store credit (migration 0730), in the order issued, with their movements */
  giftCards?: GiftCardSnapshot[] | null;
  /** invoices and credit notes (migration 0410), in the order issued */
  invoices?: InvoiceSnapshot[] | null;
}

export interface MarketsSnapshot {
  pricesIncludeTax: number;
  taxRounding: string;
  estimateCountry: string;
  zones: {
    name: string;
    countries: string[];
    regions: Record<string, string[]>;
    taxLabel: string;
    taxShipping: number;
    rates: { region: string; taxClass: string; basisPoints: number }[];
    methods: {
      code: string;
      name: string;
      rule: string;
      flatCents: number;
      bands: unknown;
      freeOverCents: number | null;
      daysMin: number;
      daysMax: number;
    }[];
  }[];
}

export interface PromotionSnapshot {
  code: string | null;
  uniqueCodes: number | null;
  conditions: unknown;
  action: unknown;
  startsAt: string | null;
  endsAt: string | null;
  priority: number;
  combines: number;
  active: number;
  campaign: string | null;
  usageLimit: number | null;
  usedCount: number;
  perCustomerLimit: number | null;
  /** its single-use codes in the order made, and the order that holds each (null: free) */
  codes: { code: string; orderNumber: string | null; used: boolean }[];
  /** the orders that used it ("user:<id>" or "email:<address>") and what it took */
  redemptions: { orderNumber: string; customerKey: string; amountCents: number }[];
}

export interface GiftCardSnapshot {
  kind: string;
  last4: string;
  currency: string;
  initialCents: number;
  balanceCents: number;
  expiresAt: string | null;
  userEmail: string | null;
  recipientEmail: string | null;
  disabled: boolean;
  movements: { amountCents: number; reason: string; orderNumber: string | null; actor: string }[];
}

export interface InvoiceSnapshot {
  kind: string;
  number: string;
  sequence: number;
  orderNumber: string;
  /** a credit note's refund, by its idempotency key */
  refundKey: string | null;
  issuedAt: string;
  /** the SHA-256 of the document as issued (its JSON text, never rewritten) */
  documentSha256: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the snapshot reads whatever schema the version has
type AnyDb = Kysely<any>;

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown) => (value === null || value === undefined ? null : String(value));
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/** Reads the filled database into a snapshot (plain queries over the tables and columns it has). */
export async function takeSnapshot(
  db: AnyDb,
  {
    commit,
    engine,
    labels,
  }: { commit: string; engine: "sqlite" | "postgres"; labels: Record<string, string> },
): Promise<FixtureSnapshot> {
  const tables = new Map(
    (await db.introspection.getTables()).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]),
  );
  const has = (table: string, column?: string) =>
    tables.has(table) && (column === undefined || tables.get(table)!.has(column));
  /** the column where the version has it, else null */
  const maybe = <A extends string>(table: string, column: string, as: A) =>
    (has(table, column) ? sql<unknown>`${sql.ref(`${table}.${column}`)}` : sql<unknown>`null`).as(as);

  const counts: Record<string, number> = {};
  for (const name of [...tables.keys()].sort()) {
    if (name.startsWith("kysely_migration") || name.startsWith("products_fts")) continue;
    const row = await sql<{ n: unknown }>`select count(*) as n from ${sql.table(name)}`.execute(db);
    counts[name] = Number(row.rows[0]!.n);
  }
  const migrations = (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  ).rows.map((r) => r.name);

  const orders: Record<string, OrderSnapshot> = {};
  const orderRows = await db
    .selectFrom("orders")
    .leftJoin("users", "users.id", "orders.userId")
    .select([
      "orders.id",
      "orders.number",
      "orders.status",
      "orders.email",
      "users.email as userEmail",
      "orders.shippingMethod",
      "orders.couponCode",
      "orders.subtotalCents",
      "orders.discountCents",
      "orders.shippingCents",
      "orders.taxCents",
      "orders.totalCents",
      "orders.paymentReference",
      maybe("orders", "currency", "currency"),
      maybe("orders", "refunded_cents", "refundedCents"),
      maybe("orders", "refund_pending_cents", "refundPendingCents"),
      maybe("orders", "carrier", "carrier"),
      maybe("orders", "tracking_number", "trackingNumber"),
    ])
    .orderBy("orders.id")
    .execute();
  for (const order of orderRows) {
    const lines = await db
      .selectFrom("orderItems")
      .select([
        "productSlug",
        "name",
        "quantity",
        "unitPriceCents",
        "lineTotalCents",
        maybe("order_items", "variant_title", "variantTitle"),
        maybe("order_items", "sku", "sku"),
        maybe("order_items", "refunded_quantity", "refundedQuantity"),
        maybe("order_items", "restocked_quantity", "restockedQuantity"),
      ])
      .where("orderId", "=", order.id)
      .orderBy("id")
      .execute();
    const refunds = has("order_refunds")
      ? await db
          .selectFrom("orderRefunds")
          .select([
            "amountCents",
            "reason",
            "restocked",
            "idempotencyKey",
            maybe("order_refunds", "includes_shipping", "includesShipping"),
            maybe("order_refunds", "status", "status"),
            maybe("order_refunds", "kind", "kind"),
          ])
          .where("orderId", "=", order.id)
          .orderBy("id")
          .execute()
      : [];
    const returns = [];
    if (has("returns")) {
      for (const ret of await db
        .selectFrom("returns")
        .select(["id", "number", "status", "reason", maybe("returns", "refund_cents", "refundCents")])
        .where("orderId", "=", order.id)
        .orderBy("id")
        .execute()) {
        const items = await db
          .selectFrom("returnItems")
          .innerJoin("orderItems", "orderItems.id", "returnItems.orderItemId")
          .select(["orderItems.name", "returnItems.quantity"])
          .where("returnItems.returnId", "=", ret.id)
          .orderBy("returnItems.id")
          .execute();
        returns.push({
          number: ret.number,
          status: ret.status,
          reason: ret.reason,
          refundCents: num(ret.refundCents),
          lines: items.map((i) => ({ name: i.name, quantity: Number(i.quantity) })),
        });
      }
    }
    const payment = has("test_gateway_payments")
      ? await db
          .selectFrom("testGatewayPayments")
          .select(["amountCents", "refundedCents", "status"])
          .where("authorizationId", "=", order.paymentReference)
          .executeTakeFirst()
      : undefined;
    const events = await db
      .selectFrom("orderEvents")
      .select(["fromStatus", "toStatus"])
      .where("orderId", "=", order.id)
      .orderBy("id")
      .execute();
    orders[order.number] = {
      number: order.number,
      status: order.status,
      email: order.email,
      userEmail: str(order.userEmail),
      shippingMethod: order.shippingMethod,
      couponCode: order.couponCode,
      currency: str(order.currency),
      subtotalCents: Number(order.subtotalCents),
      discountCents: Number(order.discountCents),
      shippingCents: Number(order.shippingCents),
      taxCents: Number(order.taxCents),
      totalCents: Number(order.totalCents),
      refundedCents: num(order.refundedCents),
      refundPendingCents: num(order.refundPendingCents),
      carrier: str(order.carrier),
      trackingNumber: str(order.trackingNumber),
      lines: lines.map((l) => ({
        productSlug: l.productSlug,
        name: l.name,
        variantTitle: str(l.variantTitle),
        sku: str(l.sku),
        quantity: Number(l.quantity),
        unitPriceCents: Number(l.unitPriceCents),
        lineTotalCents: Number(l.lineTotalCents),
        refundedQuantity: num(l.refundedQuantity),
        restockedQuantity: num(l.restockedQuantity),
      })),
      refunds: refunds.map((r) => ({
        amountCents: Number(r.amountCents),
        reason: r.reason,
        restocked: Number(r.restocked),
        includesShipping: num(r.includesShipping),
        idempotencyKey: r.idempotencyKey,
        status: str(r.status),
        kind: str(r.kind),
      })),
      returns,
      payment: payment
        ? {
            amountCents: Number(payment.amountCents),
            refundedCents: Number(payment.refundedCents),
            status: payment.status,
          }
        : null,
      events: events.map((e) => `${e.fromStatus ?? ""}→${e.toStatus}`),
    };
  }

  const users: UserSnapshot[] = [];
  for (const user of await db
    .selectFrom("users")
    .select(["id", "email", "role", "createdAt", maybe("users", "disabled_at", "disabledAt")])
    .orderBy("email")
    .execute()) {
    const count = async (table: string, column: string, extra?: (q: AnyQuery) => AnyQuery) => {
      if (!has(table)) return 0;
      let query: AnyQuery = db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where(column, "=", user.id);
      if (extra) query = extra(query);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    users.push({
      email: user.email,
      role: user.role,
      createdAt: iso(user.createdAt),
      disabled: has("users", "disabled_at") ? user.disabledAt != null : null,
      sessions: await count("sessions", "userId"),
      resetTokens: await count("verifications", "value", (q) =>
        q.where("identifier", "like", "reset-password:%"),
      ),
      addresses: await count("addresses", "userId"),
    });
  }

  let invitations: FixtureSnapshot["invitations"] = { style: null, emails: [] };
  if (has("staff_invitations", "user_id")) {
    const rows = await db
      .selectFrom("staffInvitations")
      .innerJoin("users", "users.id", "staffInvitations.userId")
      .select("users.email")
      .orderBy("users.email")
      .execute();
    invitations = { style: "account", emails: rows.map((r) => r.email) };
  } else if (has("staff_invitations", "email")) {
    const rows = await db.selectFrom("staffInvitations").select("email").orderBy("email").execute();
    invitations = { style: "invitation", emails: rows.map((r) => r.email) };
  }

  const products: FixtureSnapshot["products"] = {};
  for (const p of await db
    .selectFrom("products")
    .select(["slug", "name", "stock", "priceCents", "rating", "reviewCount", "archivedAt"])
    .orderBy("slug")
    .execute()) {
    products[p.slug] = {
      name: p.name,
      stock: Number(p.stock),
      priceCents: Number(p.priceCents),
      rating: Number(p.rating),
      reviewCount: Number(p.reviewCount),
      archived: p.archivedAt !== null,
    };
  }

  let variants: FixtureSnapshot["variants"] = null;
  if (has("product_variants")) {
    variants = {};
    for (const v of await db
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select([
        "productVariants.sku",
        "products.slug",
        "productVariants.option1",
        "productVariants.option2",
        "productVariants.option3",
        "productVariants.stock",
        "productVariants.priceCents",
        "productVariants.archivedAt",
      ])
      .orderBy("productVariants.sku")
      .execute()) {
      variants[v.sku] = {
        productSlug: v.slug,
        options: [v.option1, v.option2, v.option3],
        stock: Number(v.stock),
        priceCents: Number(v.priceCents),
        archived: v.archivedAt !== null,
      };
    }
  }

  const settings = has("shop_settings")
    ? ((await db.selectFrom("shopSettings").selectAll().executeTakeFirst()) ?? null)
    : null;

  // (none after migration 2026-11-28T0780: coupons are promotions with a code from then on)
  const coupons: FixtureSnapshot["coupons"] = {};
  for (const c of !has("coupons")
    ? []
    : await db
        .selectFrom("coupons")
        .select(["code", "kind", "amount", "usedCount", "active"])
        .orderBy("code")
        .execute()) {
    coupons[c.code] = {
      kind: c.kind,
      amount: Number(c.amount),
      usedCount: Number(c.usedCount),
      active: Number(c.active),
    };
  }

  return {
    commit,
    engine,
    migrations,
    counts,
    labels,
    orders,
    users,
    invitations,
    products,
    variants,
    settings,
    coupons,
    markets: has("markets") ? await marketsSnapshot(db) : null,
    ...(has("promotions")
      ? await promotionsSnapshot(db, has("promotion_codes"))
      : { promotions: null, campaigns: null }),
    customerGroups: has("customer_groups") ? await customerGroupsSnapshot(db) : null,
    giftCards: has("gift_cards") ? await giftCardsSnapshot(db) : null,
    invoices: has("invoices") ? await invoicesSnapshot(db) : null,
  };
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.parse(String(value)));

async function marketsSnapshot(db: AnyDb): Promise<MarketsSnapshot | null> {
  const row = await db
    .selectFrom("markets")
    .select(["pricesIncludeTax", "taxRounding", "estimateCountry"])
    .executeTakeFirst();
  if (!row) return null;
  const zones: MarketsSnapshot["zones"] = [];
  for (const zone of await db.selectFrom("zones").selectAll().orderBy("position").orderBy("id").execute()) {
    const rates = await db
      .selectFrom("zoneTaxRates")
      .select(["region", "taxClass", "basisPoints"])
      .where("zoneId", "=", zone.id)
      .orderBy("region")
      .orderBy("taxClass")
      .execute();
    const methods = await db
      .selectFrom("shippingMethods")
      .selectAll()
      .where("zoneId", "=", zone.id)
      .orderBy("position")
      .orderBy("id")
      .execute();
    zones.push({
      name: zone.name,
      countries: json(zone.countries),
      regions: json(zone.regions),
      taxLabel: zone.taxLabel,
      taxShipping: Number(zone.taxShipping),
      rates: rates.map((r) => ({
        region: r.region,
        taxClass: r.taxClass,
        basisPoints: Number(r.basisPoints),
      })),
      methods: methods.map((m) => ({
        code: m.code,
        name: m.name,
        rule: m.rule,
        flatCents: Number(m.flatCents),
        bands: json(m.bands),
        freeOverCents: num(m.freeOverCents),
        daysMin: Number(m.daysMin),
        daysMax: Number(m.daysMax),
      })),
    });
  }
  return {
    pricesIncludeTax: Number(row.pricesIncludeTax),
    taxRounding: row.taxRounding,
    estimateCountry: row.estimateCountry,
    zones,
  };
}

async function promotionsSnapshot(
  db: AnyDb,
  withCodes: boolean,
): Promise<Pick<FixtureSnapshot, "promotions" | "campaigns">> {
  const campaigns: NonNullable<FixtureSnapshot["campaigns"]> = {};
  const campaignNames = new Map<number, string>();
  for (const c of await db.selectFrom("promotionCampaigns").selectAll().orderBy("id").execute()) {
    campaignNames.set(Number(c.id), c.name);
    campaigns[c.name] = { budgetCents: num(c.budgetCents), spentCents: Number(c.spentCents) };
  }
  const promotions: Record<string, PromotionSnapshot> = {};
  for (const p of await db.selectFrom("promotions").selectAll().orderBy("id").execute()) {
    const codes = withCodes
      ? await db
          .selectFrom("promotionCodes")
          .leftJoin("orders", "orders.id", "promotionCodes.orderId")
          .select(["promotionCodes.code", "orders.number as orderNumber", "promotionCodes.usedAt"])
          .where("promotionCodes.promotionId", "=", p.id)
          .orderBy("promotionCodes.id")
          .execute()
      : [];
    const redemptions = await db
      .selectFrom("promotionRedemptions")
      .innerJoin("orders", "orders.id", "promotionRedemptions.orderId")
      .select([
        "orders.number as orderNumber",
        "promotionRedemptions.customerKey",
        "promotionRedemptions.amountCents",
      ])
      .where("promotionRedemptions.promotionId", "=", p.id)
      .orderBy("promotionRedemptions.id")
      .execute();
    promotions[p.name] = {
      code: p.code,
      uniqueCodes: num(p.uniqueCodes),
      conditions: json(p.conditions),
      action: json(p.action),
      startsAt: p.startsAt,
      endsAt: p.endsAt,
      priority: Number(p.priority),
      combines: Number(p.combines),
      active: Number(p.active),
      campaign: p.campaignId === null ? null : (campaignNames.get(Number(p.campaignId)) ?? null),
      usageLimit: num(p.usageLimit),
      usedCount: Number(p.usedCount),
      perCustomerLimit: num(p.perCustomerLimit),
      codes: codes.map((c) => ({ code: c.code, orderNumber: str(c.orderNumber), used: c.usedAt !== null })),
      redemptions: redemptions.map((r) => ({
        orderNumber: r.orderNumber,
        customerKey: r.customerKey,
        amountCents: Number(r.amountCents),
      })),
    };
  }
  return { promotions, campaigns };
}

async function customerGroupsSnapshot(db: AnyDb): Promise<NonNullable<FixtureSnapshot["customerGroups"]>> {
  const groups: NonNullable<FixtureSnapshot["customerGroups"]> = {};
  for (const g of await db.selectFrom("customerGroups").selectAll().orderBy("id").execute()) {
    const members = await db
      .selectFrom("customerGroupMembers")
      .innerJoin("users", "users.id", "customerGroupMembers.userId")
      .select(["users.email", "customerGroupMembers.source"])
      .where("customerGroupMembers.groupId", "=", g.id)
      .orderBy("users.email")
      .execute();
    groups[g.name] = { description: g.description, rule: g.rule, members };
  }
  return groups;
}

async function giftCardsSnapshot(db: AnyDb): Promise<GiftCardSnapshot[]> {
  const cards: GiftCardSnapshot[] = [];
  for (const card of await db
    .selectFrom("giftCards")
    .leftJoin("users", "users.id", "giftCards.userId")
    .selectAll("giftCards")
    .select("users.email as userEmail")
    .orderBy("giftCards.id")
    .execute()) {
    const movements = await db
      .selectFrom("giftCardMovements")
      .leftJoin("orders", "orders.id", "giftCardMovements.orderId")
      .select([
        "giftCardMovements.amountCents",
        "giftCardMovements.reason",
        "orders.number as orderNumber",
        "giftCardMovements.actor",
      ])
      .where("giftCardMovements.giftCardId", "=", card.id)
      .orderBy("giftCardMovements.id")
      .execute();
    cards.push({
      kind: card.kind,
      last4: card.last4,
      currency: card.currency,
      initialCents: Number(card.initialCents),
      balanceCents: Number(card.balanceCents),
      expiresAt: card.expiresAt,
      userEmail: str(card.userEmail),
      recipientEmail: card.recipientEmail,
      disabled: card.disabledAt !== null,
      movements: movements.map((m) => ({
        amountCents: Number(m.amountCents),
        reason: m.reason,
        orderNumber: str(m.orderNumber),
        actor: m.actor,
      })),
    });
  }
  return cards;
}

async function invoicesSnapshot(db: AnyDb): Promise<InvoiceSnapshot[]> {
  const rows = await db
    .selectFrom("invoices")
    .innerJoin("orders", "orders.id", "invoices.orderId")
    .leftJoin("orderRefunds", "orderRefunds.id", "invoices.refundId")
    .select([
      "invoices.kind",
      "invoices.number",
      "invoices.sequence",
      "orders.number as orderNumber",
      "orderRefunds.idempotencyKey as refundKey",
      "invoices.issuedAt",
      "invoices.document",
    ])
    .orderBy("invoices.id")
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    number: r.number,
    sequence: Number(r.sequence),
    orderNumber: r.orderNumber,
    refundKey: str(r.refundKey),
    issuedAt: iso(r.issuedAt),
    documentSha256: createHash("sha256").update(String(r.document)).digest("hex"),
  }));
}

// biome-ignore lint/suspicious/noExplicitAny: a query over a table named at run time
type AnyQuery = any;

export function writeSnapshot(file: string, snapshot: FixtureSnapshot): void {
  writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}
