import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import type { Actor, StaffActor } from "../audit/audit-log.server.ts";
import type { GroupMemberSource, GroupRule } from "./group-form.ts";

/**
 * What the customer-group modules share (decision 034): the groups' types and outcomes, the
 * permission check every command starts with, a group's row, its stored rule read back, and who
 * counts as a customer. The groups themselves are customer-groups.server.ts's, their members
 * group-members.server.ts's, their rules group-rules.server.ts's.
 */

export type Trx = Transaction<DB> | Kysely<DB>;

export interface GroupSummary {
  id: number;
  name: string;
  description: string;
  rule: GroupRule | null;
  memberCount: number;
}

export interface GroupMember {
  userId: string;
  email: string;
  name: string;
  source: GroupMemberSource;
  addedAt: string;
}

export interface GroupDetail extends GroupSummary {
  members: GroupMember[];
  /** more members than the page lists */
  moreMembers: boolean;
}

export type GroupError =
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "name-taken"; name: string }
  | { code: "unknown-emails"; emails: string[] }
  | { code: "no-rule" }
  | { code: "in-use"; promotions: string[] }
  | { code: "unreadable"; message: string };

export type GroupResult<T> = Result<T, GroupError>;

export interface GroupSaved {
  id: number;
  name: string;
  changed: boolean;
  added: number;
  removed: number;
}

export interface GroupInput {
  name: string;
  description: string;
}

export const isCustomer = sql<boolean>`(users.role = 'customer' or users.role is null)`;

export function parseRule(text: string | null): GroupRule | null {
  if (!text) return null;
  try {
    const rule = JSON.parse(text) as { type?: unknown; cents?: unknown };
    return rule.type === "spent-over" && Number.isSafeInteger(rule.cents) && Number(rule.cents) >= 0
      ? { type: "spent-over", cents: Number(rule.cents) }
      : null;
  } catch {
    return null;
  }
}

export const auditOf = (actor: StaffActor): Actor => ({ id: actor.id, email: actor.email });

/** A command's transaction, after the actor's permission is checked. */
export async function asManager<T>(
  db: Database,
  actor: StaffActor,
  change: (trx: Transaction<DB>) => Promise<GroupResult<T>>,
): Promise<GroupResult<T>> {
  if (!actorCan(actor, "customers")) return fail({ code: "forbidden" });
  return db.transaction().execute(change);
}

export async function groupRow(trx: Trx, id: number) {
  return trx
    .selectFrom("customerGroups")
    .select(["id", "name", "description", "rule"])
    .where("id", "=", id)
    .executeTakeFirst();
}
