import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../../app/adapters/auth/auth.server.ts";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import {
  register,
  registerSchema,
  signIn,
  signInSchema,
  signOut,
} from "../../app/domain/accounts/authentication.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { claimGuestCart } from "../../app/domain/cart/cart-owner.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};
/** The browser's auth session (its cookie, if any), as the route passes it on. */
const session = (cookie = "") => authSessionFromHeaders(new Headers(cookie ? { Cookie: cookie } : {}));
const cookieHeader = (setCookies: string[]) =>
  setCookies.map((line) => line.slice(0, line.indexOf(";"))).join("; ");
/** The sign-in and register forms, read as POST /account reads them (Conform + the form's schema). */
const signInForm = (fields: Record<string, string>) =>
  parseWithZod(form({ intent: "sign-in", ...fields }), { schema: signInSchema });
const registerForm = (fields: Record<string, string>) =>
  parseWithZod(form({ intent: "register", ...fields }), { schema: registerSchema });
function accepted<T>(submission: { status?: string; value?: T }): T {
  if (submission.status !== "success" || submission.value === undefined) throw new Error("form refused");
  return submission.value;
}

describe.each(ENGINES)("accounts on %s", (engine) => {
  let test: TestDatabase;
  let auth: Auth;
  const resetTokens: string[] = [];

  beforeAll(async () => {
    test = await createTestDatabase(engine);
    auth = createAuth({
      db: test.db,
      secret: "auth-test-secret-0123456789abcdefghijklmnop",
      baseURL: "http://shop.test",
      shopName: "Test",
      sendResetPassword: async ({ token }) => {
        resetTokens.push(token);
      },
    });
  });
  afterAll(async () => {
    await test?.destroy();
  });

  it("registers a customer — a role in the form is ignored — and signs them in", async () => {
    const result = await register(
      { auth },
      accepted(
        registerForm({
          name: "Ada Lovelace",
          email: "Ada@Example.com",
          password: "correct horse",
          role: "admin",
        }),
      ),
      session(),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const user = await test.db
      .selectFrom("users")
      .select(["name", "email", "role"])
      .where("id", "=", result.value.userId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ name: "Ada Lovelace", email: "ada@example.com", role: "customer" });
    const signedIn = await auth.api.getSession({
      headers: new Headers({ Cookie: cookieHeader(result.value.sessionCookies) }),
    });
    expect(signedIn?.user.email).toBe("ada@example.com");
    // the session cookie is HttpOnly and SameSite=Lax
    const line = result.value.sessionCookies.find((l) => l.includes("session_token"));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
  });

  it("refuses a short password, a long one, a bad e-mail and a taken e-mail", async () => {
    // the form's own rules (POST /account answers them with 400, the message above the form and
    // each field's beside it: tests/integration/account-cart-routes.test.ts)
    const short = registerForm({ name: "B", email: "b@example.com", password: "1234567" });
    expect(short.status).toBe("error");
    expect(short.reply().error?.password?.[0]).toBe("Password must be at least 8 characters.");
    expect(registerForm({ name: "B", email: "b@example.com", password: "x".repeat(129) }).status).toBe(
      "error",
    );
    expect(registerForm({ name: "B", email: "nope", password: "long enough" }).status).toBe("error");
    const taken = await register(
      { auth },
      accepted(registerForm({ name: "Other", email: "ada@example.com", password: "another password" })),
      session(),
    );
    expect(taken).toEqual({
      ok: false,
      error: { code: "refused", message: "Failed to create account. Please try again." },
    });
    const count = await test.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(1);
  });

  const signInWith = (fields: Record<string, string>, ip: string) =>
    signIn({ auth, db: test.db }, accepted(signInForm(fields)), { session: session(), ip, device: null });

  it("signs in with the right password; a wrong password and an unknown e-mail get the same answer", async () => {
    const ok = await signInWith({ email: "ADA@example.com", password: "correct horse" }, "10.0.0.1");
    expect(ok.ok).toBe(true);
    const wrong = await signInWith({ email: "ada@example.com", password: "wrong horse" }, "10.0.0.1");
    const unknown = await signInWith({ email: "nobody@example.com", password: "wrong horse" }, "10.0.0.1");
    // POST /account answers this with 401 (tests/integration/account-cart-routes.test.ts)
    expect(wrong).toEqual({
      ok: false,
      error: { code: "refused", message: "Failed to login. Please check your credentials." },
    });
    expect(unknown).toEqual(wrong);
  });

  it("limits sign-in attempts per e-mail from one address (429 with a clear message); other addresses are not stopped", async () => {
    const attempt = (ip: string) => signInWith({ email: "victim@example.com", password: "guess" }, ip);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await attempt("10.1.0.1"));
    expect(results.slice(0, 5).map((r) => !r.ok && r.error.code)).toEqual([
      "refused",
      "refused",
      "refused",
      "refused",
      "refused",
    ]);
    // the same e-mail from another address is checked (decision 023: no lockout by a stranger);
    // the whole design, with device cookies, is in tests/integration/sign-in-lockout.test.ts
    expect(await attempt("10.1.0.2")).toMatchObject({ ok: false, error: { code: "refused" } });
    // POST /account answers `rate-limited` with 429 (tests/integration/account-cart-routes.test.ts)
    expect(results[5]).toEqual({
      ok: false,
      error: {
        code: "rate-limited",
        message: "Too many sign-in attempts. Please wait 15 minutes and try again.",
        retryAfterSeconds: expect.any(Number),
      },
    });
  });

  it("limits sign-in attempts per address across e-mails", async () => {
    const results = [];
    for (let i = 0; i < 21; i++) {
      results.push(await signInWith({ email: `u${i}@example.com`, password: "guess" }, "10.2.0.1"));
    }
    expect(results[19]).toMatchObject({ ok: false, error: { code: "refused" } });
    expect(results[20]).toMatchObject({ ok: false, error: { code: "rate-limited" } });
  });

  it("signing out ends the session", async () => {
    const ok = await signInWith({ email: "ada@example.com", password: "correct horse" }, "10.3.0.1");
    if (!ok.ok) throw new Error("sign-in failed");
    const cookie = cookieHeader(ok.value.sessionCookies);
    expect(await auth.api.getSession({ headers: new Headers({ Cookie: cookie }) })).not.toBeNull();
    expect((await signOut({ auth }, session(cookie))).ok).toBe(true);
    expect(await auth.api.getSession({ headers: new Headers({ Cookie: cookie }) })).toBeNull();
  });

  it("a reset link is single-use, and resetting ends the user's other sessions", async () => {
    const first = await signInWith({ email: "ada@example.com", password: "correct horse" }, "10.4.0.1");
    if (!first.ok) throw new Error("sign-in failed");
    await auth.api.requestPasswordReset({
      body: { email: "ada@example.com", redirectTo: "/reset-password" },
    });
    // unknown e-mail: same (silent) answer, no mail
    await auth.api.requestPasswordReset({
      body: { email: "nobody@example.com", redirectTo: "/reset-password" },
    });
    expect(resetTokens).toHaveLength(1);
    const token = resetTokens[0] as string;
    await auth.api.resetPassword({ body: { token, newPassword: "brand new password" } });
    await expect(
      auth.api.resetPassword({ body: { token, newPassword: "again and again" } }),
    ).rejects.toThrow();
    expect(
      await auth.api.getSession({
        headers: new Headers({ Cookie: cookieHeader(first.value.sessionCookies) }),
      }),
    ).toBeNull();
    const old = await signInWith({ email: "ada@example.com", password: "correct horse" }, "10.4.0.2");
    expect(old.ok).toBe(false);
    const fresh = await signInWith({ email: "ada@example.com", password: "brand new password" }, "10.4.0.3");
    expect(fresh.ok).toBe(true);
  });

  it("on sign-in the guest cart joins the user's cart, quantities added and capped at stock", async () => {
    const lamp = await insertProduct(test.db, { name: "Desk Lamp", stock: 3 });
    const mug = await insertProduct(test.db, { name: "Mug", stock: 10 });
    const user = await test.db.selectFrom("users").select("id").executeTakeFirstOrThrow();
    await addToCart(test.db, { cartId: "user-cart-0000000000000000000001", productId: lamp, quantity: 2 });
    await test.db
      .updateTable("carts")
      .set({ userId: user.id })
      .where("id", "=", "user-cart-0000000000000000000001")
      .execute();
    await addToCart(test.db, { cartId: "guest-cart-000000000000000000001", productId: lamp, quantity: 2 });
    await addToCart(test.db, { cartId: "guest-cart-000000000000000000001", productId: mug, quantity: 1 });
    const cartId = await claimGuestCart(test.db, {
      userId: user.id,
      guestCartId: "guest-cart-000000000000000000001",
    });
    expect(cartId).toBe("user-cart-0000000000000000000001");
    const cart = await getCart(test.db, cartId as string, SPEC_SHOP);
    expect(cart.lines.map((l) => [l.name, l.quantity])).toEqual([
      ["Desk Lamp", 3],
      ["Mug", 1],
    ]);
    const guest = await test.db
      .selectFrom("carts")
      .select("id")
      .where("id", "=", "guest-cart-000000000000000000001")
      .executeTakeFirst();
    expect(guest).toBeUndefined();
  });
});
