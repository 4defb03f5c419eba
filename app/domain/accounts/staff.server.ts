import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import {
  actorCan,
  INVITATION_DAYS,
  isStaffRole,
  ROLE_LABELS,
  type Role,
  STAFF_ROLES,
  type StaffRole,
} from "../../lib/staff-roles.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
}

/** An invitation sent and not accepted yet (it gives nothing until its link is used). */
export interface StaffInvitation {
  id: number;
  email: string;
  role: StaffRole;
  createdAt: string;
  expiresAt: string;
  /** past its expiry: the link no longer works, the owner may invite again */
  expired: boolean;
}

/** The staff member who acts, with the role the request was checked with. */
export type StaffActor = Actor & { role: Role };

export const STAFF_MESSAGES = {
  invited: (email: string) => `Invitation sent to ${email}`,
  cancelled: (email: string) => `Invitation to ${email} cancelled`,
  roleChanged: (email: string, role: StaffRole) => `${email} is now ${ROLE_LABELS[role]}`,
  removed: (email: string) => `${email} is no longer on the staff`,
  alreadyStaff: "This person is on the staff already; change their role in the list.",
  notFound: "No such staff member.",
  invitationNotFound: "This invitation was already accepted or cancelled.",
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

/** The staff page's forms: invite someone, change a member's role, remove a member, cancel an invitation. */
export const staffActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.literal("role"), userId: z.string().min(1).max(100), role: z.enum(STAFF_ROLES) }),
  z.object({
    intent: z.literal("remove"),
    userId: z.string().min(1).max(100),
    confirm: z.string().optional(),
  }),
  z.object({
    intent: z.literal("cancel"),
    invitationId: z.number().int().positive(),
    confirm: z.string().optional(),
  }),
]);

type Forbidden = { code: "forbidden" };

/** Only a role with the `staff` permission manages the staff (the route asked the same first). */
function mayManageStaff(actor: StaffActor): boolean {
  return actorCan(actor, "staff");
}

/**
 * What is stored of an invitation's token: its SHA-256 (hex). The token itself is only in the
 * e-mailed link, so reading the database does not give anyone a working link.
 */
export function invitationTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The staff, owners first, then by e-mail. */
export async function listStaff(db: Database): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "role"])
    .where("role", "in", [...STAFF_ROLES])
    .orderBy("email")
    .execute();
  const order = (role: string) => STAFF_ROLES.indexOf(role as StaffRole);
  return rows
    .map((row) => ({ id: row.id, name: row.name, email: row.email, role: row.role as StaffRole }))
    .sort((a, b) => order(a.role) - order(b.role));
}

/** The invitations not accepted yet, by e-mail (expired ones too, marked). */
export async function listStaffInvitations(db: Database, now = new Date()): Promise<StaffInvitation[]> {
  const rows = await db
    .selectFrom("staffInvitations")
    .select(["id", "email", "role", "createdAt", "expiresAt"])
    .orderBy("email")
    .execute();
  const nowIso = now.toISOString();
  return rows
    .filter((row) => isStaffRole(row.role))
    .map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role as StaffRole,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      expired: row.expiresAt <= nowIso,
    }));
}

type InviteOutcome = Result<{ email: string }, Forbidden | { code: "already-staff" }>;

/**
 * The owner invites someone to the staff with a role. Nothing changes on any account: the
 * invitation is stored (a hash of its token, valid INVITATION_DAYS days; a new invitation to the
 * same address replaces the old one, whose link stops working) and e-mailed as a /staff/join link.
 * The role is given only when the link is used (staff-join.server.ts), which proves the address
 * is theirs. Audited.
 */
export async function inviteStaff(
  { db, mail, shop }: { db: Database; mail: Mailer; shop: { shopName: string; publicUrl: string } },
  { email, role, actor }: { email: string; role: StaffRole; actor: StaffActor },
  now = new Date(),
): Promise<InviteOutcome> {
  if (!mayManageStaff(actor)) return fail({ code: "forbidden" });
  const existing = await db.selectFrom("users").select("role").where("email", "=", email).executeTakeFirst();
  if (existing && isStaffRole(existing.role)) return fail({ code: "already-staff" });
  const token = randomBytes(32).toString("base64url");
  const invitation = {
    role,
    tokenHash: invitationTokenHash(token),
    invitedBy: actor.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
  };
  await db.transaction().execute(async (trx) => {
    // one invitation per address: a new one takes the old one's place (and its link stops working)
    await trx
      .insertInto("staffInvitations")
      .values({ email, ...invitation })
      .onConflict((conflict) => conflict.column("email").doUpdateSet(invitation))
      .execute();
    await recordAudit(trx, {
      actor,
      action: "staff.invite",
      entityType: "user",
      entityId: email,
      summary: `${email} invited as ${ROLE_LABELS[role]}`,
      after: { email, role },
      now,
    });
  });
  const link = new URL(`/staff/join?token=${encodeURIComponent(token)}`, shop.publicUrl).toString();
  await mail
    .send({
      to: email,
      subject: `You have been invited to ${shop.shopName}'s back office`,
      text: [
        `${actor.email} has invited you to join ${shop.shopName}'s staff as ${ROLE_LABELS[role]}.`,
        `To accept, open this link within ${INVITATION_DAYS} days and choose a password: ${link}`,
        `If you already have an account at ${shop.shopName} with this e-mail address, the password you choose replaces its old one.`,
        "If you did not expect this invitation, you can ignore this e-mail.",
        `— ${shop.shopName}`,
      ].join("\n\n"),
    })
    .catch((error: unknown) => logger.warn({ err: error }, "staff invitation e-mail failed"));
  return ok({ email });
}

type CancelOutcome = Result<{ email: string }, Forbidden | { code: "not-found" }>;

/** Cancels an invitation: its link stops working. Audited. */
export async function cancelStaffInvitation(
  db: Database,
  { invitationId, actor }: { invitationId: number; actor: StaffActor },
): Promise<CancelOutcome> {
  if (!mayManageStaff(actor)) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx): Promise<CancelOutcome> => {
    const cancelled = await trx
      .deleteFrom("staffInvitations")
      .where("id", "=", invitationId)
      .returning(["email", "role"])
      .executeTakeFirst();
    if (!cancelled) return fail({ code: "not-found" });
    const role = isStaffRole(cancelled.role) ? ROLE_LABELS[cancelled.role] : cancelled.role;
    await recordAudit(trx, {
      actor,
      action: "staff.invite",
      entityType: "user",
      entityId: cancelled.email,
      summary: `Invitation to ${cancelled.email} (${role}) cancelled`,
      before: { email: cancelled.email, role: cancelled.role },
    });
    return ok({ email: cancelled.email });
  });
}

type MemberOutcome = Result<{ email: string }, Forbidden | { code: "not-found" | "yourself" | "last-owner" }>;

/**
 * Changes a staff member's role, or removes them from the staff (`role: null`: their account
 * becomes a customer's and their sessions end). Either way any invitation still open for their
 * e-mail address is voided in the same transaction, so an old link cannot give a role back.
 * Nobody changes their own role, and the last owner stays one. Audited. The role is read from the
 * account on every request, so it applies at once.
 */
export async function setStaffRole(
  db: Database,
  { userId, role, actor }: { userId: string; role: StaffRole | null; actor: StaffActor },
): Promise<MemberOutcome> {
  if (!mayManageStaff(actor)) return fail({ code: "forbidden" });
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
    await trx.deleteFrom("staffInvitations").where("email", "=", member.email.toLowerCase()).execute();
    if (role === null) {
      await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
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
