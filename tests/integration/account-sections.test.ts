import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../../app/adapters/auth/auth.server.ts";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import { getUserOrder, listOrdersPage } from "../../app/domain/accounts/account-orders.server.ts";
import {
  changeEmail,
  changeName,
  changePassword,
  emailChangeSchema,
  nameSchema,
  PASSWORD_CHECK_LIMIT,
  passwordChangeSchema,
  SETTINGS_MESSAGES,
  settingsFormSchema,
} from "../../app/domain/accounts/account-settings.server.ts";
import {
  ADDRESS_FIELDS,
  type AddressDetails,
  addAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  setDefaultAddress,
  updateAddress,
} from "../../app/domain/accounts/addresses.server.ts";
import {
  listSavedCards,
  removeSavedCard,
  saveCard,
} from "../../app/domain/accounts/payment-methods.server.ts";
import { addressSchema } from "../../app/domain/checkout/address-schema.server.ts";
import { hitRateLimit } from "../../app/infra/rate-limit.server.ts";
import { checkForm } from "../../app/lib/form-errors.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};
/** The browser's auth session, as the settings route passes it on. */
const authSession = (cookie: string) => authSessionFromHeaders(new Headers({ Cookie: cookie }));
const cookieLines = (setCookies: string[]) =>
  setCookies.map((line) => line.slice(0, line.indexOf(";"))).join("; ");
/** The settings forms, read as POST /account/settings reads them (Conform + the form's schema). */
const settingsForm = (fields: Record<string, string>) =>
  parseWithZod(form(fields), { schema: settingsFormSchema });
const nameForm = (fields: Record<string, string>) =>
  parseWithZod(form({ intent: "name", ...fields }), { schema: nameSchema });
const emailForm = (fields: Record<string, string>) =>
  parseWithZod(form({ intent: "email", ...fields }), { schema: emailChangeSchema });
const passwordForm = (fields: Record<string, string>) =>
  parseWithZod(form({ intent: "password", ...fields }), { schema: passwordChangeSchema });
function accepted<T>(submission: { status?: string; value?: T }): T {
  if (submission.status !== "success" || submission.value === undefined) throw new Error("form refused");
  return submission.value;
}

const HOME: AddressDetails = {
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};
const WORK: AddressDetails = {
  ...HOME,
  address: "2 Engine Street",
  city: "London",
  zipCode: "EC1A 1BB",
  country: "UK",
};
const CABIN: AddressDetails = {
  ...HOME,
  address: "3 Lake Road",
  city: "Toronto",
  zipCode: "M5V 2T6",
  country: "CA",
};

