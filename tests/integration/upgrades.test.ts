import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import type { Database, Engine } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { listAddresses } from "../../app/domain/accounts/addresses.server.ts";
import { listStaff } from "../../app/domain/accounts/staff.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { priceCart, totalsFor } from "../../app/domain/cart/cart-pricing.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { getGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { checkGiftCardLedger, getGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import { listOrderDocuments } from "../../app/domain/invoices/documents.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { reconcilePayments } from "../../app/domain/payments/charges.server.ts";
import { refundOrder, settlePendingRefunds } from "../../app/domain/payments/refunds.server.ts";
import { getAdminPromotion } from "../../app/domain/promotions/promotion-admin.server.ts";
import { promotionUses } from "../../app/domain/promotions/promotion-redemptions.server.ts";
import { getReturn } from "../../app/domain/returns/returns.server.ts";
import { readShopSettings } from "../../app/domain/settings/shop-settings.server.ts";
import { DEFAULT_SHOP_SETTINGS } from "../../app/lib/shop-settings.ts";
import { isStaffRole } from "../../app/lib/staff-roles.ts";
import {
  FIXTURE_CARD,
  FIXTURE_EMAILS,
  FIXTURE_PUBLIC_URL,
  FIXTURE_SECRET,
  type FixtureSnapshot,
  type OrderSnapshot,
  takeSnapshot,
} from "../../scripts/upgrade-fixtures/fixture-kit.ts";
import { ENGINES } from "../db-utils.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { listUpgradeFixtures, type RestoredFixture, restoreFixture } from "../helpers/upgrade-fixtures.ts";

/**
 * Upgrades (decision 029). Every fixture in tests/fixtures/upgrades is a shop of an earlier release,
 * filled through that release's own functions, on both engines. Each is migrated to today's schema
 * with the app's own migrator and checked against the snapshot taken when it was made: every table's
 * rows, every order with its lines, totals, status, events, refunds and returns, the stock and the
 * stock ledger's opening balances, the staff and their roles, the settings and the coupons — with
 * exactly the changes today's migrations describe. Then the shop is used on it: orders read through
 * the domain, a new order placed, part of an old one refunded, what the old release left pending
 * settled by the jobs, and the stock ledger balances. A migration that cannot run on a populated
 * database, or that loses or bends what it finds, fails here.
 */
const FIXTURES = listUpgradeFixtures();
const ACTOR = { id: "upgrade-test", email: FIXTURE_EMAILS.owner, role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: FIXTURE_PUBLIC_URL };

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The refund kind migration 2100 gives a refund made before it, from its key. */
const kindOfOldRefund = (key: string) =>
  key.startsWith("return:") ? "return" : key.startsWith("provider:") ? "provider" : "refund";

it("has fixtures of at least three schemas, the oldest from before product variants", () => {
  expect(FIXTURES.length).toBeGreaterThanOrEqual(3);
  expect(FIXTURES[0]!.snapshots.sqlite.migrations).not.toContain("2026-11-25T1200-product-variants");
});

describe.each(FIXTURES.map((fixture) => [fixture.name, fixture] as const))("the %s fixture", (_, fixture) => {
  it("was filled the same way on both engines", () => {
    const { sqlite, postgres } = fixture.snapshots;
    expect(postgres.migrations).toEqual(sqlite.migrations);
    expect(postgres.counts).toEqual(sqlite.counts);
    expect(Object.keys(postgres.labels)).toEqual(Object.keys(sqlite.labels));
    const byLabel = (snapshot: FixtureSnapshot) =>
      Object.entries(snapshot.labels).map(([label, number]) => {
        const { number: _, refunds, returns, ...order } = snapshot.orders[number]!;
        // single-use promotion codes are random
        const singleUse = Object.values(snapshot.promotions ?? {}).flatMap((p) => p.codes.map((c) => c.code));
        return {
          label,
          ...order,
          couponCode:
            order.couponCode && singleUse.includes(order.couponCode) ? "<single-use>" : order.couponCode,
          // return numbers are random: a return's refund is named after its return
          refunds: refunds.map(({ idempotencyKey: _key, ...refund }) => ({
            ...refund,
            reason: refund.reason.replace(/RT-[0-9A-Z]+/, "RT-…"),
          })),
          returns: returns.map(({ number: _number, ...ret }) => ret),
        };
      });
    expect(byLabel(postgres)).toEqual(byLabel(sqlite));
    const roles = (snapshot: FixtureSnapshot) => snapshot.users.map((u) => [u.email, u.role, u.disabled]);
    expect(roles(postgres)).toEqual(roles(sqlite));
    expect(postgres.products).toEqual(sqlite.products);
    expect(postgres.variants).toEqual(sqlite.variants);
    expect(postgres.coupons).toEqual(sqlite.coupons);
    expect({ ...postgres.settings, updatedAt: null }).toEqual({ ...sqlite.settings, updatedAt: null });
    // what the promotions era added (fixtures from 2c6f616 on): order numbers, codes, accounts' ids
    // and card codes are random, so orders are named by label
    expect(postgres.markets).toEqual(sqlite.markets);
    expect(postgres.campaigns).toEqual(sqlite.campaigns);
    expect(postgres.customerGroups).toEqual(sqlite.customerGroups);
    const label = (snapshot: FixtureSnapshot, number: string | null) =>
      number === null ? null : (Object.entries(snapshot.labels).find(([, n]) => n === number)?.[0] ?? "?");
    const promotions = (snapshot: FixtureSnapshot) =>
      snapshot.promotions &&
      Object.fromEntries(
        Object.entries(snapshot.promotions).map(([name, { codes, redemptions, ...promotion }]) => [
          name,
          {
            ...promotion,
            codes: codes.map((c) => ({ used: c.used, order: label(snapshot, c.orderNumber) })),
            redemptions: redemptions.map((r) => ({
              order: label(snapshot, r.orderNumber),
              guest: r.customerKey.startsWith("email:"),
              amountCents: r.amountCents,
            })),
          },
        ]),
      );
    expect(promotions(postgres)).toEqual(promotions(sqlite));
    const giftCards = (snapshot: FixtureSnapshot) =>
      snapshot.giftCards?.map(({ last4: _last4, movements, ...card }) => ({
        ...card,
        movements: movements.map(({ actor: _actor, orderNumber, ...m }) => ({
          ...m,
          order: label(snapshot, orderNumber),
        })),
      }));
    expect(giftCards(postgres)).toEqual(giftCards(sqlite));
    const invoices = (snapshot: FixtureSnapshot) =>
      snapshot.invoices?.map((i) => [i.kind, i.number, label(snapshot, i.orderNumber)]);
    expect(invoices(postgres)).toEqual(invoices(sqlite));
  });

  describe.each(ENGINES)("upgraded on %s", (engine: Engine) => {
    const snapshot = fixture.snapshots[engine];
    /** whether this migration ran in the upgrade (the fixture was made before it) */
    const ran = (migration: string) => !snapshot.migrations.includes(migration);
    let restored: RestoredFixture | undefined;
    let db: Database;
    let applied: string[];
    let gateway: PaymentGateway;
    let mailDir: string;
    const services = () => ({
      db,
      gateway,
      mail: createMailer(`file:${mailDir}`, { from: "shop@fixture.example" }),
      shop: SHOP,
    });

    beforeAll(async () => {
      restored = await restoreFixture(fixture, engine);
      db = restored.db;
      applied = await migrateToLatest(db);
      gateway = createTestGateway({ processingDelayMs: 0, secret: FIXTURE_SECRET, db });
      mailDir = join(restored.scratch, "mail");
    });
    afterAll(async () => {
      await restored?.destroy();
    });

    /** Cancelled orders whose refund was made before refunds were recorded (migration 0350's work). */
    const unrecordedCancellations = () =>
      Object.values(snapshot.orders).filter(
        (o) => o.status === "cancelled" && (o.refundedCents ?? 0) > sum(o.refunds.map((r) => r.amountCents)),
      );

    it("runs every migration made after the fixture, once", async () => {
      const all = (
        await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
      ).rows.map((r) => r.name);
      expect(all.slice(0, snapshot.migrations.length)).toEqual(snapshot.migrations);
      expect(applied).toEqual(all.filter((name) => !snapshot.migrations.includes(name)));
      expect(await migrateToLatest(db)).toEqual([]);
    });

    it("keeps every table's rows, but what the migrations say they change", async () => {
      const expected: Record<string, number> = { ...snapshot.counts };
      if (ran("2026-11-27T2300-staff-invitations") && snapshot.invitations.style === "account") {
        // the old invitations are dropped; their never-used accounts lose their sessions and links
        const invitees = snapshot.users.filter((u) => snapshot.invitations.emails.includes(u.email));
        expected.staff_invitations = 0;
        expected.sessions! -= sum(invitees.map((u) => u.sessions));
        expected.verifications! -= sum(invitees.map((u) => u.resetTokens));
      }
      if (ran("2026-11-28T0350-unrecorded-refunds") && unrecordedCancellations().length > 0) {
        // a cancellation that refunded without a refund row gets one
        expected.order_refunds! += unrecordedCancellations().length;
      }
      if (ran("2026-11-28T0780-coupons-to-promotions")) {
        // the coupons become promotions with their codes, the uses of their orders still open
        // (neither cancelled nor failed) those orders' redemptions
        const codes = new Set(Object.keys(snapshot.coupons));
        const open = Object.values(snapshot.orders).filter(
          (order) =>
            order.couponCode !== null &&
            codes.has(order.couponCode) &&
            !["cancelled", "payment_failed"].includes(order.status),
        );
        delete expected.coupons;
        if ("promotions" in expected) expected.promotions! += codes.size;
        if ("promotion_redemptions" in expected) expected.promotion_redemptions! += open.length;
      }
      const counts: Record<string, number> = {};
      for (const table of Object.keys(expected)) {
        const row = await sql<{ n: unknown }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        counts[table] = Number(row.rows[0]!.n);
      }
      expect(counts).toEqual(expected);
    });

    it("keeps every order: status, totals, currency, lines, events, payment, refunds and returns", async () => {
      expect(Object.keys(snapshot.orders).length).toBeGreaterThan(0);
      for (const before of Object.values(snapshot.orders)) {
        const order = await getOrderByNumber(db, before.number);
        expect(order, before.number).not.toBeNull();
        const stored = await db
          .selectFrom("orders")
          .select([
            "id",
            "refundedCents",
            "refundPendingCents",
            "carrier",
            "trackingNumber",
            "paymentReference",
            "idempotencyKey",
            "paidAt",
            "createdAt",
          ])
          .where("number", "=", before.number)
          .executeTakeFirstOrThrow();
        expect(
          {
            status: order!.status,
            email: order!.email,
            shippingMethod: order!.shippingMethod,
            couponCode: order!.couponCode,
            currency: order!.currency,
            totals: {
              subtotalCents: order!.totals.subtotalCents,
              discountCents: order!.totals.discountCents,
              shippingCents: order!.totals.shippingCents,
              taxCents: order!.totals.taxCents,
              totalCents: order!.totals.totalCents,
            },
            refundedCents: stored.refundedCents,
            refundPendingCents: stored.refundPendingCents,
            carrier: stored.carrier,
            trackingNumber: stored.trackingNumber,
          },
          before.number,
        ).toEqual({
          status: before.status,
          email: before.email,
          shippingMethod: before.shippingMethod,
          couponCode: before.couponCode,
          // every order before migration 2000 was in US dollars
          currency: before.currency ?? "USD",
          totals: {
            subtotalCents: before.subtotalCents,
            discountCents: before.discountCents,
            shippingCents: before.shippingCents,
            taxCents: before.taxCents,
            totalCents: before.totalCents,
          },
          refundedCents: before.refundedCents ?? 0,
          refundPendingCents: before.refundPendingCents ?? 0,
          carrier: before.carrier,
          trackingNumber: before.trackingNumber,
        });
        if (ran("2026-11-25T1400-payment-workflow")) expect(stored.paidAt).toBe(stored.createdAt);

        // the lines, as the order page shows them, and what was refunded and restocked of each
        const lines = await db
          .selectFrom("orderItems")
          .select(["refundedQuantity", "restockedQuantity"])
          .where("orderId", "=", stored.id)
          .orderBy("id")
          .execute();
        expect(
          order!.items.map((item, i) => ({
            productSlug: item.productSlug,
            name: item.name,
            variantTitle: item.variantTitle,
            sku: item.sku,
            quantity: item.quantity,
            unitPriceCents: item.unitPriceCents,
            lineTotalCents: item.lineTotalCents,
            refundedQuantity: lines[i]!.refundedQuantity,
            restockedQuantity: lines[i]!.restockedQuantity,
          })),
          before.number,
        ).toEqual(
          before.lines.map((line, i) => ({
            productSlug: line.productSlug,
            name: line.name,
            // a line before variants is its product's default variant: no title, SKU CW-<product id>
            variantTitle: line.variantTitle ?? "",
            sku: line.sku ?? `CW-${order!.items[i]!.productId}`,
            quantity: line.quantity,
            unitPriceCents: line.unitPriceCents,
            lineTotalCents: line.lineTotalCents,
            refundedQuantity: line.refundedQuantity ?? 0,
            restockedQuantity: line.restockedQuantity ?? restockedBefore2100(before, line),
          })),
        );

        const events = await db
          .selectFrom("orderEvents")
          .select(["fromStatus", "toStatus"])
          .where("orderId", "=", stored.id)
          .orderBy("id")
          .execute();
        expect(
          events.map((e) => `${e.fromStatus ?? ""}→${e.toStatus}`),
          before.number,
        ).toEqual(before.events);

        const payment = await db
          .selectFrom("testGatewayPayments")
          .select(["amountCents", "refundedCents", "status"])
          .where("authorizationId", "=", stored.paymentReference)
          .executeTakeFirst();
        expect(payment ?? null, before.number).toEqual(before.payment);

        const refunds = await db
          .selectFrom("orderRefunds")
          .select([
            "amountCents",
            "reason",
            "restocked",
            "includesShipping",
            "idempotencyKey",
            "status",
            "kind",
            "paymentId",
          ])
          .where("orderId", "=", stored.id)
          .orderBy("id")
          .execute();
        const backfilled =
          ran("2026-11-28T0350-unrecorded-refunds") && unrecordedCancellations().includes(before)
            ? [
                {
                  amountCents: (before.refundedCents ?? 0) - sum(before.refunds.map((r) => r.amountCents)),
                  reason: "Order cancelled",
                  restocked: 0,
                  includesShipping: 0,
                  idempotencyKey: `cancel:${stored.idempotencyKey}`,
                  status: "succeeded",
                  kind: "cancel",
                  paymentId: stored.paymentReference,
                },
              ]
            : [];
        expect(refunds, before.number).toEqual([
          ...before.refunds.map((refund) => ({
            amountCents: refund.amountCents,
            reason: refund.reason,
            restocked: refund.restocked,
            includesShipping: refund.includesShipping ?? 0,
            idempotencyKey: refund.idempotencyKey,
            // refunds before migration 2100 all went through
            status: refund.status ?? "succeeded",
            kind: refund.kind ?? kindOfOldRefund(refund.idempotencyKey),
            paymentId: stored.paymentReference,
          })),
          ...backfilled,
        ]);

        for (const ret of before.returns) {
          const found = await getReturn(db, ret.number);
          expect(
            found && {
              orderNumber: found.orderNumber,
              status: found.status,
              reason: found.reason,
              refundCents: found.refundCents,
              lines: found.items.map((item) => ({ name: item.name, quantity: item.quantity })),
            },
            ret.number,
          ).toEqual({
            orderNumber: before.number,
            status: ret.status,
            reason: ret.reason,
            refundCents: ret.refundCents,
            lines: ret.lines,
          });
        }
      }
    });

    it("keeps every stock level, and the stock ledger opens with it", async () => {
      const products = await db
        .selectFrom("products")
        .select(["id", "slug", "name", "stock", "priceCents", "rating", "reviewCount", "archivedAt"])
        .orderBy("slug")
        .execute();
      expect(
        Object.fromEntries(
          products.map((p) => [
            p.slug,
            {
              name: p.name,
              stock: p.stock,
              priceCents: p.priceCents,
              rating: Number(p.rating),
              reviewCount: p.reviewCount,
              archived: p.archivedAt !== null,
            },
          ]),
        ),
      ).toEqual(snapshot.products);

      const variants = await db
        .selectFrom("productVariants")
        .innerJoin("products", "products.id", "productVariants.productId")
        .select([
          "productVariants.id",
          "productVariants.sku",
          "products.id as productId",
          "products.slug",
          "productVariants.option1",
          "productVariants.option2",
          "productVariants.option3",
          "productVariants.stock",
          "productVariants.priceCents",
          "productVariants.archivedAt",
        ])
        .orderBy("productVariants.sku")
        .execute();
      const before =
        snapshot.variants ??
        // before variants: every product became one default variant, SKU CW-<id>, with its stock
        Object.fromEntries(
          products.map((p) => [
            `CW-${p.id}`,
            {
              productSlug: p.slug,
              options: [null, null, null],
              stock: snapshot.products[p.slug]!.stock,
              priceCents: snapshot.products[p.slug]!.priceCents,
              archived: false,
            },
          ]),
        );
      expect(
        Object.fromEntries(
          variants.map((v) => [
            v.sku,
            {
              productSlug: v.slug,
              options: [v.option1, v.option2, v.option3],
              stock: v.stock,
              priceCents: v.priceCents,
              archived: v.archivedAt !== null,
            },
          ]),
        ),
      ).toEqual(before);

      if (ran("2026-11-27T2200-stock-ledger")) {
        // the stock there was at the upgrade is each variant's opening balance, and nothing else moved
        const movements = await db
          .selectFrom("stockMovements")
          .select(["variantId", "productId", "delta", "reason", "actor"])
          .orderBy("variantId")
          .execute();
        expect(movements).toEqual(
          variants
            .filter((v) => v.stock !== 0)
            .sort((a, b) => a.id - b.id)
            .map((v) => ({
              variantId: v.id,
              productId: v.productId,
              delta: v.stock,
              reason: "opening_balance",
              actor: "system",
            })),
        );
      }
      const drift = await checkStockLedger(db);
      expect(drift.variants).toEqual([]);
      expect(drift.products).toEqual([]);
    });

    it("keeps the staff and their roles, as migrations 1600 and 2300 change them", async () => {
      const expected = new Map(snapshot.users.map((u) => [u.email, u.role]));
      if (ran("2026-11-26T1600-staff-roles") && !snapshot.users.some((u) => u.role === "owner")) {
        // the oldest admin becomes the owner
        const oldest = snapshot.users
          .filter((u) => u.role === "admin")
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
        if (oldest) expected.set(oldest.email, "owner");
      }
      const invitees =
        ran("2026-11-27T2300-staff-invitations") && snapshot.invitations.style === "account"
          ? snapshot.invitations.emails
          : [];
      // an invitation never used gives nothing: its account is a customer's until invited again
      for (const email of invitees) expected.set(email, "customer");

      const users = await db
        .selectFrom("users")
        .select(["id", "email", "role", "disabledAt"])
        .orderBy("email")
        .execute();
      expect(Object.fromEntries(users.map((u) => [u.email, u.role]))).toEqual(Object.fromEntries(expected));
      // every fixture has its owner (made by 1600 where there was none), and an invitee from before
      // 2300 was staff until the upgrade
      expect(users.find((u) => u.email === FIXTURE_EMAILS.owner)?.role).toBe("owner");
      for (const email of invitees) {
        expect(snapshot.users.find((u) => u.email === email)?.role, email).not.toBe("customer");
      }

      const staff = await listStaff(db);
      expect(Object.fromEntries(staff.map((s) => [s.email, s.role]))).toEqual(
        Object.fromEntries([...expected].filter(([, role]) => isStaffRole(role))),
      );
      const open = await db.selectFrom("staffInvitations").select("email").orderBy("email").execute();
      expect(open.map((i) => i.email)).toEqual(
        snapshot.invitations.style === "invitation" ? snapshot.invitations.emails : [],
      );

      for (const before of snapshot.users) {
        const user = users.find((u) => u.email === before.email)!;
        expect(user.disabledAt !== null, before.email).toBe(before.disabled ?? false);
        expect((await listAddresses(db, user.id)).length, before.email).toBe(before.addresses);
        const sessions = await db
          .selectFrom("sessions")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("userId", "=", user.id)
          .executeTakeFirstOrThrow();
        expect(Number(sessions.n), before.email).toBe(invitees.includes(before.email) ? 0 : before.sessions);
      }
    });

    it("keeps the shop's settings and coupons", async () => {
      const row = await db.selectFrom("shopSettings").selectAll().executeTakeFirst();
      if (snapshot.settings) expect(row).toMatchObject(snapshot.settings);
      else expect(row ?? null).toBeNull();
      const settings = await readShopSettings(db, DEFAULT_SHOP_SETTINGS);
      if (snapshot.settings) {
        expect(settings).toMatchObject({
          shopName: snapshot.settings.shopName,
          currency: snapshot.settings.currency,
        });
      }
      if (snapshot.markets) {
        // the zones as the zones admin left them, as the shop reads them
        expect({
          taxMode: settings.markets.taxMode,
          rounding: settings.markets.rounding,
          estimateCountry: settings.markets.estimateCountry,
          zones: settings.markets.zones.map((zone) => ({
            name: zone.name,
            countries: zone.countries,
            taxLabel: zone.taxLabel,
            taxShipping: zone.taxShipping,
            rates: [...zone.rates].sort(
              (a, b) => a.region.localeCompare(b.region) || a.taxClass.localeCompare(b.taxClass),
            ),
            methods: zone.methods.map((m) => [m.code, m.name, m.rule, m.flatCents, m.bands, m.freeOverCents]),
          })),
        }).toEqual({
          taxMode: snapshot.markets.pricesIncludeTax ? "inclusive" : "exclusive",
          rounding: snapshot.markets.taxRounding,
          estimateCountry: snapshot.markets.estimateCountry,
          zones: snapshot.markets.zones.map((zone) => ({
            name: zone.name,
            countries: zone.countries,
            taxLabel: zone.taxLabel,
            taxShipping: zone.taxShipping === 1,
            rates: zone.rates,
            methods: zone.methods.map((m) => [m.code, m.name, m.rule, m.flatCents, m.bands, m.freeOverCents]),
          })),
        });
      } else if (snapshot.settings) {
        // the saved tax rate, label and fees became the one zone's (migration 2026-11-28T0400)
        const [zone, ...others] = settings.markets.zones;
        expect(others).toEqual([]);
        expect(zone!.taxLabel).toBe(snapshot.settings.taxLabel);
        expect(zone!.rates).toContainEqual({
          region: "",
          taxClass: "standard",
          basisPoints: snapshot.settings.taxRateBasisPoints,
        });
        expect(zone!.methods.map((m) => [m.code, m.flatCents, m.freeOverCents])).toEqual([
          ["standard", snapshot.settings.standardShippingCents, snapshot.settings.freeShippingThresholdCents],
          ["express", snapshot.settings.expressShippingCents, null],
        ]);
      } else {
        expect(settings).toEqual(DEFAULT_SHOP_SETTINGS);
      }
      // the coupons, as the promotions with their codes they became (migration 2026-11-28T0780): a
      // percentage or an amount off the order, the same uses, the same flag
      const coupons = await db
        .selectFrom("promotions")
        .select(["id", "code", "action", "active"])
        .where("couponId", "is not", null)
        .orderBy("code")
        .execute();
      const uses = await promotionUses(
        db,
        coupons.map((c) => Number(c.id)),
      );
      expect(
        Object.fromEntries(
          coupons.map((c) => {
            const action = JSON.parse(c.action) as { type: string; basisPoints?: number; cents?: number };
            return [
              c.code,
              {
                kind: action.type === "order-percent" ? "percent" : "fixed",
                amount: action.type === "order-percent" ? action.basisPoints! / 100 : action.cents,
                usedCount: uses.get(Number(c.id)),
                active: Number(c.active),
              },
            ];
          }),
        ),
      ).toEqual(snapshot.coupons);
    });

    it.skipIf(!snapshot.promotions)(
      "keeps the promotions, their codes and redemptions, the customer groups, the gift cards and the invoices",
      async () => {
        const after = await takeSnapshot(db, { commit: snapshot.commit, engine, labels: snapshot.labels });
        // migration 2026-11-28T0745 (when there is one) counts a promotion's uses on its row only while
        // it has a use limit: 0 for the others, whose uses are their redemptions
        const countsOnlyLimited = applied.includes("2026-11-28T0745-promotion-uses");
        const promotions = Object.fromEntries(
          Object.entries(snapshot.promotions!).map(([name, p]) => [
            name,
            { ...p, usedCount: countsOnlyLimited && p.usageLimit === null ? 0 : p.usedCount },
          ]),
        );
        // as stored: every promotion's terms and uses, its single-use codes and the orders holding
        // them, what each order's promotions took; the campaigns' budgets and spending; the groups'
        // members and how they came in; every gift card and its movements; every invoice and credit
        // note with its number and the document as issued
        // (and the coupons, promotions since migration 2026-11-28T0780: checked with the settings)
        const coupons = new Set(Object.keys(snapshot.coupons).map((code) => `Coupon ${code}`));
        expect(
          Object.fromEntries(Object.entries(after.promotions ?? {}).filter(([name]) => !coupons.has(name))),
        ).toEqual(promotions);
        expect(after.campaigns).toEqual(snapshot.campaigns);
        expect(after.customerGroups).toEqual(snapshot.customerGroups);
        expect(after.giftCards).toEqual(snapshot.giftCards);
        expect(after.invoices).toEqual(snapshot.invoices);
        expect(after.markets).toEqual(snapshot.markets);

        // and as the admin reads them (its uses: its orders' redemptions)
        for (const [name, before] of Object.entries(snapshot.promotions!)) {
          const row = await db
            .selectFrom("promotions")
            .select("id")
            .where("name", "=", name)
            .executeTakeFirst();
          const found = row && (await getAdminPromotion(db, row.id));
          expect(
            found && {
              code: found.promotion.code,
              active: found.promotion.active,
              uniqueCodes: found.promotion.uniqueCodes,
              usedCount: found.promotion.usedCount,
              campaignName: found.promotion.campaignName,
            },
            name,
          ).toEqual({
            code: before.code,
            active: before.active === 1,
            uniqueCodes: before.uniqueCodes === 1,
            usedCount: before.redemptions.length,
            campaignName: before.campaign,
          });
        }
        for (const [name, before] of Object.entries(snapshot.customerGroups ?? {})) {
          const row = await db
            .selectFrom("customerGroups")
            .select("id")
            .where("name", "=", name)
            .executeTakeFirstOrThrow();
          const group = await getGroup(db, row.id);
          expect(
            group!.members.map((m) => ({ email: m.email, source: m.source })),
            name,
          ).toEqual(before.members);
        }
        // every gift card's balance is the sum of its movements, as issued
        expect(await checkGiftCardLedger(db)).toEqual([]);
        const cards = await db.selectFrom("giftCards").select("id").orderBy("id").execute();
        expect(cards.length).toBe(snapshot.giftCards?.length ?? 0);
        for (const [i, { id }] of cards.entries()) {
          const card = await getGiftCard(db, id);
          const before = snapshot.giftCards![i]!;
          expect(
            {
              balanceCents: card!.card.balanceCents,
              disabled: card!.card.disabled,
              movements: card!.movements.map((m) => m.amountCents),
            },
            `gift card ${i}`,
          ).toEqual({
            balanceCents: before.balanceCents,
            disabled: before.disabled,
            movements: before.movements.map((m) => m.amountCents),
          });
        }
        // each order's documents, as its page lists them
        for (const number of Object.keys(snapshot.orders)) {
          expect(
            (await listOrderDocuments(db, number)).map((d) => d.number),
            number,
          ).toEqual(
            snapshot
              .invoices!.filter((i) => i.orderNumber === number)
              .sort((a, b) => (a.kind === b.kind ? a.sequence - b.sequence : a.kind === "invoice" ? -1 : 1))
              .map((i) => i.number),
          );
        }
      },
    );

    it("keeps the money books: what the gateway paid back is what the refunds say", async () => {
      // refunds made before refunds were recorded (cancellations, lapsed payments) are backfilled
      // by migration 2026-11-28T0350, so every order's books match its gateway
      const books = await moneyBookDifferences(db, { allowPending: true });
      expect(books.differences).toEqual([]);
    });

    it("works: a new order is placed, part of an old one refunded, and the stock ledger balances", async () => {
      const settings = await readShopSettings(db, DEFAULT_SHOP_SETTINGS);
      // a variant in stock of a live product with options (where the catalogue has them), and another product
      const inStock = await db
        .selectFrom("productVariants")
        .innerJoin("products", "products.id", "productVariants.productId")
        .select([
          "productVariants.id",
          "productVariants.productId",
          "productVariants.stock",
          "productVariants.option1",
        ])
        .where("products.archivedAt", "is", null)
        .where("productVariants.archivedAt", "is", null)
        .where("productVariants.stock", ">=", 3)
        .orderBy(sql`case when product_variants.option1 is null then 1 else 0 end`)
        .orderBy("productVariants.id")
        .execute();
      const first = inStock[0]!;
      const second = inStock.find((v) => v.productId !== first.productId)!;
      const cartId = newCartId();
      for (const [variant, quantity] of [
        [first, 2],
        [second, 1],
      ] as const) {
        const added = await addToCart(db, {
          cartId,
          productId: variant.productId,
          variantId: variant.id,
          quantity,
        });
        expect(added.ok).toBe(true);
      }
      const cart = await getCart(db, cartId, settings, { email: "nova@fixture.example" });
      // with the promotions that apply to it (fixtures from 2c6f616 on have automatic ones)
      const quote = {
        lines: cart.lines,
        discountCents: 0,
        destination: { country: "US", region: "IL" },
        offers: cart.offers,
      };
      const card = await gateway.tokenize({ ...FIXTURE_CARD, name: "Upgrade Test" });
      if (!card.ok) throw new Error("tokenize");
      const placed = await placeOrder(db, gateway, {
        cartId,
        idempotencyKey: randomUUID(),
        shipping: {
          firstName: "Nova",
          lastName: "Upgrade",
          email: "nova@fixture.example",
          phone: "+1 555 0199",
          address: "9 Upgrade Road",
          city: "Springfield",
          state: "IL",
          zipCode: "62701",
          country: "US",
        },
        method: "standard",
        shop: settings,
        payment: { token: card.token, brand: card.brand, last4: card.last4 },
        expectedTotalCents: totalsFor(
          priceCart(settings.markets, { ...quote, methodCode: "standard" }),
          quote,
          "",
        ).totalCents,
      });
      if (!placed.ok) throw new Error(`not placed: ${JSON.stringify(placed.error)}`);
      const number = placed.value.order.number;
      const order = await getOrderByNumber(db, number);
      expect(order).toMatchObject({ status: "paid", currency: settings.currency });
      expect(order!.items.map((i) => i.quantity)).toEqual([2, 1]);
      const level = async (id: number) =>
        (
          await db
            .selectFrom("productVariants")
            .select("stock")
            .where("id", "=", id)
            .executeTakeFirstOrThrow()
        ).stock;
      expect(await level(first.id)).toBe(first.stock - 2);
      expect(await level(second.id)).toBe(second.stock - 1);

      // part of the fixture's paid order: one unit of its first line, back into stock
      const old = snapshot.orders[snapshot.labels.paid!]!;
      const oldLine = await db
        .selectFrom("orderItems")
        .innerJoin("orders", "orders.id", "orderItems.orderId")
        .select(["orderItems.id", "orderItems.variantId"])
        .where("orders.number", "=", old.number)
        .orderBy("orderItems.id")
        .executeTakeFirstOrThrow();
      const stockBefore = await level(oldLine.variantId!);
      const refund = await refundOrder(services(), {
        number: old.number,
        key: randomUUID(),
        lines: [{ itemId: oldLine.id, quantity: 1 }],
        amountCents: null,
        restock: true,
        reason: "Upgrade test",
        actor: ACTOR,
      });
      if (old.payment) {
        if (!refund.ok) throw new Error(`not refunded: ${JSON.stringify(refund.error)}`);
        expect(refund.value.status).toBe("partially_refunded");
        expect(refund.value.amountCents).toBeGreaterThan(0);
        const after = await db
          .selectFrom("orders")
          .innerJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
          .select(["orders.status", "orders.refundedCents", "testGatewayPayments.refundedCents as ledger"])
          .where("orders.number", "=", old.number)
          .executeTakeFirstOrThrow();
        expect(after).toEqual({
          status: "partially_refunded",
          refundedCents: refund.value.amountCents,
          ledger: refund.value.amountCents,
        });
        expect(await level(oldLine.variantId!)).toBe(stockBefore + 1);
      } else {
        // Paid before migration 1400, the test gateway's ledger has no payment for it: the gateway
        // refuses, and nothing of the order changes.
        expect(refund).toMatchObject({ ok: false, error: { code: "gateway" } });
        expect(
          await db
            .selectFrom("orders")
            .select(["status", "refundedCents", "refundPendingCents"])
            .where("number", "=", old.number)
            .executeTakeFirstOrThrow(),
        ).toEqual({ status: old.status, refundedCents: 0, refundPendingCents: 0 });
        expect(await level(oldLine.variantId!)).toBe(stockBefore);
        // the refund workflow on this database then: part of the new order
        const line = await db
          .selectFrom("orderItems")
          .select("id")
          .where("orderId", "=", placed.value.order.id)
          .orderBy("id")
          .executeTakeFirstOrThrow();
        const fresh = await refundOrder(services(), {
          number,
          key: randomUUID(),
          lines: [{ itemId: line.id, quantity: 1 }],
          amountCents: null,
          restock: true,
          reason: "Upgrade test",
          actor: ACTOR,
        });
        expect(fresh).toMatchObject({ ok: true, value: { status: "partially_refunded" } });
        expect(await level(first.id)).toBe(first.stock - 1);
      }
      const drift = await checkStockLedger(db);
      expect(drift.variants).toEqual([]);
      expect(drift.products).toEqual([]);
    });

    it("settles what the fixture's release left pending with today's jobs", async () => {
      const pendingOrders = Object.values(snapshot.orders).filter((o) => o.status === "pending_payment");
      const pendingRefunds = Object.values(snapshot.orders).filter((o) => (o.refundPendingCents ?? 0) > 0);
      // a day after the latest order, by the data's clock rather than this machine's
      const latest = await db
        .selectFrom("orders")
        .select((eb) => eb.fn.max("createdAt").as("at"))
        .executeTakeFirstOrThrow();
      const now = new Date(Date.parse(String(latest.at)) + 86_400_000);
      const held = await db
        .selectFrom("orderItems")
        .innerJoin("orders", "orders.id", "orderItems.orderId")
        .innerJoin("productVariants", "productVariants.id", "orderItems.variantId")
        .select(["orderItems.variantId", "orderItems.quantity", "productVariants.stock"])
        .where("orders.status", "=", "pending_payment")
        .execute();
      expect(held.length).toBeGreaterThanOrEqual(pendingOrders.length);
      // never seen by the gateway and its reservation lapsed: the payment failed, the stock comes back
      expect(await reconcilePayments(db, gateway, { now })).toMatchObject({ failed: pendingOrders.length });
      for (const before of pendingOrders) {
        expect(await getOrderByNumber(db, before.number), before.number).toMatchObject({
          status: "payment_failed",
        });
      }
      const givenBack = new Map<number, { stock: number; units: number }>();
      for (const line of held) {
        const variant = givenBack.get(line.variantId!) ?? { stock: line.stock, units: 0 };
        givenBack.set(line.variantId!, { ...variant, units: variant.units + line.quantity });
      }
      for (const [variantId, { stock, units }] of givenBack) {
        const current = await db
          .selectFrom("productVariants")
          .select("stock")
          .where("id", "=", variantId)
          .executeTakeFirstOrThrow();
        expect(current.stock, `variant ${variantId}`).toBe(stock + units);
      }
      // a refund whose gateway call never came back: asked again with its own key, it goes through
      expect(await settlePendingRefunds(services(), { now })).toMatchObject({
        succeeded: pendingRefunds.length,
      });
      for (const before of pendingRefunds) {
        const after = await db
          .selectFrom("orders")
          .select(["refundedCents", "refundPendingCents"])
          .where("number", "=", before.number)
          .executeTakeFirstOrThrow();
        expect(after, before.number).toEqual({
          refundedCents: (before.refundedCents ?? 0) + before.refundPendingCents!,
          refundPendingCents: 0,
        });
      }
      const left = await db
        .selectFrom("orders")
        .select("number")
        .where((eb) => eb.or([eb("status", "=", "pending_payment"), eb("refundPendingCents", ">", 0)]))
        .execute();
      expect(left).toEqual([]);
      const drift = await checkStockLedger(db);
      expect(drift.variants).toEqual([]);
      expect(drift.products).toEqual([]);
    });
  });
});

/**
 * The units of a line back in stock, as migration 2100 counts them for a line refunded before it:
 * its refunded units when a refund of its order restocked, or its units in returns received.
 */
function restockedBefore2100(order: OrderSnapshot, line: OrderSnapshot["lines"][number]): number {
  const refunded = order.refunds.some((r) => r.restocked === 1) ? (line.refundedQuantity ?? 0) : 0;
  const received = sum(
    order.returns
      .filter((r) => r.status === "received" || r.status === "refunded")
      .flatMap((r) => r.lines.filter((l) => l.name === line.name).map((l) => l.quantity)),
  );
  return Math.max(refunded, received);
}
