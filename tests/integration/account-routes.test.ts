import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { PASSWORD_CHECK_LIMIT } from "../../app/domain/accounts/account-settings.server.ts";
import { saveCard } from "../../app/domain/accounts/payment-methods.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import { hitRateLimit } from "../../app/infra/rate-limit.server.ts";
import * as addresses from "../../app/routes/account.addresses.tsx";
import * as orders from "../../app/routes/account.orders._index.tsx";
import * as order from "../../app/routes/account.orders.$number.tsx";
import * as cards from "../../app/routes/account.payment-methods.tsx";
import * as settings from "../../app/routes/account.settings.tsx";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";
import { callRoute, type RouteModule } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The account section routes called as the server calls them (a Request carrying a real session
 * cookie), on a SQLite database of their own: signed out → sign-in redirect, another user's rows
 * → 404, form errors → 400 with the values kept, success → redirect with a toast (and cookies).
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
const users: Record<"ada" | "bob", { id: string; cookie: string }> = {} as never;

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
  users.ada = await signUp("Ada Lovelace", "ada@example.com");
  users.bob = await signUp("Bob Babbage", "bob@example.com");
});

/** A new account, signed in: its id and session cookie. */
async function signUp(name: string, email: string) {
  const { headers, response } = await shop.services.auth.api.signUpEmail({
    body: { name, email, password: "correct horse" },
    returnHeaders: true,
  });
  return { id: response.user.id, cookie: cookieHeader(headers) };
}

afterAll(async () => {
  await shop?.destroy();
});

const call = (
  module: RouteModule,
  kind: "loader" | "action",
  path: string,
  options: Omit<Parameters<typeof callRoute>[3], "context"> = {},
) => callRoute(module, kind, `${ORIGIN}${path}`, { ...options, context: shop.context() });

async function toastOf(response: Response) {
  const cookie = cookieHeader(response.headers);
  const { toast } = await toasts.getToast(new Request(ORIGIN, { headers: { Cookie: cookie } }));
  return toast && { type: toast.type, message: toast.message };
}