describe.each(ENGINES)("account sections on %s", (engine) => {
  let test: TestDatabase;
  let auth: Auth;
  const users: Record<"ada" | "bob" | "cy", { id: string; email: string; cookie: string }> = {} as never;

  async function signUp(name: string, email: string, password: string) {
    const { headers, response } = await auth.api.signUpEmail({
      body: { name, email, password },
      returnHeaders: true,
    });
    return { id: response.user.id, email, cookie: cookieHeader(headers) };
  }
  async function signIn(email: string, password: string) {
    const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    return cookieHeader(headers);
  }
  const session = (cookie: string) => auth.api.getSession({ headers: new Headers({ Cookie: cookie }) });

  beforeAll(async () => {
    test = await createTestDatabase(engine);
    auth = createAuth({
      db: test.db,
      secret: "account-sections-test-secret-0123456789abcdef",
      baseURL: "http://shop.test",
      shopName: "Test",
      sendResetPassword: async () => {},
      sendEmailChangeLink: () => {},
    });
    users.ada = await signUp("Ada Lovelace", "ada@example.com", "correct horse");
    users.bob = await signUp("Bob Babbage", "bob@example.com", "difference engine");
    users.cy = await signUp("Cy Clone", "cy@example.com", "another password");
  });
  afterAll(async () => {
    await test?.destroy();
  });

  describe("addresses", () => {
    it("validates with checkout's rules, without the e-mail", () => {
      const validateAddress = (input: Record<string, unknown>) =>
        checkForm(addressSchema, ADDRESS_FIELDS, input);
      expect(validateAddress({ ...HOME, email: "" })).toEqual({ ok: true, value: HOME });
      const refused = validateAddress({ ...HOME, firstName: " ", zipCode: "!", country: "XX" });
      expect(refused).toEqual({
        ok: false,
        error: {
          code: "invalid",
          missing: ["firstName"],
          fieldErrors: {
            firstName: "First Name is required.",
            zipCode: "Enter a valid ZIP or postal code.",
            country: "Choose a country from the list.",
          },
        },
      });
    });

    it("the first address becomes the default, later ones do not", async () => {
      const home = await addAddress(test.db, users.ada.id, HOME);
      const work = await addAddress(test.db, users.ada.id, WORK);
      const list = await listAddresses(test.db, users.ada.id);
      expect(list.map((a) => [a.id, a.city, Number(a.isDefault)])).toEqual([
        [home, "Springfield", 1],
        [work, "London", 0],
      ]);
      // Bob's first address is his default, whatever Ada has
      const bobs = await addAddress(test.db, users.bob.id, CABIN);
      expect(Number((await getAddress(test.db, users.bob.id, bobs))?.isDefault)).toBe(1);
    });

    it("edits an address and moves the default (exactly one default)", async () => {
      const [home, work] = await listAddresses(test.db, users.ada.id);
      if (!home || !work) throw new Error("addresses missing");
      expect(
        await updateAddress(test.db, users.ada.id, work.id, { ...WORK, phone: "+44 20 7946 0000" }),
      ).toBe(true);
      expect((await getAddress(test.db, users.ada.id, work.id))?.phone).toBe("+44 20 7946 0000");
      expect(await setDefaultAddress(test.db, users.ada.id, work.id)).toBe(true);
      const list = await listAddresses(test.db, users.ada.id);
      expect(list.map((a) => [a.id, Number(a.isDefault)])).toEqual([
        [work.id, 1],
        [home.id, 0],
      ]);
    });

    it("deleting the default makes the next address the default", async () => {
      const cabin = await addAddress(test.db, users.ada.id, CABIN);
      const [work, home] = await listAddresses(test.db, users.ada.id);
      if (!work || !home) throw new Error("addresses missing");
      expect(Number(work.isDefault)).toBe(1);
      expect(await deleteAddress(test.db, users.ada.id, work.id)).toBe(true);
      const list = await listAddresses(test.db, users.ada.id);
      expect(list.map((a) => [a.id, Number(a.isDefault)])).toEqual([
        [home.id, 1],
        [cabin, 0],
      ]);
      // deleting a non-default address leaves the default alone
      expect(await deleteAddress(test.db, users.ada.id, cabin)).toBe(true);
      expect((await listAddresses(test.db, users.ada.id)).map((a) => [a.id, Number(a.isDefault)])).toEqual([
        [home.id, 1],
      ]);
    });

    it("another user's address cannot be read, edited, deleted or made default", async () => {
      const [adas] = await listAddresses(test.db, users.ada.id);
      if (!adas) throw new Error("address missing");
      expect(await getAddress(test.db, users.bob.id, adas.id)).toBeNull();
      expect(await updateAddress(test.db, users.bob.id, adas.id, CABIN)).toBe(false);
      expect(await setDefaultAddress(test.db, users.bob.id, adas.id)).toBe(false);
      expect(await deleteAddress(test.db, users.bob.id, adas.id)).toBe(false);
      expect(await getAddress(test.db, users.ada.id, adas.id)).toMatchObject({ ...HOME, isDefault: 1 });
      // Bob's own default is untouched by his failed attempt on Ada's address
      const bobs = await listAddresses(test.db, users.bob.id);
      expect(bobs.map((a) => Number(a.isDefault))).toEqual([1]);
      expect(await getAddress(test.db, users.ada.id, 999_999)).toBeNull();
    });
  });

  describe("saved cards", () => {
    const visa = (overrides: Partial<Parameters<typeof saveCard>[1]> = {}) => ({
      userId: users.ada.id,
      brand: "Visa",
      last4: "4242",
      expMonth: 4,
      expYear: 2031,
      cardholderName: "Ada Lovelace",
      gatewayToken: "tok_visa_1",
      ...overrides,
    });

    it("saves a card once: the same brand, last 4 and expiry is skipped", async () => {
      const first = await saveCard(test.db, visa());
      expect(first.created).toBe(true);
      const again = await saveCard(
        test.db,
        visa({ gatewayToken: "tok_visa_2", cardholderName: "A. Lovelace" }),
      );
      expect(again).toEqual({ id: first.id, created: false });
      const renewed = await saveCard(test.db, visa({ expYear: 2032, gatewayToken: "tok_visa_3" }));
      expect(renewed.created).toBe(true);
      const expired = await saveCard(
        test.db,
        visa({ brand: "Mastercard", last4: "4444", expMonth: 1, expYear: 2020 }),
      );
      expect(expired.created).toBe(true);
      // the same card for another user is that user's own
      expect((await saveCard(test.db, visa({ userId: users.bob.id }))).created).toBe(true);
      const cards = await listSavedCards(test.db, users.ada.id, new Date("2026-11-22T12:00:00Z"));
      expect(cards).toEqual([
        {
          id: expired.id,
          brand: "Mastercard",
          last4: "4444",
          expiry: "01/20",
          cardholderName: "Ada Lovelace",
          expired: true,
        },
        {
          id: renewed.id,
          brand: "Visa",
          last4: "4242",
          expiry: "04/32",
          cardholderName: "Ada Lovelace",
          expired: false,
        },
        {
          id: first.id,
          brand: "Visa",
          last4: "4242",
          expiry: "04/31",
          cardholderName: "Ada Lovelace",
          expired: false,
        },
      ]);
      expect(JSON.stringify(cards)).not.toContain("tok_");
    });

    it("refuses card data that is not brand + last 4 + expiry", async () => {
      await expect(saveCard(test.db, visa({ last4: "4242424242424242" }))).rejects.toThrow(/last4/);
      await expect(saveCard(test.db, visa({ expMonth: 13 }))).rejects.toThrow(/expMonth/);
    });

    it("removes only the user's own cards", async () => {
      const [adas] = await listSavedCards(test.db, users.ada.id);
      if (!adas) throw new Error("card missing");
      expect(await removeSavedCard(test.db, users.bob.id, adas.id)).toEqual({
        ok: false,
        error: { code: "not-found" },
      });
      expect(await listSavedCards(test.db, users.ada.id)).toHaveLength(3);
      expect(await removeSavedCard(test.db, users.ada.id, adas.id)).toEqual({ ok: true, value: null });
      expect(await removeSavedCard(test.db, users.ada.id, adas.id)).toEqual({
        ok: false,
        error: { code: "not-found" },
      });
      expect(await listSavedCards(test.db, users.ada.id)).toHaveLength(2);
      expect(await listSavedCards(test.db, users.bob.id)).toHaveLength(1);
    });
  });

  describe("orders", () => {
    it("lists only the user's orders, newest first, with item counts", async () => {
      const older = await insertOrder(test.db, {
        userId: users.ada.id,
        createdAt: "2026-11-01T10:00:00.000Z",
      });
      const newer = await insertOrder(test.db, {
        userId: users.ada.id,
        createdAt: "2026-11-10T10:00:00.000Z",
        status: "shipped",
        items: [{ name: "Speaker", quantity: 3, unitPriceCents: 2_000 }],
      });
      const bobs = await insertOrder(test.db, {
        userId: users.bob.id,
        createdAt: "2026-11-15T10:00:00.000Z",
      });
      await insertOrder(test.db, { userId: null, createdAt: "2026-11-16T10:00:00.000Z" });

      const page = await listOrdersPage(test.db, users.ada.id);
      expect(page).toEqual({
        page: 1,
        hasMore: false,
        orders: [
          {
            number: newer,
            status: "shipped",
            createdAt: "2026-11-10T10:00:00.000Z",
            itemCount: 3,
            totalCents: 6_000,
            currency: "USD",
          },
          {
            number: older,
            status: "paid",
            createdAt: "2026-11-01T10:00:00.000Z",
            itemCount: 3,
            totalCents: 3_800,
            currency: "USD",
          },
        ],
      });
      const first = await listOrdersPage(test.db, users.ada.id, 1, 1);
      expect([first.orders.map((o) => o.number), first.hasMore]).toEqual([[newer], true]);
      const second = await listOrdersPage(test.db, users.ada.id, 2, 1);
      expect([second.orders.map((o) => o.number), second.hasMore]).toEqual([[older], false]);
      expect((await listOrdersPage(test.db, users.cy.id)).orders).toEqual([]);

      const detail = await getUserOrder(test.db, users.ada.id, older);
      expect(detail?.items.map((i) => [i.name, i.quantity, i.unitPriceCents, i.lineTotalCents])).toEqual([
        ["Desk Lamp", 2, 1_500, 3_000],
        ["Mug", 1, 800, 800],
      ]);
      expect(detail?.payment).toEqual({ brand: "Visa", last4: "4242" });
      expect(await getUserOrder(test.db, users.ada.id, bobs)).toBeNull();
      expect(await getUserOrder(test.db, users.ada.id, "CW-NOPE")).toBeNull();
    });
  });

  describe("settings", () => {
    it("changes the name; an empty one is refused", async () => {
      // the form's own rule (POST /account/settings answers it with 400 beside the field)
      const refused = settingsForm({ intent: "name", name: "   " });
      expect(refused.status).toBe("error");
      expect(refused.reply().error).toMatchObject({ name: ["Enter your name."] });
      await changeName(
        { auth },
        authSession(users.ada.cookie),
        accepted(nameForm({ name: "  Ada   King " })),
      );
      expect((await session(users.ada.cookie))?.user.name).toBe("Ada King");
    });

    it("asks to change the e-mail only with the right password; a taken and a free address get the same answer", async () => {
      const deps = { auth, db: test.db };
      const ada = { id: users.ada.id, email: users.ada.email };
      const ask = (fields: Record<string, string>) =>
        changeEmail(deps, authSession(users.ada.cookie), ada, accepted(emailForm(fields)));
      const wrong = await ask({ newEmail: "ada@new.example", currentPassword: "wrong horse" });
      // POST /account/settings answers it with 400 (tests/integration/account-routes.test.ts)
      expect(wrong).toMatchObject({
        ok: false,
        error: { field: "currentPassword", message: SETTINGS_MESSAGES.currentPasswordWrong },
      });
      const same = await ask({ newEmail: "Ada@Example.com", currentPassword: "correct horse" });
      expect(same).toMatchObject({
        ok: false,
        error: { field: "newEmail", message: SETTINGS_MESSAGES.emailSame },
      });
      const invalid = emailForm({ newEmail: "not-an-email", currentPassword: "" });
      expect(invalid.status).toBe("error");
      expect(invalid.reply().error).toMatchObject({
        newEmail: [SETTINGS_MESSAGES.emailInvalid],
        currentPassword: [SETTINGS_MESSAGES.currentPasswordRequired],
      });
      const taken = await ask({ newEmail: "BOB@example.com", currentPassword: "correct horse" });
      const free = await ask({ newEmail: " Ada@New.Example ", currentPassword: "correct horse" });
      expect(taken).toEqual({ ok: true, value: { pendingEmail: "bob@example.com" } });
      expect(free).toEqual({ ok: true, value: { pendingEmail: "ada@new.example" } });
      // nothing changes until the link is opened (tests/integration/email-change-routes.test.ts)
      const email = await test.db
        .selectFrom("users")
        .select("email")
        .where("id", "=", users.ada.id)
        .executeTakeFirstOrThrow();
      expect(email.email).toBe("ada@example.com");
      expect((await session(users.ada.cookie))?.user.email).toBe("ada@example.com");
    });

    it("changes the password: wrong current refused, mismatch refused, other sessions ended", async () => {
      const deps = { auth, db: test.db };
      const elsewhere = await signIn("ada@example.com", "correct horse");
      expect(await session(elsewhere)).not.toBeNull();
      const change = (fields: Record<string, string>) =>
        changePassword(deps, authSession(users.ada.cookie), users.ada.id, accepted(passwordForm(fields)));

      const wrong = await change({
        currentPassword: "wrong horse",
        newPassword: "a brand new one",
        confirmPassword: "a brand new one",
      });
      // POST /account/settings answers it with 400, the message above the form and beside the field
      expect(wrong).toMatchObject({
        ok: false,
        error: {
          code: "wrong-password",
          field: "currentPassword",
          message: SETTINGS_MESSAGES.currentPasswordWrong,
        },
      });
      // the form's own rules (400 beside the fields)
      const mismatch = passwordForm({
        currentPassword: "correct horse",
        newPassword: "a brand new one",
        confirmPassword: "a brand new two",
      });
      expect(mismatch.reply().error).toMatchObject({ confirmPassword: [SETTINGS_MESSAGES.passwordMismatch] });
      const short = passwordForm({
        currentPassword: "correct horse",
        newPassword: "short",
        confirmPassword: "short",
      });
      expect(short.reply().error).toMatchObject({ newPassword: [SETTINGS_MESSAGES.passwordTooShort] });
      const long = "x".repeat(129);
      const tooLong = passwordForm({
        currentPassword: "correct horse",
        newPassword: long,
        confirmPassword: long,
      });
      expect(tooLong.reply().error).toMatchObject({ newPassword: [SETTINGS_MESSAGES.passwordTooLong] });
      // nothing changed so far
      expect(await session(elsewhere)).not.toBeNull();

      const ok = await change({
        currentPassword: "correct horse",
        newPassword: "a brand new one",
        confirmPassword: "a brand new one",
      });
      expect(ok.ok).toBe(true);
      if (!ok.ok) return;
      // every earlier session is over; the returned cookie is this browser's new session
      expect(await session(elsewhere)).toBeNull();
      expect(await session(users.ada.cookie)).toBeNull();
      const fresh = cookieLines(ok.value.sessionCookies);
      expect((await session(fresh))?.user.id).toBe(users.ada.id);
      users.ada.cookie = fresh;
      await expect(signIn("ada@example.com", "correct horse")).rejects.toThrow();
      expect(await signIn("ada@example.com", "a brand new one")).toContain("session_token");
    });

    it("stops checking the current password after too many attempts", async () => {
      for (let i = 0; i < PASSWORD_CHECK_LIMIT.limit; i++) {
        await hitRateLimit(test.db, `password-check:${users.cy.id}`, PASSWORD_CHECK_LIMIT);
      }
      const limited = await changePassword(
        { auth, db: test.db },
        authSession(users.cy.cookie),
        users.cy.id,
        accepted(
          passwordForm({
            currentPassword: "another password",
            newPassword: "yet another one",
            confirmPassword: "yet another one",
          }),
        ),
      );
      // POST /account/settings answers it with 429 (tests/integration/account-routes.test.ts)
      expect(limited).toMatchObject({
        ok: false,
        error: {
          code: "too-many-attempts",
          message: "Too many wrong passwords. Please wait 15 minutes and try again.",
        },
      });
      expect(await signIn("cy@example.com", "another password")).toContain("session_token");
    });
  });
});
