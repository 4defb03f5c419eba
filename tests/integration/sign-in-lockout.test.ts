import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountKeyOf, SIGN_IN_LIMITS } from "../../app/domain/accounts/sign-in-limits.server.ts";
import { createSignedCookie } from "../../app/infra/signed-cookie.server.ts";
import * as account from "../../app/routes/account.tsx";
import * as resetPassword from "../../app/routes/reset-password.tsx";
import { ENGINES } from "../db-utils.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute, Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Sign-in limits that a stranger cannot turn into a lockout (decision 023), through POST /account
 * as the server calls it, on each engine: each Jar is one browser, each context one client address.
 * A browser that signed in to an account carries its device cookie (cw_device) from then on.
 */
const PASSWORD = "correct horse";
const TOO_MANY = "Too many sign-in attempts. Please wait 15 minutes and try again.";

describe.each(ENGINES)("sign-in limits without lockout on %s", (engine) => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop(engine);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  /** The status POST /account answered: 302 (signed in), 401 (wrong password), 429 (limited). */
  async function signIn(jar: Jar, ip: string, email: string, password: string) {
    const answer = (await postForm(
      account,
      `${TEST_ORIGIN}/account`,
      { intent: "sign-in", email, password },
      jar,
      shop.context(ip),
    )) as Response | { data: { result: SubmissionResult }; init: { status: number } };
    if (answer instanceof Response) return { status: answer.status, message: null };
    return { status: answer.init.status, message: answer.data.result.error?.[""]?.[0] ?? null };
  }
  /** A browser that registered `email` (and so, since decision 023, carries its device cookie). */
  async function registered(email: string, ip: string) {
    const jar = new Jar();
    const answer = await postForm(
      account,
      `${TEST_ORIGIN}/account`,
      { intent: "register", name: "Owner", email, password: PASSWORD },
      jar,
      shop.context(ip),
    );
    expect((answer as Response).status).toBe(302);
    return jar;
  }
  /** A browser with nothing but a cw_device cookie of this value. */
  const carrying = (value: string) => {
    const jar = new Jar();
    jar.cookies.set("cw_device", value);
    return jar;
  };

  it("(a, b) five wrong passwords from one address stop that address, not the owner at another", async () => {
    const email = `owner-a-${engine}@example.com`;
    await registered(email, "198.51.100.1");
    const attacker = new Jar();
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await signIn(attacker, "203.0.113.10", email, "guess")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // the attacker's address is refused even with the right password
    expect(await signIn(new Jar(), "203.0.113.10", email, PASSWORD)).toEqual({
      status: 429,
      message: TOO_MANY,
    });
    // the owner, in a browser that never signed in (no device cookie), from their own address
    const owner = new Jar();
    expect((await signIn(owner, "198.51.100.2", email, PASSWORD)).status).toBe(302);
    expect(owner.cookies.has("cw.session_token")).toBe(true);
  });

  it("the device cookie set at sign-in is signed, HttpOnly, SameSite=Lax, kept a year, and names the account without its address", async () => {
    const email = `owner-cookie-${engine}@example.com`;
    await registered(email, "198.51.100.3");
    const request = new Request(`${TEST_ORIGIN}/account`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "sign-in", email, password: PASSWORD }).toString(),
    });
    const response = (await account.action({
      request,
      params: {},
      context: shop.context("198.51.100.4"),
    } as never)) as Response;
    const line = response.headers.getSetCookie().find((l) => l.startsWith("cw_device="));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Max-Age=31536000/);
    // PUBLIC_URL is http:// in the tests: not Secure (an https shop's is)
    expect(line).not.toMatch(/Secure/i);
    const value = decodeURIComponent((line as string).slice("cw_device=".length, line?.indexOf(";")));
    expect(value).not.toContain("example.com");
    const [payload] = value.split(".");
    const decoded = JSON.parse(Buffer.from(payload as string, "base64").toString("utf8"));
    expect(decoded).toEqual({ account: accountKeyOf(email), id: expect.any(String) });
    expect(JSON.stringify(decoded)).not.toContain("owner-cookie");
  });

  it("(c, d, e) a guess spread over 60 addresses stops unknown browsers; the owner's browser still signs in, another account's or a forged cookie does not", async () => {
    const email = `owner-c-${engine}@example.com`;
    const ownersBrowser = await registered(email, "198.51.100.5");
    const otherAccountsBrowser = await registered(`other-c-${engine}@example.com`, "198.51.100.6");
    expect(ownersBrowser.cookies.has("cw_device")).toBe(true);
    expect(otherAccountsBrowser.cookies.has("cw_device")).toBe(true);

    const statuses = [];
    for (let i = 1; i <= 60; i++)
      statuses.push((await signIn(new Jar(), `10.60.0.${i}`, email, "guess")).status);
    const { limit } = SIGN_IN_LIMITS.perEmailUntrusted;
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(limit).every((status) => status === 429)).toBe(true);

    // an unknown browser at a fresh address, with the right password: stopped
    const fresh = await signIn(new Jar(), "10.61.0.1", email, PASSWORD);
    expect(fresh.status).toBe(429);
    expect(fresh.message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes and try again\.$/);

    // (d) a device cookie of another account: stopped
    expect((await signIn(otherAccountsBrowser, "10.61.0.2", email, PASSWORD)).status).toBe(429);

    // (e) forged device cookies naming this account: unsigned, signed with another secret, a
    // signature taken from another value — all stopped
    const forgedValue = { account: accountKeyOf(email), id: "00000000-0000-4000-8000-000000000000" };
    const unsigned = Buffer.from(JSON.stringify(forgedValue), "utf8").toString("base64");
    const otherSecret = createSignedCookie("cw_device", {
      secrets: ["not-the-shop-secret-0123456789abcdef"],
    });
    const wrongKey = await otherSecret.serialize(forgedValue);
    const ownersValue = ownersBrowser.cookies.get("cw_device") as string;
    const borrowedSignature = `${encodeURIComponent(unsigned)}.${ownersValue.slice(ownersValue.lastIndexOf(".") + 1)}`;
    for (const cookie of [
      encodeURIComponent(unsigned),
      wrongKey.slice("cw_device=".length, wrongKey.indexOf(";")),
      borrowedSignature,
    ]) {
      expect((await signIn(carrying(cookie), "10.61.0.3", email, PASSWORD)).status).toBe(429);
    }

    // the owner's browser (it registered: it carries this account's device cookie), from yet
    // another address, signs in — and is given a fresh device cookie
    const before = ownersBrowser.cookies.get("cw_device");
    expect((await signIn(ownersBrowser, "10.61.0.4", email, PASSWORD)).status).toBe(302);
    expect(ownersBrowser.cookies.get("cw_device")).not.toBe(before);
    // …and keeps doing so after signing out (the device cookie stays)
    await postForm(account, `${TEST_ORIGIN}/account`, { intent: "sign-out" }, ownersBrowser, shop.context());
    expect(ownersBrowser.cookies.has("cw_device")).toBe(true);
    expect((await signIn(ownersBrowser, "10.61.0.5", email, PASSWORD)).status).toBe(302);
  });

  it("a known browser is counted on its own: 10 failures stop it, and other browsers are not stopped by it", async () => {
    const email = `owner-device-${engine}@example.com`;
    const browser = await registered(email, "198.51.100.7");
    const { limit } = SIGN_IN_LIMITS.perKnownDevice;
    const statuses = [];
    // from many addresses: neither the address nor the pair counts this browser's attempts
    for (let i = 0; i <= limit; i++)
      statuses.push((await signIn(browser, `10.70.0.${i}`, email, "guess")).status);
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
    expect((await signIn(browser, "10.70.1.1", email, PASSWORD)).status).toBe(429);
    // an unknown browser is counted per address and per e-mail, not on this browser's counter
    expect((await signIn(new Jar(), "10.70.1.2", email, PASSWORD)).status).toBe(302);
  });

  it("(f) an address is stopped after 20 attempts, whatever the e-mails", async () => {
    const from = "203.0.113.20";
    const statuses = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await signIn(new Jar(), from, `stuffing-${i}-${engine}@example.com`, "guess")).status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), 429]);
    // a real account from that address, right password, unknown browser: stopped too
    const email = `owner-f-${engine}@example.com`;
    await registered(email, "198.51.100.8");
    expect((await signIn(new Jar(), from, email, PASSWORD)).status).toBe(429);
  });

  it("a password reset clears the e-mail's counters", async () => {
    const email = `owner-reset-${engine}@example.com`;
    await registered(email, "198.51.100.9");
    for (let i = 1; i <= 6; i++) await signIn(new Jar(), "203.0.113.30", email, "guess");
    for (let i = 1; i <= SIGN_IN_LIMITS.perEmailUntrusted.limit; i++)
      await signIn(new Jar(), `10.80.0.${i}`, email, "guess");
    expect((await signIn(new Jar(), "203.0.113.30", email, PASSWORD)).status).toBe(429);
    expect((await signIn(new Jar(), "10.80.1.1", email, PASSWORD)).status).toBe(429);

    await shop.services.auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(email)).at(-1);
    const token = decodeURIComponent(/\/reset-password\?token=([^\s"&<]+)/.exec(mail?.text ?? "")?.[1] ?? "");
    expect(token).not.toBe("");
    const reset = await callRoute(resetPassword, "action", `${TEST_ORIGIN}/reset-password`, {
      fields: { token, password: "a brand new horse", confirmPassword: "a brand new horse" },
      context: shop.context("198.51.100.10"),
    });
    expect(reset.response?.status).toBe(302);

    // the pair that was stopped and an unknown browser elsewhere both sign in again
    expect((await signIn(new Jar(), "203.0.113.30", email, "a brand new horse")).status).toBe(302);
    expect((await signIn(new Jar(), "10.80.1.2", email, "a brand new horse")).status).toBe(302);
  });
});
