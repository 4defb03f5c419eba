import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import * as account from "../../app/routes/account.tsx";
import * as staffRoute from "../../app/routes/admin.staff.tsx";
import * as resetPasswordRoute from "../../app/routes/reset-password.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute, Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Staff and roles in the UI (issue 20): the owner invites by e-mail (a link to set a password),
 * changes roles and removes staff, through the /admin/staff route on each engine; the invitee sets
 * a password through the link and signs in to the role; the last owner and one's own role are
 * guarded; every change is audited.
 */
describe.each(ENGINES)("staff and roles on %s", (engine) => {
  let shop: TestShop;
  let ownerCookie = "";
  let ownerId = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    const created = await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "owner@staff.example", password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("owner not created");
    ownerId = created.value.userId;
    const { headers } = await auth.api.signInEmail({
      body: { email: "owner@staff.example", password: "correct horse" },
      returnHeaders: true,
    });
    ownerCookie = cookieHeader(headers);
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (fields: Record<string, string>, cookie = ownerCookie) =>
    callRoute(staffRoute, "action", `${TEST_ORIGIN}/admin/staff`, {
      cookie,
      fields,
      context: shop.context(),
    });
  /** the status of what postForm answered: a Response's, or data's with its init */
  const statusOf = (answer: unknown) =>
    answer instanceof Response
      ? answer.status
      : ((answer as { init?: { status?: number } }).init?.status ?? 200);
  const roleOf = async (email: string) =>
    (await shop.db.selectFrom("users").select("role").where("email", "=", email).executeTakeFirst())?.role;
  const staffList = async () => {
    const answer = await callRoute(staffRoute, "loader", `${TEST_ORIGIN}/admin/staff`, {
      cookie: ownerCookie,
      context: shop.context(),
    });
    return (
      answer.data as unknown as { staff: { email: string; role: string; invited: boolean }[] }
    ).staff.map(({ email, role, invited }) => ({ email, role, invited }));
  };

  it("invites a new address: the e-mailed link sets a password, and the first sign-in takes the role up", async () => {
    const email = `packer-${engine}@staff.example`;
    const invited = await post({ intent: "invite", email: email.toUpperCase(), role: "staff" });
    expect(invited.response?.status).toBe(302);
    expect(await roleOf(email)).toBe("staff");
    expect(await staffList()).toContainEqual({ email, role: "staff", invited: true });

    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("You have been invited to Cartwheel's back office");
    const token = /reset-password\?token=([\w-]+)/.exec(mail[0]!.text)?.[1];
    expect(token).toBeTruthy();

    // nobody can sign in with the account before the link is used
    const early = await postForm(
      account,
      `${TEST_ORIGIN}/account`,
      { intent: "sign-in", email, password: "a new password 1" },
      new Jar(),
      shop.context(),
    );
    expect(statusOf(early)).toBe(401);

    const set = await postForm(
      resetPasswordRoute,
      `${TEST_ORIGIN}/reset-password`,
      { token: token!, password: "a new password 1", confirmPassword: "a new password 1" },
      new Jar(),
      shop.context(),
    );
    expect(statusOf(set)).toBe(302);
    const jar = new Jar();
    const signedIn = await postForm(
      account,
      `${TEST_ORIGIN}/account`,
      { intent: "sign-in", email, password: "a new password 1" },
      jar,
      shop.context(),
    );
    expect(statusOf(signedIn)).toBe(302);
    expect(await staffList()).toContainEqual({ email, role: "staff", invited: false });

    // the new member reaches orders and is refused the staff page
    const staffPage = await callRoute(staffRoute, "loader", `${TEST_ORIGIN}/admin/staff`, {
      cookie: jar.header(),
      context: shop.context(),
    });
    expect(staffPage.thrown).toBe(403);

    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail", "summary"])
      .where("action", "=", "staff.invite")
      .execute();
    expect(audit).toContainEqual({
      action: "staff.invite",
      actorEmail: "owner@staff.example",
      summary: `${email} invited as Staff`,
    });
  });

  it("a customer's account gets the role without a new password; inviting staff again is refused beside the field", async () => {
    const email = `shopper-${engine}@staff.example`;
    await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "correct horse", role: "customer" },
    );
    expect((await post({ intent: "invite", email, role: "admin" })).response?.status).toBe(302);
    expect(await roleOf(email)).toBe("admin");
    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(email));
    expect(mail.at(-1)!.text).not.toContain("reset-password");

    const again = await post({ intent: "invite", email, role: "staff" });
    expect(again.status).toBe(409);
    expect(
      (again.data as unknown as { result: { error: Record<string, string[]> } }).result.error.email,
    ).toEqual(["This person is on the staff already; change their role in the list."]);
    expect(await roleOf(email)).toBe("admin");

    const bad = await post({ intent: "invite", email: "not an address", role: "staff" });
    expect(bad.status).toBe(400);
    expect(
      (bad.data as unknown as { result: { error: Record<string, string[]> } }).result.error.email,
    ).toEqual(["Enter a valid e-mail address."]);
    expect((await post({ intent: "invite", email: "x@staff.example", role: "emperor" })).status).toBe(400);
  });

  it("changes a role and removes a member (signed out, a customer again); never one's own role, never the last owner", async () => {
    const email = `clerk-${engine}@staff.example`;
    const created = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "correct horse", role: "staff" },
    );
    if (!created.ok) throw new Error("not created");
    const userId = created.value.userId;
    const { headers } = await shop.services.auth.api.signInEmail({
      body: { email, password: "correct horse" },
      returnHeaders: true,
    });
    expect(cookieHeader(headers)).not.toBe("");

    expect((await post({ intent: "role", userId, role: "owner" })).response?.status).toBe(302);
    expect(await roleOf(email)).toBe("owner");

    // now two owners: the first may be demoted by the second, but nobody changes their own role
    const self = await post({ intent: "role", userId: ownerId, role: "staff" });
    expect(self.status).toBe(409);
    expect(await roleOf("owner@staff.example")).toBe("owner");

    expect((await post({ intent: "role", userId, role: "staff" })).response?.status).toBe(302);

    // removing asks first
    const unconfirmed = await post({ intent: "remove", userId });
    expect(unconfirmed.status).toBe(400);
    expect(await roleOf(email)).toBe("staff");
    expect((await post({ intent: "remove", userId, confirm: "yes" })).response?.status).toBe(302);
    expect(await roleOf(email)).toBe("customer");
    const sessions = await shop.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute();
    expect(sessions).toEqual([]);
    expect((await post({ intent: "remove", userId, confirm: "yes" })).status).toBe(404);

    const actions = await shop.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityId", "=", userId)
      .orderBy("id")
      .execute();
    expect(actions).toEqual([
      { action: "staff.role", summary: `${email}: Staff → Owner` },
      { action: "staff.role", summary: `${email}: Owner → Staff` },
      { action: "staff.remove", summary: `${email} removed from the staff (was Staff)` },
    ]);
  });

  it("the last owner stays one: two owners demoting each other at once leave one owner", async () => {
    const email = `second-${engine}@staff.example`;
    const created = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("not created");
    const { headers } = await shop.services.auth.api.signInEmail({
      body: { email, password: "correct horse" },
      returnHeaders: true,
    });
    const second = cookieHeader(headers);
    const [a, b] = await Promise.all([
      post({ intent: "role", userId: created.value.userId, role: "admin" }),
      post({ intent: "role", userId: ownerId, role: "admin" }, second),
    ]);
    // one demotion goes through; the other finds itself refused: the shop would have no owner (409),
    // or its sender is no longer an owner (403) when the other committed first
    const statuses = [a, b].map((r) => r.response?.status ?? r.status ?? r.thrown);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409 || s === 403)).toHaveLength(1);
    const owners = await shop.db.selectFrom("users").select("email").where("role", "=", "owner").execute();
    expect(owners).toHaveLength(1);
    // put back: the first owner owns the shop for the other tests
    await shop.db.updateTable("users").set({ role: "owner" }).where("id", "=", ownerId).execute();
  });
});
