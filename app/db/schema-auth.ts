// Better Auth's tables and the staff's invitations (migrations 0500, 1600, 1800); part of `DB` in schema.ts.

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

/** An invitation to the staff not taken up yet (migration 1600). */
export interface StaffInvitationsTable {
  userId: string;
  invitedBy: string;
  createdAt: string;
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
