import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import {
  INVITATION_DAYS,
  isStaffRole,
  ROLE_LABELS,
  STAFF_ROLES,
  type StaffRole,
} from "../../lib/staff-roles.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** invited and not signed in yet (no password set through the link) */
  invited: boolean;
}

export const STAFF_MESSAGES = {
  invited: (email: string) => `Invitation sent to ${email}`,
  promoted: (email: string) => `${email} is now on the staff`,
  roleChanged: (email: string, role: StaffRole) => `${email} is now ${ROLE_LABELS[role]}`,
  removed: (email: string) => `${email} is no longer on the staff`,
  alreadyStaff: "This person is on the staff already; change their role in the list.",
  notFound: "No such staff member.",
  yourself: "You cannot change or remove your own role: ask another owner.",
  lastOwner: "The shop needs an owner: make someone else owner first.",
} as const;

/** The invitation form: an e-mail address and the role it gets. */
const inviteSchema = z.object({
  intent: z.literal("invite"),
  email: z
    .string("Enter an e-mail address.")
    .trim()
    .toLowerCase()
    .pipe(z.email("Enter a valid e-mail address."))
    .pipe(z.string().max(254, "Enter a valid e-mail address.")),
  role: z.enum(STAFF_ROLES, { error: "Choose a role." }),
});

/** The staff page's forms: invite someone, change a member's role, remove a member. */
export const staffActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.literal("role"), userId: z.string().min(1).max(100), role: z.enum(STAFF_ROLES) }),
  z.object({
    intent: z.literal("remove"),
    userId: z.string().min(1).max(100),
    confirm: z.string().optional(),
  }),
]);

/** The staff, owners first, then by e-mail. */
export async function listStaff(db: Database): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "role"])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("staffInvitations")
            .select("userId")
            .whereRef("staffInvitations.userId", "=", "users.id"),
        )
        .as("invited"),
    )
    .where("role", "in", [...STAFF_ROLES])
    .orderBy("email")
    .execute();
  const order = (role: string) => STAFF_ROLES.indexOf(role as StaffRole);
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role as StaffRole,
      invited: Boolean(row.invited),
    }))
    .sort((a, b) => order(a.role) - order(b.role));
}

type InviteOutcome = Result<{ email: string; kind: "invited" | "promoted" }, { code: "already-staff" }>;

/**
 * The owner invites someone to the staff with a role. A new address gets an account with a
 * password nobody knows and an e-mail with a link to set one (Better Auth's password-reset token,
 * valid INVITATION_DAYS days: the same /reset-password page); a customer's account is given the
 * role and told so. Audited.
 */
export async function inviteStaff(
  {
    auth,
    db,
    mail,
    shop,
  }: { auth: Auth; db: Database; mail: Mailer; shop: { shopName: string; publicUrl: string } },
  { email, role, actor }: { email: string; role: StaffRole; actor: Actor },
): Promise<InviteOutcome> {
  const existing = await db
    .selectFrom("users")
    .select(["id", "role"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (existing && isStaffRole(existing.role)) return fail({ code: "already-staff" });
  let userId: string;
  let link: string | null = null;
  if (existing) {
    userId = existing.id;
  } else {
    // a password nobody knows: the invitee sets theirs through the link
    const { user } = await auth.api.signUpEmail({
      body: { name: email.split("@")[0] || email, email, password: randomBytes(32).toString("base64url") },
    });
    userId = user.id;
    // signing up signs in: that session is nobody's
    await db.deleteFrom("sessions").where("userId", "=", userId).execute();
    const token = randomBytes(24).toString("base64url");
    const context = await auth.$context;
    // Better Auth's reset token (what its requestPasswordReset stores), with the invitation's
    // lifetime; /reset-password spends it through auth.api.resetPassword
    await context.internalAdapter.createVerificationValue({
      value: userId,
      identifier: `reset-password:${token}`,
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
    });
    link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, shop.publicUrl).toString();
  }
  await db.transaction().execute(async (trx) => {
    // joining the staff lifts a disabled customer account's block
    await trx.updateTable("users").set({ role, disabledAt: null }).where("id", "=", userId).execute();
    if (link) {
      await trx
        .insertInto("staffInvitations")
        .values({ userId, invitedBy: actor.id, createdAt: new Date().toISOString() })
        .execute();
    }
    await recordAudit(trx, {
      actor,
      action: "staff.invite",
      entityType: "user",
      entityId: userId,
      summary: `${email} ${link ? "invited" : "added to the staff"} as ${ROLE_LABELS[role]}`,
      after: { email, role },
    });
  });
  const signIn = new URL("/account?redirectTo=%2Fadmin", shop.publicUrl).toString();
  await mail
    .send({
      to: email,
      subject: `You have been invited to ${shop.shopName}'s back office`,
      text: [
        `${actor.email} has added you to ${shop.shopName}'s staff as ${ROLE_LABELS[role]}.`,
        link
          ? `Set your password here within ${INVITATION_DAYS} days, then sign in with this e-mail address: ${link}`
          : `Sign in with your account as usual and open the back office: ${signIn}`,
        `— ${shop.shopName}`,
      ].join("\n\n"),
    })
    .catch((error: unknown) => logger.warn({ err: error }, "staff invitation e-mail failed"));
  return ok({ email, kind: link ? "invited" : "promoted" });
}

type MemberOutcome = Result<{ email: string }, { code: "not-found" | "yourself" | "last-owner" }>;

/**
 * Changes a staff member's role, or removes them from the staff (`role: null`: their account
 * becomes a customer's and their sessions end). Nobody changes their own role, and the last owner
 * stays one. Audited. The role is read from the account on every request, so it applies at once.
 */
export async function setStaffRole(
  db: Database,
  { userId, role, actor }: { userId: string; role: StaffRole | null; actor: Actor },
): Promise<MemberOutcome> {
  if (userId === actor.id) return fail({ code: "yourself" });
  return db.transaction().execute(async (trx): Promise<MemberOutcome> => {
    const member = await trx
      .selectFrom("users")
      .select(["email", "role"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!member || !isStaffRole(member.role)) return fail({ code: "not-found" });
    if (member.role === "owner" && role !== "owner") {
      // two owners demoting each other at once: the owners' rows are locked (PostgreSQL; SQLite's
      // write transactions run one at a time), so the second sees the first's change
      let owners = trx.selectFrom("users").select("id").where("role", "=", "owner");
      if (engineOf<DB>(trx) === "postgres") owners = owners.forUpdate();
      if ((await owners.execute()).length <= 1) return fail({ code: "last-owner" });
    }
    await trx
      .updateTable("users")
      .set({ role: role ?? "customer" })
      .where("id", "=", userId)
      .execute();
    if (role === null) {
      await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
      await trx.deleteFrom("staffInvitations").where("userId", "=", userId).execute();
    }
    await recordAudit(trx, {
      actor,
      action: role ? "staff.role" : "staff.remove",
      entityType: "user",
      entityId: userId,
      summary: role
        ? `${member.email}: ${ROLE_LABELS[member.role]} → ${ROLE_LABELS[role]}`
        : `${member.email} removed from the staff (was ${ROLE_LABELS[member.role]})`,
      before: { role: member.role },
      after: { role: role ?? "customer" },
    });
    return ok({ email: member.email });
  });
}

/** An invitee who set their password and signed in is no longer "invited". */
export async function acceptInvitation(db: Database, userId: string): Promise<void> {
  await db.deleteFrom("staffInvitations").where("userId", "=", userId).execute();
}
