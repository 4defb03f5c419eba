import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../../app/adapters/auth/auth.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

/** `npm run cli -- user:create`: creates, promotes, demotes; refuses bad input. */
describe.each(ENGINES)("createOrUpdateUser on %s", (engine) => {
  let test: TestDatabase;
  let auth: Auth;
  beforeAll(async () => {
    test = await createTestDatabase(engine);
    auth = createAuth({
      db: test.db,
      secret: "users-test-secret-0123456789abcdefghijklmnop",
      baseURL: "http://shop.test",
      shopName: "Test",
      sendResetPassword: async () => {},
    });
  });
  afterAll(async () => {
    await test?.destroy();
  });

  const roleOf = async (email: string) =>
    (await test.db.selectFrom("users").select("role").where("email", "=", email).executeTakeFirst())?.role;
  const canSignIn = (email: string, password: string) =>
    auth.api.signInEmail({ body: { email, password } }).then(
      () => true,
      () => false,
    );

  it("creates an admin who can sign in", async () => {
    const result = await createOrUpdateUser(
      { auth, db: test.db },
      {
        email: " Boss@Example.com ",
        password: "long enough pw",
        role: "admin",
      },
    );
    expect(result).toMatchObject({
      ok: true,
      value: { created: true, email: "boss@example.com", role: "admin" },
    });
    expect(await roleOf("boss@example.com")).toBe("admin");
    expect(await canSignIn("boss@example.com", "long enough pw")).toBe(true);
  });

  it("updates an existing user's role and password", async () => {
    const result = await createOrUpdateUser(
      { auth, db: test.db },
      {
        email: "boss@example.com",
        password: "a different pw",
        role: "customer",
      },
    );
    expect(result).toMatchObject({ ok: true, value: { created: false, role: "customer" } });
    expect(await roleOf("boss@example.com")).toBe("customer");
    expect(await canSignIn("boss@example.com", "long enough pw")).toBe(false);
    expect(await canSignIn("boss@example.com", "a different pw")).toBe(true);
  });

  it("refuses a bad e-mail, a short password and an unknown role, naming each", async () => {
    const result = await createOrUpdateUser(
      { auth, db: test.db },
      {
        email: "nope",
        password: "short",
        role: "root" as "admin",
      },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.problems).toEqual([
      "email: not a valid e-mail address",
      "password: must be at least 8 characters",
      "role: must be one of customer, owner, admin, staff",
    ]);
  });
});
