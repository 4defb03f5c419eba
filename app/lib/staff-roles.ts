/**
 * Who may do what in the back office (issue 20, product decisions "Staff roles"). A user's role is
 * one of ROLES; the three staff roles reach the admin area, each with its permissions. Every admin
 * loader and action asks for one permission (`requirePermission` in http/session.server.ts), so
 * this table is the only place a role's reach is decided.
 */
export const STAFF_ROLES = ["owner", "admin", "staff"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ROLES = ["customer", ...STAFF_ROLES] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** the catalogue: products, variants, stock, images, CSV import and export */
  "products",
  /** orders: list, detail, shipped and delivered */
  "orders",
  /** money back: refunds, and cancelling a paid order (which refunds it) */
  "refunds",
  /** returns: approve, reject, receive, refund */
  "returns",
  /** discount codes */
  "discounts",
  /** reported reviews */
  "reviews",
  /** customers: list, detail, disabling an account */
  "customers",
  /** the dashboard and sales reports */
  "reports",
  /** the audit log */
  "audit",
  /** the shop's settings */
  "settings",
  /** staff members and their roles */
  "staff",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(PERMISSIONS.filter((p) => p !== "settings" && p !== "staff")),
  staff: new Set<Permission>(["products", "orders", "reviews"]),
};

/** How long a staff invitation's link to set a password works. */
export const INVITATION_DAYS = 7;

export const ROLE_LABELS: Record<Role, string> = {
  customer: "Customer",
  owner: "Owner",
  admin: "Admin",
  staff: "Staff",
};

export function isStaffRole(role: string | null | undefined): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role ?? "");
}

/** A stored role as one of ROLES (anything else, or none, is a customer). */
export function roleOf(stored: string | null | undefined): Role {
  return (ROLES as readonly string[]).includes(stored ?? "") ? (stored as Role) : "customer";
}

export function can(role: Role, permission: Permission): boolean {
  return isStaffRole(role) && ROLE_PERMISSIONS[role].has(permission);
}

/**
 * Whether whoever acts in a domain command may do this: a staff member by their role; an API key
 * (decision 038) by what its scopes grant — `grants` set, the role (a key's is "customer") not asked.
 */
export function actorCan(
  actor: { role: Role; grants?: readonly Permission[] },
  permission: Permission,
): boolean {
  return actor.grants ? actor.grants.includes(permission) : can(actor.role, permission);
}

/** A role's permissions, in PERMISSIONS' order (none for a customer). */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((permission) => can(role, permission));
}
