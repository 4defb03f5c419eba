// Better Auth's tables and the staff's invitations (migrations 0500, 1600, 1800, 2300); part of `DB` in schema.ts.

import type { Generated } from "kysely";

/** Better Auth's user table (its dates are Date on PostgreSQL, text on SQLite). */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** 'customer' (default), or a staff role: 'owner', 'admin', 'staff' (lib/staff-roles.ts) */
  role: string | null;
  /** set while staff have disabled the account: it cannot sign in (migration 1800) */
  disabledAt: string | null;
}

/**
 * An invitation to the staff not accepted yet (migration 2300, decision 024): one per e-mail
 * address; it gives its role only when its link is used.
 */
export interface StaffInvitationsTable {
  id: Generated<number>;
  /** lower case, as the invitation form reads it */
  email: string;
  /** the staff role it gives: 'owner', 'admin' or 'staff' */
  role: string;
  /** SHA-256 (hex) of the link's token; the token itself is stored nowhere */
  tokenHash: string;
  /** the id of the staff member who sent it */
  invitedBy: string;
  createdAt: string;
  /** ISO time after which the link no longer works */
  expiresAt: string;
}

export interface SessionsTable {
  id: string;
  expiresAt: Date | string;
  token: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountsTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}
