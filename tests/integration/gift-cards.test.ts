import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseGiftCards, takeGiftCard } from "../../app/domain/gift-cards/gift-card-spending.server.ts";
import {
  checkGiftCardLedger,
  findGiftCard,
  formatGiftCardCode,
  getGiftCard,
  issueGiftCard,
  listGiftCards,
  normalizeGiftCardCode,
  setGiftCardDisabled,
} from "../../app/domain/gift-cards/gift-cards.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

/**
 * Gift cards (issue 31, decision 036) on each engine, through the module that owns their balances:
 * issued with a code only its holder knows (the shop keeps a hash), found by the code however it is
 * typed, refused when unknown, disabled, expired or empty; taken for orders with guarded updates so
 * racing checkouts never take more than a card holds; given back once; every balance the sum of
 * its movements.
 */
const OWNER = { id: "owner-1", email: "owner@gift.example", role: "owner" as const };
const STAFF = { id: "staff-1", email: "staff@gift.example", role: "staff" as const };
const NOW = new Date("2026-11-28T12:00:00.000Z");
const INPUT = {
  amountCents: 10_000,
  currency: "USD" as const,
  expiresAt: null as string | null,
  recipientEmail: "friend@example.com",
  recipientName: "Friend",
  message: "Happy birthday!",
};

