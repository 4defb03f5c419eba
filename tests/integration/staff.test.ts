import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as staffInvitationsMigration from "../../app/db/migrations/2026-11-27T2300-staff-invitations.ts";
import {
  cancelStaffInvitation,
  inviteStaff,
  type StaffActor,
  setStaffRole,
} from "../../app/domain/accounts/staff.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { getToast } from "../../app/http/toast.server.ts";
import * as account from "../../app/routes/account.tsx";
import * as staffRoute from "../../app/routes/admin.staff.tsx";
import * as adminFrame from "../../app/routes/admin.tsx";
import * as joinRoute from "../../app/routes/staff.join.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader, insertUser } from "../helpers/account-fixtures.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute, Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const INVALID_LINK =
  "This invitation link does not work: it was cancelled, replaced by a newer invitation, already used, or it has expired. Ask the shop owner to invite you again.";

/**
 * Staff and roles in the UI (issue 20, decision 024): the owner invites by e-mail, and nothing
 * changes on any account until the invitee opens the e-mailed /staff/join link and chooses a
 * password — which proves the address is theirs, replaces the password of an account someone
 * registered with it first and ends that account's sessions. Removing, changing a role or
 * cancelling voids an open invitation; a newer one replaces it; an expired one refuses. The owner
 * changes roles and removes staff; the last owner and one's own role are guarded; only a role with
 * the staff permission may do any of it (in the domain command itself); every change is audited.
 */
