import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import {
  GIFT_CARD_CHECK_LIMIT,
  GIFT_CARD_CHECK_MESSAGES,
  GIFT_CARD_REFUSALS,
  GIFT_CARD_MESSAGES as M,
} from "../../app/domain/gift-cards/gift-card-form.ts";
import { findGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import * as listRoute from "../../app/routes/admin.gift-cards._index.tsx";
import * as cardRoute from "../../app/routes/admin.gift-cards.$id.tsx";
import * as newRoute from "../../app/routes/admin.gift-cards.new.tsx";
import * as balanceRoute from "../../app/routes/gift-cards.balance.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { adminAction } from "../helpers/admin-route.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Gift cards (issue 31) on each engine, through the routes as the server calls them: the
 * owner issues a card (the code shown on that answer only, e-mailed to the recipient), a refused
 * form says why beside each field and issues nothing, the same form sent again issues nothing more,
 * and the card's page shows its balance and movements and disables it. A shopper checks a balance
 * by its code at /gift-cards/balance, a limited number of times per address.
 */
const BASE = `${TEST_ORIGIN}/admin/gift-cards`;

describe.each(ENGINES)("gift cards admin on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";
  beforeAll(async () => {
    shop = await createTestShop(engine);
    const created = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email: "owner@gifts.example", password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("owner");
    const signedIn = await shop.services.auth.api.signInEmail({
      body: { email: "owner@gifts.example", password: "correct horse" },
      returnHeaders: true,
    });
    cookie = cookieHeader(signedIn.headers);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const issue = (fields: Record<string, string>) =>
    adminAction(
      newRoute.action,
      new Request(`${BASE}/new`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams(fields).toString(),
      }),
      shop.context(),
    );
  const newKey = async () => {
    const page = await callRoute(newRoute, "loader", `${BASE}/new`, { cookie, context: shop.context() });
    return (page.data as unknown as { key: string }).key;
  };

  it("issues a card, shows its code once and e-mails it to the recipient", async () => {
    const key = await newKey();
    const fields = {
      key,
      amount: "50",
      expiresOn: "2099-12-31",
      recipientEmail: "friend@example.com",
      recipientName: "Grace",
      message: "Happy birthday!",
    };
    const answer = await callRoute(newRoute, "action", `${BASE}/new`, {
      cookie,
      fields,
      context: shop.context(),
    });
    const issued = (answer.data as unknown as { issued: { id: number; code: string } } | undefined)?.issued;
    expect(issued).toMatchObject({ amount: "$50.00", emailedTo: "friend@example.com" });
    const found = await findGiftCard(shop.db, issued!.code);
    expect(found.ok && found.value).toMatchObject({ balanceCents: 5_000, recipientName: "Grace" });
    // through the last day, on the shop's clocks (UTC here)
    expect(found.ok && found.value.expiresAt).toBe("2100-01-01T00:00:00.000Z");
    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to === "friend@example.com");
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(/^Your \$50\.00 gift card from \S/);
    expect(mail[0]!.text).toContain(`Your gift card code: ${issued!.code}`);
    expect(mail[0]!.text).toContain("“Happy birthday!”");

    // the same form again: no second card, no code, to the card's page
    const again = await issue(fields);
    expect(again).toMatchObject({
      ok: true,
      location: `/admin/gift-cards/${issued!.id}`,
      message: M.issued(issued!.code.slice(-4)),
    });
    expect(await shop.db.selectFrom("giftCards").select("id").execute()).toHaveLength(1);

    // listed, and its page shows the balance and the movement
    const list = await callRoute(listRoute, "loader", BASE, { cookie, context: shop.context() });
    const cards = (
      list.data as unknown as { cards: { id: number; name: string; balance: string; status: string }[] }
    ).cards;
    expect(cards).toEqual([
      expect.objectContaining({
        id: issued!.id,
        name: `Ending ${issued!.code.slice(-4)}`,
        balance: "$50.00",
        status: "Active",
      }),
    ]);
    const page = await callRoute(cardRoute, "loader", `${BASE}/${issued!.id}`, {
      cookie,
      params: { id: String(issued!.id) },
      context: shop.context(),
    });
    const shown = page.data as unknown as {
      card: { balance: string; disabled: boolean };
      movements: { what: string; amount: string }[];
    };
    expect(shown.card).toMatchObject({ balance: "$50.00", disabled: false });
    expect(shown.movements).toEqual([expect.objectContaining({ what: "Issued", amount: "+$50.00" })]);
    expect(JSON.stringify(page.data)).not.toContain(issued!.code);

    // disabled from its page: it can no longer pay
    const disabled = await adminAction(
      cardRoute.action,
      new Request(`${BASE}/${issued!.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: "intent=disable",
      }),
      shop.context(),
      { id: String(issued!.id) },
    );
    expect(disabled).toMatchObject({ ok: true, message: M.disabled(issued!.code.slice(-4)) });
    const refused = await findGiftCard(shop.db, issued!.code);
    expect(refused.ok ? "ok" : refused.error.code).toBe("disabled");
  });

  it("refuses wrong values beside their fields and issues nothing", async () => {
    const before = await shop.db.selectFrom("giftCards").select("id").execute();
    const key = await newKey();
    for (const [changes, field, message] of [
      [{ amount: "" }, "amount", M.amount],
      [{ amount: "0.99" }, "amount", M.amount],
      [{ amount: "10000.01" }, "amount", M.amount],
      [{ amount: "12.345" }, "amount", M.amount],
      [{ amount: "-5" }, "amount", M.amount],
      [{ expiresOn: "2026-02-30" }, "expiresOn", M.expiresAt],
      [{ expiresOn: "soon" }, "expiresOn", M.expiresAt],
      [{ recipientEmail: "not-an-address" }, "recipientEmail", M.recipientEmail],
      [{ recipientName: "x".repeat(101) }, "recipientName", M.recipientName],
      [{ message: "x".repeat(501) }, "message", M.message],
    ] as [Record<string, string>, string, string][]) {
      const answer = await issue({ key, amount: "25", ...changes });
      expect(answer, JSON.stringify(changes)).toMatchObject({ ok: false, status: 400, message: M.invalid });
      expect(
        (answer as { fieldErrors?: Record<string, string> }).fieldErrors?.[field],
        JSON.stringify(changes),
      ).toBe(message);
    }
    // a day already over: refused by the domain, said beside the field
    expect(await issue({ key, amount: "25", expiresOn: "2001-01-01" })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { expiresOn: M.expiresAt },
    });
    expect(await shop.db.selectFrom("giftCards").select("id").execute()).toEqual(before);
  });
  it("tells a shopper a card's balance by its code, the same words for every code that cannot pay, a few times per address", async () => {
    const key = await newKey();
    const answer = await callRoute(newRoute, "action", `${BASE}/new`, {
      cookie,
      fields: { key, amount: "30" },
      context: shop.context(),
    });
    const code = (answer.data as unknown as { issued: { code: string } }).issued.code;
    const check = (typed: string, clientIp: string) =>
      callRoute(balanceRoute, "action", `${TEST_ORIGIN}/gift-cards/balance`, {
        fields: { code: typed },
        context: shop.context(clientIp),
      });
    const found = await check(code.toLowerCase().replaceAll("-", " "), "198.51.100.1");
    expect(found.status).toBe(200);
    expect((found.data as unknown as { card: unknown }).card).toEqual({
      last4: code.slice(-4),
      balance: "$30.00",
      expires: null,
    });
    const refusal = (answer: { data?: unknown }) =>
      (answer.data as unknown as { result: { error?: Record<string, string[]> } }).result.error?.code?.[0];
    const unknown = await check("ABCD-EFGH-JKLM-NPQR", "198.51.100.1");
    expect([unknown.status, refusal(unknown)]).toEqual([400, GIFT_CARD_REFUSALS.unknown]);
    const empty = await check("", "198.51.100.1");
    expect([empty.status, refusal(empty)]).toEqual([400, GIFT_CARD_CHECK_MESSAGES.required]);
    // the limit counts every lookup from an address, found or not; another address is not held up
    for (let n = 1; n < GIFT_CARD_CHECK_LIMIT.limit; n++) await check("ABCD-EFGH-JKLM-NPQR", "198.51.100.2");
    expect((await check(code, "198.51.100.2")).status).toBe(200);
    const limited = await check(code, "198.51.100.2");
    expect(limited.status).toBe(429);
    expect(refusal(limited)).toMatch(/^Too many checks\. Please wait \d+ minutes? and try again\.$/);
    expect((await check(code, "198.51.100.3")).status).toBe(200);
  });
});