const HOME = {
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

describe("account section routes", () => {
  it("send a signed-out visitor to sign in and back", async () => {
    for (const [module, path] of [
      [addresses, "/account/addresses?edit=1"],
      [orders, "/account/orders"],
      [cards, "/account/payment-methods"],
      [settings, "/account/settings"],
    ] as const) {
      const { response } = await call(module, "loader", path);
      expect(response?.status).toBe(302);
      expect(response?.headers.get("Location")).toBe(`/account?redirectTo=${encodeURIComponent(path)}`);
    }
    const { response } = await call(addresses, "action", "/account/addresses", {
      fields: { intent: "delete", addressId: "1" },
    });
    expect(response?.headers.get("Location")).toMatch(/^\/account\?redirectTo=/);
  });

  it("addresses: a refused form keeps its values; a saved one redirects with a toast", async () => {
    const refused = await call(addresses, "action", "/account/addresses", {
      cookie: users.ada.cookie,
      fields: { intent: "create", ...HOME, zipCode: "", city: "Springfield " },
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      intent: "create",
      result: {
        error: { zipCode: ["ZIP / Postal Code is required."] },
        initialValue: { city: "Springfield " },
      },
    });
    // an emptied field comes back empty (Conform leaves empty values out of the echo)
    const echoed = (refused.data as unknown as { result: { initialValue: Record<string, unknown> } }).result
      .initialValue;
    expect(echoed.zipCode ?? "").toBe("");
    const saved = await call(addresses, "action", "/account/addresses", {
      cookie: users.ada.cookie,
      fields: { intent: "create", ...HOME },
    });
    expect(saved.response?.status).toBe(302);
    expect(saved.response?.headers.get("Location")).toBe("/account/addresses");
    expect(await toastOf(saved.response as Response)).toEqual({ type: "success", message: "Address added." });
    const page = await call(addresses, "loader", "/account/addresses", { cookie: users.ada.cookie });
    const list = (page.data as unknown as { addresses: { id: number; isDefault: boolean; city: string }[] })
      .addresses;
    expect(list).toMatchObject([{ isDefault: true, city: "Springfield" }]);
    const id = String(list[0]?.id);

    // Ada can edit it; to Bob it does not exist
    const editing = await call(addresses, "loader", `/account/addresses?edit=${id}`, {
      cookie: users.ada.cookie,
    });
    expect(editing.data).toMatchObject({ editing: { id: Number(id), values: HOME } });
    expect(
      (await call(addresses, "loader", `/account/addresses?edit=${id}`, { cookie: users.bob.cookie })).thrown,
    ).toBe(404);
    expect(
      (await call(addresses, "loader", "/account/addresses?edit=abc", { cookie: users.ada.cookie })).thrown,
    ).toBe(404);
    for (const intent of ["delete", "set-default"]) {
      const attempt = await call(addresses, "action", "/account/addresses", {
        cookie: users.bob.cookie,
        fields: { intent, addressId: id },
      });
      expect(attempt.thrown).toBe(404);
    }
    const update = await call(addresses, "action", `/account/addresses?edit=${id}`, {
      cookie: users.bob.cookie,
      fields: { intent: "update", addressId: id, ...HOME, city: "Elsewhere" },
    });
    expect(update.thrown).toBe(404);
    const still = await db
      .selectFrom("addresses")
      .select(["city", "userId"])
      .where("id", "=", Number(id))
      .executeTakeFirst();
    expect(still).toEqual({ city: "Springfield", userId: users.ada.id });
  });

  it("orders: the list shows only the user's orders; another user's order number is a 404", async () => {
    const adas = await insertOrder(db, { userId: users.ada.id, createdAt: "2026-11-20T10:00:00.000Z" });
    const bobs = await insertOrder(db, { userId: users.bob.id, createdAt: "2026-11-21T10:00:00.000Z" });
    const list = await call(orders, "loader", "/account/orders", { cookie: users.ada.cookie });
    expect((list.data as unknown as { orders: { number: string }[] }).orders.map((o) => o.number)).toEqual([
      adas,
    ]);
    const empty = await call(orders, "loader", "/account/orders?page=2", { cookie: users.ada.cookie });
    expect(empty.thrown).toBe(404);

    const own = await call(order, "loader", `/account/orders/${adas}`, {
      cookie: users.ada.cookie,
      params: { number: adas },
    });
    expect(own.data).toMatchObject({ order: { number: adas, payment: { brand: "Visa", last4: "4242" } } });
    expect(JSON.stringify(own.data)).not.toContain("paymentReference");
    const other = await call(order, "loader", `/account/orders/${bobs}`, {
      cookie: users.ada.cookie,
      params: { number: bobs },
    });
    expect(other.thrown).toBe(404);
  });

  it("payment methods: removing another user's card is a 404", async () => {
    const { id } = await saveCard(db, {
      userId: users.bob.id,
      brand: "Visa",
      last4: "1111",
      expMonth: 12,
      expYear: 2030,
      cardholderName: "Bob Babbage",
      gatewayToken: "tok_bob",
    });
    const none = await call(cards, "loader", "/account/payment-methods", { cookie: users.ada.cookie });
    expect(none.data).toEqual({ cards: [] });
    const stolen = await call(cards, "action", "/account/payment-methods", {
      cookie: users.ada.cookie,
      fields: { intent: "remove", cardId: String(id) },
    });
    expect(stolen.thrown).toBe(404);
    const removed = await call(cards, "action", "/account/payment-methods", {
      cookie: users.bob.cookie,
      fields: { intent: "remove", cardId: String(id) },
    });
    expect(await toastOf(removed.response as Response)).toEqual({
      type: "success",
      message: "Payment method removed.",
    });
  });

  it("settings: a wrong current password is answered beside the field; a new password sets a new session cookie", async () => {
    // an account of its own: changing the password ends its other sessions, which other tests use
    const carol = await signUp("Carol Changes", "carol@example.com");
    const wrong = await call(settings, "action", "/account/settings", {
      cookie: carol.cookie,
      fields: { intent: "email", newEmail: "caroline@example.com", currentPassword: "nope nope" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      form: "email",
      result: {
        error: {
          "": ["Your current password is not correct."],
          currentPassword: ["Your current password is not correct."],
        },
        initialValue: { newEmail: "caroline@example.com" },
      },
    });
    expect(JSON.stringify(wrong.data)).not.toContain("nope nope");

    const changed = await call(settings, "action", "/account/settings", {
      cookie: carol.cookie,
      fields: {
        intent: "password",
        currentPassword: "correct horse",
        newPassword: "a whole new horse",
        confirmPassword: "a whole new horse",
      },
    });
    const response = changed.response as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/account/settings");
    const setCookies = response.headers.getSetCookie().join("\n");
    expect(setCookies).toContain("cw.session_token=");
    expect(setCookies).toContain("cw_toast=");
    // the old cookie no longer signs in; the new one does
    expect(
      (await call(settings, "loader", "/account/settings", { cookie: carol.cookie })).response?.status,
    ).toBe(302);
    const fresh = cookieHeader(response.headers);
    expect((await call(settings, "loader", "/account/settings", { cookie: fresh })).data).toMatchObject({
      email: "carol@example.com",
    });
  });

  it("settings: a form refused by its own rules is 400 beside its fields; too many password checks are 429", async () => {
    const invalid = await call(settings, "action", "/account/settings", {
      cookie: users.ada.cookie,
      fields: { intent: "password", currentPassword: "", newPassword: "short", confirmPassword: "shorter" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.data).toMatchObject({
      form: "password",
      result: {
        error: {
          "": ["Please correct the highlighted fields."],
          currentPassword: ["Enter your current password."],
          newPassword: ["Password must be at least 8 characters."],
        },
      },
    });
    expect(JSON.stringify(invalid.data)).not.toContain("shorter");
    for (let i = 0; i < PASSWORD_CHECK_LIMIT.limit; i++) {
      await hitRateLimit(db, `password-check:${users.ada.id}`, PASSWORD_CHECK_LIMIT);
    }
    const limited = await call(settings, "action", "/account/settings", {
      cookie: users.ada.cookie,
      fields: {
        intent: "password",
        currentPassword: "correct horse",
        newPassword: "a whole new horse",
        confirmPassword: "a whole new horse",
      },
    });
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({
      form: "password",
      result: {
        error: { currentPassword: ["Too many wrong passwords. Please wait 15 minutes and try again."] },
      },
    });
  });
});