describe.each(ENGINES)("staff and roles on %s", (engine) => {
  let shop: TestShop;
  let ownerCookie = "";
  let ownerId = "";
  let owner: StaffActor;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    const created = await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "owner@staff.example", password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("owner not created");
    ownerId = created.value.userId;
    owner = { id: ownerId, email: "owner@staff.example", role: "owner" };
    ownerCookie = await signInCookie("owner@staff.example", "correct horse");
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  async function signInCookie(email: string, password: string) {
    const { headers } = await shop.services.auth.api.signInEmail({
      body: { email, password },
      returnHeaders: true,
    });
    return cookieHeader(headers);
  }
  /** whether Better Auth accepts this password for this address */
  const passwordWorks = (email: string, password: string) =>
    shop.services.auth.api.signInEmail({ body: { email, password } }).then(
      () => true,
      () => false,
    );
  /** the account a session cookie authenticates now (null: none) */
  const sessionOf = async (cookie: string) =>
    (await shop.services.auth.api.getSession({ headers: new Headers({ Cookie: cookie }) }))?.user ?? null;
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
  const staffPage = async () => {
    const answer = await callRoute(staffRoute, "loader", `${TEST_ORIGIN}/admin/staff`, {
      cookie: ownerCookie,
      context: shop.context(),
    });
    return answer.data as unknown as {
      staff: { email: string; role: string }[];
      invitations: { id: number; email: string; role: string; expired: boolean }[];
    };
  };
  const staffList = async () => (await staffPage()).staff.map(({ email, role }) => ({ email, role }));
  const invitationOf = async (email: string) =>
    (await staffPage()).invitations.find((invitation) => invitation.email === email);
  /** the toast a response carries to the next page */
  const toastOf = async (response: Response | undefined) =>
    (await getToast(new Request(TEST_ORIGIN, { headers: { Cookie: cookieHeader(response!.headers) } }))).toast
      ?.message;
  /** the /staff/join link's token in the newest invitation e-mailed to this address */
  const invitationToken = async (email: string) => {
    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(email)).at(-1);
    const token = mail ? /\/staff\/join\?token=([\w-]+)/.exec(mail.text)?.[1] : undefined;
    expect(token, `an invitation link in the e-mail to ${email}`).toBeTruthy();
    return token!;
  };
  const openJoinPage = async (token: string) => {
    const answer = await callRoute(
      joinRoute,
      "loader",
      `${TEST_ORIGIN}/staff/join?token=${encodeURIComponent(token)}`,
      { context: shop.context() },
    );
    return answer.data as unknown as {
      shopName: string;
      invitation: { email: string; role: string } | null;
    };
  };
  const join = (token: string, password: string, confirmPassword = password) =>
    callRoute(joinRoute, "action", `${TEST_ORIGIN}/staff/join?token=${encodeURIComponent(token)}`, {
      fields: { token, password, confirmPassword },
      context: shop.context(),
    });
  /** a refused join: the page says the link does not work, and shows no form */
  const expectRefusedJoin = (answer: Awaited<ReturnType<typeof join>>) => {
    expect(answer.status).toBe(400);
    const refused = answer.data as unknown as {
      invalidLink: boolean;
      result: { error: Record<string, string[]> };
    };
    expect(refused.invalidLink).toBe(true);
    expect(refused.result.error[""]).toEqual([INVALID_LINK]);
  };

  it("invites a new address: no account until the link is used; the link creates it with the role, and the member signs in to it", async () => {
    const email = `packer-${engine}@staff.example`;
    const invited = await post({ intent: "invite", email: email.toUpperCase(), role: "staff" });
    expect(invited.response?.status).toBe(302);
    expect(await toastOf(invited.response)).toBe(`Invitation sent to ${email}`);
    expect(await roleOf(email)).toBeUndefined();
    expect(await staffList()).not.toContainEqual(expect.objectContaining({ email }));
    expect(await invitationOf(email)).toMatchObject({ email, role: "staff", expired: false });

    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("You have been invited to Cartwheel's back office");
    expect(mail[0]!.text).not.toMatch(/is now on the staff|has added you/);
    const token = await invitationToken(email);
    // only the token's hash is stored
    const stored = await shop.db
      .selectFrom("staffInvitations")
      .select("tokenHash")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(stored.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));

    const page = await openJoinPage(token);
    expect(page.shopName).toBe("Cartwheel");
    expect(page.invitation).toEqual({ email, role: "Staff", expiresAt: expect.any(String) });

    // the passwords as /reset-password checks them; nothing happens on a refusal
    const mismatch = await join(token, "a new password 1", "a new password 2");
    expect(mismatch.status).toBe(400);
    expect(
      (mismatch.data as unknown as { result: { error: Record<string, string[]> } }).result.error
        .confirmPassword,
    ).toEqual(["The two passwords do not match."]);
    expect(await roleOf(email)).toBeUndefined();

    const joined = await join(token, "a new password 1");
    expect(joined.response?.status).toBe(302);
    expect(joined.response?.headers.get("Location")).toBe("/account?redirectTo=%2Fadmin");
    expect(await toastOf(joined.response)).toBe(
      "You have joined the staff. Please sign in with your new password.",
    );
    expect(await roleOf(email)).toBe("staff");
    expect(await staffList()).toContainEqual({ email, role: "staff" });
    expect(await invitationOf(email)).toBeUndefined();
    const userId = (
      await shop.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    ).id;
    // the session signing up opened is nobody's
    expect(await shop.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute()).toEqual(
      [],
    );

    // the link works once
    expectRefusedJoin(await join(token, "another password 2"));
    expect(await passwordWorks(email, "another password 2")).toBe(false);

    const jar = new Jar();
    const signedIn = await postForm(
      account,
      `${TEST_ORIGIN}/account`,
      { intent: "sign-in", email, password: "a new password 1" },
      jar,
      shop.context(),
    );
    expect(statusOf(signedIn)).toBe(302);

    // the new member reaches the back office and is refused the staff page
    const frame = await callRoute(adminFrame, "loader", `${TEST_ORIGIN}/admin`, {
      cookie: jar.header(),
      context: shop.context(),
    });
    expect(frame.status).toBe(200);
    const refused = await callRoute(staffRoute, "loader", `${TEST_ORIGIN}/admin/staff`, {
      cookie: jar.header(),
      context: shop.context(),
    });
    expect(refused.thrown).toBe(403);

    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail", "summary"])
      .where("action", "in", ["staff.invite", "staff.role"])
      .where("summary", "like", `${email}%`)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "staff.invite", actorEmail: "owner@staff.example", summary: `${email} invited as Staff` },
      {
        action: "staff.role",
        actorEmail: email,
        summary: `${email} accepted the invitation: Customer → Staff`,
      },
    ]);
  });

  it("an address someone registered first stays theirs as a customer until the link is used; using it replaces their password and ends all their sessions", async () => {
    const email = `alice-${engine}@staff.example`;
    // a stranger registers the address the owner meant for Alice, and is signed in twice
    await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "stranger's password", role: "customer" },
    );
    const strangerCookies = [
      await signInCookie(email, "stranger's password"),
      await signInCookie(email, "stranger's password"),
    ];

    const invited = await post({ intent: "invite", email, role: "admin" });
    expect(invited.response?.status).toBe(302);
    expect(await toastOf(invited.response)).toBe(`Invitation sent to ${email}`);
    // nothing changed on the account: still a customer, signed in as one, no admin area
    expect(await roleOf(email)).toBe("customer");
    expect(await staffList()).not.toContainEqual(expect.objectContaining({ email }));
    for (const cookie of strangerCookies) {
      expect((await sessionOf(cookie))?.email).toBe(email);
      const frame = await callRoute(adminFrame, "loader", `${TEST_ORIGIN}/admin`, {
        cookie,
        context: shop.context(),
      });
      expect(frame.thrown).toBe(403);
    }
    const token = await invitationToken(email);
    expect((await openJoinPage(token)).invitation).toMatchObject({ email, role: "Admin" });

    // Alice uses the link: the role is hers, the stranger's password and sessions are gone
    const joined = await join(token, "alice's own password");
    expect(joined.response?.status).toBe(302);
    expect(await roleOf(email)).toBe("admin");
    for (const cookie of strangerCookies) {
      expect(await sessionOf(cookie)).toBeNull();
      const frame = await callRoute(adminFrame, "loader", `${TEST_ORIGIN}/admin`, {
        cookie,
        context: shop.context(),
      });
      expect(frame.response?.status).toBe(302); // to the sign-in page
    }
    expect(await passwordWorks(email, "stranger's password")).toBe(false);
    const alice = await signInCookie(email, "alice's own password");
    expect((await sessionOf(alice))?.email).toBe(email);
    const frame = await callRoute(adminFrame, "loader", `${TEST_ORIGIN}/admin`, {
      cookie: alice,
      context: shop.context(),
    });
    expect(frame.status).toBe(200);
  });

  it("a disabled customer account that accepts is enabled with the role", async () => {
    const email = `returning-${engine}@staff.example`;
    await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "old password 1", role: "customer" },
    );
    await shop.db
      .updateTable("users")
      .set({ disabledAt: new Date().toISOString() })
      .where("email", "=", email)
      .execute();
    await post({ intent: "invite", email, role: "staff" });
    expect((await join(await invitationToken(email), "new password 1")).response?.status).toBe(302);
    const row = await shop.db
      .selectFrom("users")
      .select(["role", "disabledAt"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "staff", disabledAt: null });
  });

  it("cancelling an invitation voids its link: the page says so and a post grants nothing and sets no password", async () => {
    const email = `cancelled-${engine}@staff.example`;
    await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "customer password", role: "customer" },
    );
    await post({ intent: "invite", email, role: "owner" });
    const token = await invitationToken(email);
    const invitation = await invitationOf(email);
    expect(invitation).toMatchObject({ role: "owner" });

    // cancelling asks first
    const unconfirmed = await post({ intent: "cancel", invitationId: String(invitation!.id) });
    expect(unconfirmed.status).toBe(400);
    expect((await openJoinPage(token)).invitation).not.toBeNull();
    const cancelled = await post({ intent: "cancel", invitationId: String(invitation!.id), confirm: "yes" });
    expect(cancelled.response?.status).toBe(302);
    expect(await toastOf(cancelled.response)).toBe(`Invitation to ${email} cancelled`);
    expect(await invitationOf(email)).toBeUndefined();
    expect(
      (await post({ intent: "cancel", invitationId: String(invitation!.id), confirm: "yes" })).status,
    ).toBe(404);

    expect((await openJoinPage(token)).invitation).toBeNull();
    expectRefusedJoin(await join(token, "taken over 1"));
    expect(await roleOf(email)).toBe("customer");
    expect(await passwordWorks(email, "taken over 1")).toBe(false);
    expect(await passwordWorks(email, "customer password")).toBe(true);

    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityId", "=", email)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "staff.invite", summary: `${email} invited as Owner` },
      { action: "staff.invite", summary: `Invitation to ${email} (Owner) cancelled` },
    ]);
  });

  it("removing a member, or changing their role, voids an invitation still open for their address", async () => {
    for (const change of ["remove", "role"] as const) {
      const email = `voided-${change}-${engine}@staff.example`;
      await createOrUpdateUser(
        { auth: shop.services.auth, db: shop.db },
        { email, password: "own password 1", role: "customer" },
      );
      await post({ intent: "invite", email, role: "owner" });
      const token = await invitationToken(email);
      // made staff another way while the invitation is open (the CLI's `users:create`)
      const member = await createOrUpdateUser(
        { auth: shop.services.auth, db: shop.db },
        { email, password: "own password 1", role: "staff" },
      );
      if (!member.ok) throw new Error("not updated");
      const userId = member.value.userId;
      const changed =
        change === "remove"
          ? await post({ intent: "remove", userId, confirm: "yes" })
          : await post({ intent: "role", userId, role: "admin" });
      expect(changed.response?.status).toBe(302);
      const roleAfter = change === "remove" ? "customer" : "admin";
      expect(await roleOf(email)).toBe(roleAfter);
      expect(await invitationOf(email)).toBeUndefined();

      expect((await openJoinPage(token)).invitation).toBeNull();
      expectRefusedJoin(await join(token, "taken over 1"));
      expect(await roleOf(email)).toBe(roleAfter);
      expect(await passwordWorks(email, "taken over 1")).toBe(false);
      expect(await passwordWorks(email, "own password 1")).toBe(true);
    }
  });

  it("an expired invitation refuses; a newer invitation replaces the older one, whose link stops working", async () => {
    const expiring = `late-${engine}@staff.example`;
    await post({ intent: "invite", email: expiring, role: "staff" });
    const lateToken = await invitationToken(expiring);
    await shop.db
      .updateTable("staffInvitations")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", expiring)
      .execute();
    expect(await invitationOf(expiring)).toMatchObject({ expired: true });
    expect((await openJoinPage(lateToken)).invitation).toBeNull();
    expectRefusedJoin(await join(lateToken, "too late 123"));
    expect(await roleOf(expiring)).toBeUndefined();

    const email = `twice-${engine}@staff.example`;
    await post({ intent: "invite", email, role: "staff" });
    const first = await invitationToken(email);
    await post({ intent: "invite", email, role: "admin" });
    const second = await invitationToken(email);
    expect(second).not.toBe(first);
    expect((await staffPage()).invitations.filter((invitation) => invitation.email === email)).toHaveLength(
      1,
    );
    expect((await openJoinPage(first)).invitation).toBeNull();
    expectRefusedJoin(await join(first, "first link 1"));
    expect(await roleOf(email)).toBeUndefined();
    expect((await openJoinPage(second)).invitation).toMatchObject({ role: "Admin" });
    expect((await join(second, "second link 1")).response?.status).toBe(302);
    expect(await roleOf(email)).toBe("admin");
  });

  it("only a role with the staff permission may invite, cancel or change roles, even calling the domain directly", async () => {
    const target = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email: `target-${engine}@staff.example`, password: "correct horse", role: "staff" },
    );
    if (!target.ok) throw new Error("not created");
    const forbidden = { ok: false, error: { code: "forbidden" } };
    const actors: StaffActor[] = (["admin", "staff", "customer"] as const).map((role) => ({
      id: `acting-${role}`,
      email: `${role}@staff.example`,
      role,
    }));
    for (const actor of actors) {
      expect(await setStaffRole(shop.db, { userId: target.value.userId, role: "owner", actor })).toEqual(
        forbidden,
      );
      expect(await setStaffRole(shop.db, { userId: target.value.userId, role: null, actor })).toEqual(
        forbidden,
      );
    }
    expect(await roleOf(`target-${engine}@staff.example`)).toBe("staff");

    const services = {
      db: shop.db,
      mail: shop.services.mail,
      shop: { shopName: "Cartwheel", publicUrl: TEST_ORIGIN },
    };
    await post({ intent: "invite", email: `pending-${engine}@staff.example`, role: "staff" });
    const pending = await invitationOf(`pending-${engine}@staff.example`);
    for (const actor of actors) {
      expect(
        await inviteStaff(services, { email: `sneaky-${engine}@staff.example`, role: "owner", actor }),
      ).toEqual(forbidden);
      expect(await cancelStaffInvitation(shop.db, { invitationId: pending!.id, actor })).toEqual(forbidden);
    }
    expect(await roleOf(`sneaky-${engine}@staff.example`)).toBeUndefined();
    expect(await invitationOf(`sneaky-${engine}@staff.example`)).toBeUndefined();
    expect(await invitationOf(`pending-${engine}@staff.example`)).toBeDefined();
    // the owner may
    expect(await cancelStaffInvitation(shop.db, { invitationId: pending!.id, actor: owner })).toMatchObject({
      ok: true,
    });
  });

  it("inviting a member of the staff is refused beside the field; a bad address or role is refused", async () => {
    const email = `clerk-already-${engine}@staff.example`;
    await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email, password: "correct horse", role: "admin" },
    );
    const again = await post({ intent: "invite", email, role: "staff" });
    expect(again.status).toBe(409);
    expect(
      (again.data as unknown as { result: { error: Record<string, string[]> } }).result.error.email,
    ).toEqual(["This person is on the staff already; change their role in the list."]);
    expect(await roleOf(email)).toBe("admin");
    expect(await invitationOf(email)).toBeUndefined();

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
    expect(await signInCookie(email, "correct horse")).not.toBe("");

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
    const second = await signInCookie(email, "correct horse");
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

  // last: it takes this shop's invitations table back to migration 1600's shape and forward again
  it("migration 2300: an old-style invitee who never signed in goes back to customer, and the old link stops working", async () => {
    const db = shop.db;
    // the table as migration 1600 left it, with an old invitation: an account made with the role,
    // a Better Auth reset token as its link
    await staffInvitationsMigration.down(db as never);
    const invitee = await insertUser(db, `old-invitee-${engine}@staff.example`);
    const member = await insertUser(db, `old-member-${engine}@staff.example`);
    await db.updateTable("users").set({ role: "admin" }).where("id", "in", [invitee, member]).execute();
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await sql`insert into staff_invitations (user_id, invited_by, created_at)
      values (${invitee}, ${ownerId}, ${now})`.execute(db);
    for (const [id, userId] of [
      ["v-invitee", invitee],
      ["v-member", member],
    ] as const) {
      await sql`insert into verifications (id, identifier, value, expires_at, created_at, updated_at)
        values (${id}, ${`reset-password:${id}-token`}, ${userId}, ${later}, ${now}, ${now})`.execute(db);
    }

    await staffInvitationsMigration.up(db as never);

    const roles = await db
      .selectFrom("users")
      .select(["id", "role"])
      .where("id", "in", [invitee, member])
      .execute();
    expect(Object.fromEntries(roles.map((row) => [row.id, row.role]))).toEqual({
      [invitee]: "customer",
      [member]: "admin",
    });
    // the invitee's link is gone; a member's own password reset is not touched
    const links = await sql<{ id: string }>`
      select id from verifications where id in ('v-invitee', 'v-member') order by id`.execute(db);
    expect(links.rows.map((row) => row.id)).toEqual(["v-member"]);
    expect(await db.selectFrom("staffInvitations").selectAll().execute()).toEqual([]);
  });
});