describe.each(ENGINES)("gift cards on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    // destroy() checks every balance against its movements (tests/db-utils.ts)
    await t?.destroy();
  });

  const issue = async (input: Partial<typeof INPUT> = {}) => {
    const issued = await issueGiftCard(t.db, {
      input: { ...INPUT, key: randomUUID(), ...input },
      actor: OWNER,
      now: NOW,
    });
    if (!issued.ok || issued.value.code === null) throw new Error(JSON.stringify(issued));
    return { card: issued.value.card, code: issued.value.code };
  };
  const orderId = async () => {
    const number = await insertOrder(t.db, {
      userId: null,
      createdAt: NOW.toISOString(),
      status: "pending_payment",
    });
    return (
      await t.db.selectFrom("orders").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  };

  it("issues a card whose code only its holder knows: the shop keeps a hash and the last four", async () => {
    const { card, code } = await issue();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    expect(card).toMatchObject({
      kind: "gift_card",
      initialCents: 10_000,
      balanceCents: 10_000,
      disabled: false,
    });
    expect(card.last4).toBe(code.slice(-4));
    const row = await t.db
      .selectFrom("giftCards")
      .selectAll()
      .where("id", "=", card.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code.replaceAll("-", ""));
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const second = await issue();
    expect(second.code).not.toBe(code);
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "summary", "afterJson"])
      .where("entityType", "=", "gift_card")
      .where("entityId", "=", String(card.id))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: "gift_card.issue",
      summary: `Issued gift card ending ${card.last4}`,
    });
    expect(audit.afterJson).not.toContain(code.replaceAll("-", ""));
    const found = await getGiftCard(t.db, card.id);
    expect(found?.message).toBe("Happy birthday!");
    expect(found?.movements).toEqual([
      {
        amountCents: 10_000,
        reason: "issued",
        orderNumber: null,
        actor: "staff:owner-1",
        createdAt: NOW.toISOString(),
      },
    ]);
    const { cards } = await listGiftCards(t.db, { page: 1 });
    expect(cards.map((c) => c.id)).toEqual(expect.arrayContaining([card.id, second.card.id]));
  });

  it("issues one card for one form, however often (or at once) it is sent: the code only the first time", async () => {
    const key = randomUUID();
    const send = () => issueGiftCard(t.db, { input: { ...INPUT, key }, actor: OWNER, now: NOW });
    const answers = await Promise.all([send(), send(), send()]);
    const cards = new Set(answers.map((answer) => (answer.ok ? answer.value.card.id : null)));
    expect(cards.size).toBe(1);
    expect(answers.filter((answer) => answer.ok && answer.value.code !== null)).toHaveLength(1);
    const again = await send();
    expect(again.ok && again.value.code).toBeNull();
    expect(
      await t.db.selectFrom("giftCards").select("id").where("issueKey", "=", key).execute(),
    ).toHaveLength(1);
  });

  it("refuses a role without the refunds permission, an amount out of range and an expiry in the past", async () => {
    const before = await t.db.selectFrom("giftCards").select("id").execute();
    expect(
      await issueGiftCard(t.db, { input: { ...INPUT, key: randomUUID() }, actor: STAFF, now: NOW }),
    ).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
    for (const amountCents of [0, 99, 1_000_001, 10.5]) {
      expect(
        await issueGiftCard(t.db, {
          input: { ...INPUT, key: randomUUID(), amountCents },
          actor: OWNER,
          now: NOW,
        }),
      ).toEqual({
        ok: false,
        error: { code: "invalid", field: "amount" },
      });
    }
    const past = { ...INPUT, key: randomUUID(), expiresAt: "2026-11-28T11:59:59.999Z" };
    expect(await issueGiftCard(t.db, { input: past, actor: OWNER, now: NOW })).toEqual({
      ok: false,
      error: { code: "invalid", field: "expiresAt" },
    });
    expect(await t.db.selectFrom("giftCards").select("id").execute()).toEqual(before);
  });

  it("finds a card by its code however it is typed, and says why one cannot pay", async () => {
    const { card, code } = await issue({ amountCents: 2_500 });
    const raw = code.replaceAll("-", "");
    for (const typed of [code, raw, raw.toLowerCase(), ` ${code.replaceAll("-", " ")} `]) {
      const found = await findGiftCard(t.db, typed, NOW);
      expect(found.ok && found.value.id, typed).toBe(card.id);
    }
    expect(normalizeGiftCardCode("ABCD-EFGH-IJKL-MNOP")).toBeNull(); // I and O are not symbols
    expect(formatGiftCardCode(raw)).toBe(code);
    const refused = async (typed: string, at = NOW) => {
      const found = await findGiftCard(t.db, typed, at);
      return found.ok ? "ok" : found.error.code;
    };
    expect(await refused("not a code")).toBe("unknown");
    expect(await refused(`${raw.slice(0, -1)}${raw.endsWith("A") ? "B" : "A"}`)).toBe("unknown");
    const expiring = await issue({ expiresAt: "2026-12-31T23:00:00.000Z" });
    expect(await refused(expiring.code, new Date("2026-12-31T22:59:59.999Z"))).toBe("ok");
    expect(await refused(expiring.code, new Date("2026-12-31T23:00:00.000Z"))).toBe("expired");
    await setGiftCardDisabled(t.db, { id: card.id, disabled: true, actor: OWNER, now: NOW });
    expect(await refused(code)).toBe("disabled");
    await setGiftCardDisabled(t.db, { id: card.id, disabled: false, actor: OWNER, now: NOW });
    expect(await refused(code)).toBe("ok");
    const order = await orderId();
    expect(
      await t.db
        .transaction()
        .execute((trx) =>
          takeGiftCard(trx, { giftCardId: card.id, orderId: order, amountCents: 2_500, now: NOW }),
        ),
    ).toBe(true);
    expect(await refused(code)).toBe("empty");
    expect(await setGiftCardDisabled(t.db, { id: card.id, disabled: true, actor: STAFF, now: NOW })).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
  });

  it("never takes more than a card holds, with checkouts racing for it; gives back once", async () => {
    const { card } = await issue({ amountCents: 10_000 });
    const orders = await Promise.all(Array.from({ length: 10 }, () => orderId()));
    // ten orders of $30 at once against $100: three get it
    const taken = await Promise.all(
      orders.map((order) =>
        t.db
          .transaction()
          .execute((trx) =>
            takeGiftCard(trx, { giftCardId: card.id, orderId: order, amountCents: 3_000, now: NOW }),
          ),
      ),
    );
    expect(taken.filter(Boolean)).toHaveLength(3);
    const after = await getGiftCard(t.db, card.id);
    expect(after?.card.balanceCents).toBe(1_000);
    expect(after?.movements.filter((m) => m.reason === "redeemed")).toHaveLength(3);
    // one order's payment failed: its $30 back, once however often it is given back
    const failed = orders[taken.indexOf(true)]!;
    await t.db.transaction().execute((trx) => releaseGiftCards(trx, failed, NOW));
    await t.db.transaction().execute((trx) => releaseGiftCards(trx, failed, NOW));
    expect((await getGiftCard(t.db, card.id))?.card.balanceCents).toBe(4_000);
    // a disabled or expired card gives nothing
    await setGiftCardDisabled(t.db, { id: card.id, disabled: true, actor: OWNER, now: NOW });
    const one = await orderId();
    expect(
      await t.db
        .transaction()
        .execute((trx) =>
          takeGiftCard(trx, { giftCardId: card.id, orderId: one, amountCents: 100, now: NOW }),
        ),
    ).toBe(false);
    expect(await checkGiftCardLedger(t.db)).toEqual([]);
  });

  it("a balance written around the module shows in the ledger check", async () => {
    const { card } = await issue({ amountCents: 500 });
    await t.db.updateTable("giftCards").set({ balanceCents: 700 }).where("id", "=", card.id).execute();
    expect(await checkGiftCardLedger(t.db)).toEqual([{ id: card.id, balanceCents: 700, ledgerCents: 500 }]);
    await t.db.updateTable("giftCards").set({ balanceCents: 500 }).where("id", "=", card.id).execute();
  });
});
