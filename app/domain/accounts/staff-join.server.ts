import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { isStaffRole, ROLE_LABELS, type StaffRole } from "../../lib/staff-roles.ts";
import { recordAudit } from "../audit/audit-log.server.ts";
import { RESET_MESSAGES } from "./password-reset-messages.ts";
import { invitationTokenHash } from "./staff.server.ts";
import { JOIN_MESSAGES } from "./staff-join-messages.ts";

export { JOIN_MESSAGES } from "./staff-join-messages.ts";

/** The join form: the link's token and the new password twice (the rules of /reset-password). */
export const joinStaffSchema = z
  .object({
    token: z.string(JOIN_MESSAGES.invalidLink).max(500, JOIN_MESSAGES.invalidLink),
    password: z
      .string(RESET_MESSAGES.length)
      .min(PASSWORD_MIN_LENGTH, RESET_MESSAGES.length)
      .max(PASSWORD_MAX_LENGTH, RESET_MESSAGES.tooLong),
    confirmPassword: z.string().optional(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: RESET_MESSAGES.mismatch,
  });

/** An invitation as its link shows it. */
export interface OpenInvitation {
  email: string;
  role: StaffRole;
  expiresAt: string;
}

type InvalidLink = { code: "invalid-link" };

/** The invitation this link's token opens: stored (not cancelled, replaced or used) and not expired. */
export async function findStaffInvitation(
  db: Database,
  { token }: { token: string },
  now = new Date(),
): Promise<Result<OpenInvitation, InvalidLink>> {
  if (token === "") return fail({ code: "invalid-link" });
  const row = await db
    .selectFrom("staffInvitations")
    .select(["email", "role", "expiresAt"])
    .where("tokenHash", "=", invitationTokenHash(token))
    .where("expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  if (!row || !isStaffRole(row.role)) return fail({ code: "invalid-link" });
  return ok({ email: row.email, role: row.role, expiresAt: row.expiresAt });
}

/**
 * Accepts an invitation through its link, which proves the e-mail address is the invitee's:
 *
 * 1. The invitation must be open (else nothing happens).
 * 2. The address gets the chosen password through Better Auth: a new account is created with it
 *    (the session sign-up opens is deleted), or an existing account's password is replaced
 *    through Better Auth's own reset, which ends every session of that account — whoever
 *    registered the address before keeps neither their password nor their sessions.
 * 3. Only then, in one transaction, the invitation is claimed by a guarded delete (its token's
 *    hash, not expired); if it is gone (cancelled, replaced, or the member removed meanwhile)
 *    nothing is granted. Else the account gets the invitation's role (a disabled account is
 *    enabled), its sessions end, and the acceptance is audited.
 *
 * The new member then signs in with the new password.
 */
export async function joinStaff(
  { auth, db }: { auth: Auth; db: Database },
  { token, password }: { token: string; password: string },
  now = new Date(),
): Promise<Result<{ email: string; role: StaffRole }, InvalidLink>> {
  const invitation = await findStaffInvitation(db, { token }, now);
  if (!invitation.ok) return invitation;
  const { email } = invitation.value;
  const userId = await setPassword(auth, db, email, password);

  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .deleteFrom("staffInvitations")
      .where("tokenHash", "=", invitationTokenHash(token))
      .where("expiresAt", ">", now.toISOString())
      .returning(["role", "invitedBy"])
      .executeTakeFirst();
    if (!claimed || !isStaffRole(claimed.role)) return fail({ code: "invalid-link" as const });
    const account = await trx
      .selectFrom("users")
      .select(["email", "role"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const before = account.role ?? "customer";
    // someone given a role meanwhile another way (the CLI) keeps it: an invitation never demotes
    const role: StaffRole = isStaffRole(account.role) ? account.role : claimed.role;
    await trx.updateTable("users").set({ role, disabledAt: null }).where("id", "=", userId).execute();
    await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
    await recordAudit(trx, {
      actor: { id: userId, email: account.email },
      action: "staff.role",
      entityType: "user",
      entityId: userId,
      summary: `${account.email} accepted the invitation: ${isStaffRole(before) ? ROLE_LABELS[before] : ROLE_LABELS.customer} → ${ROLE_LABELS[role]}`,
      before: { role: before },
      after: { role, invitedBy: claimed.invitedBy },
      now,
    });
    return ok({ email: account.email, role });
  });
}

/**
 * Gives the address's account this password through Better Auth, creating the account if there
 * is none; returns its id. An existing account's sessions all end (revokeSessionsOnPasswordReset).
 */
async function setPassword(auth: Auth, db: Database, email: string, password: string): Promise<string> {
  const accountOf = () => db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  let existing = await accountOf();
  if (!existing) {
    try {
      const { user } = await auth.api.signUpEmail({
        body: { name: email.split("@")[0] || email, email, password },
      });
      // signing up signs in: that session is nobody's (the member signs in next)
      await db.deleteFrom("sessions").where("userId", "=", user.id).execute();
      return user.id;
    } catch (error) {
      // registered by someone else a moment ago: their account's password is replaced below
      existing = await accountOf();
      if (!existing) throw error;
    }
  }
  // Better Auth's own reset path (the token is what its requestPasswordReset stores), spent at once
  const resetToken = randomBytes(32).toString("base64url");
  const context = await auth.$context;
  await context.internalAdapter.createVerificationValue({
    identifier: `reset-password:${resetToken}`,
    value: existing.id,
    expiresAt: new Date(Date.now() + 60_000),
  });
  await auth.api.resetPassword({ body: { token: resetToken, newPassword: password } });
  return existing.id;
}
