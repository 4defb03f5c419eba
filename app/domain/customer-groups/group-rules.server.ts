import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok } from "../../lib/result.ts";
import { type Actor, recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";
import type { GroupRule } from "./group-form.ts";
import {
  asManager,
  auditOf,
  type GroupResult,
  groupRow,
  isCustomer,
  parseRule,
  type Trx,
} from "./group-store.server.ts";

/**
 * A customer group's rule, "spent over $X" (placed orders net of refunds, as Admin → Customers
 * counts "total spent"), applied (decision 034): when it is saved, on "Refresh members" and by the
 * daily job as the system. It moves only the members it brought in ('rule').
 */

/** The system's name in the audit log when the daily job applies the rules. */
export const SYSTEM_ACTOR: Actor = { id: "system", email: "system" };

/** The customers a rule holds for, as a subquery of user ids. */
function qualifying(trx: Trx, rule: GroupRule) {
  return trx
    .selectFrom("orders")
    .innerJoin("users", "users.id", "orders.userId")
    .select("orders.userId as userId")
    .where("orders.status", "in", [...PLACED_STATUSES])
    .where(isCustomer)
    .groupBy("orders.userId")
    .having((eb) =>
      eb(eb.fn.sum(eb("orders.totalCents", "-", eb.ref("orders.refundedCents"))), ">", rule.cents),
    );
}

/**
 * Recomputes a group's rule members: customers the rule holds for and not in the group come in as
 * 'rule' members; 'rule' members it no longer holds for go (all of them when there is no rule).
 * Hand and CSV members are left as they are. Audited when anyone moved.
 */
export async function applyRule(
  trx: Transaction<DB>,
  {
    id,
    name,
    rule,
    actor,
    now,
  }: { id: number; name: string; rule: GroupRule | null; actor: Actor; now: Date },
): Promise<{ added: number; removed: number }> {
  let leaving = trx
    .selectFrom("customerGroupMembers")
    .innerJoin("users", "users.id", "customerGroupMembers.userId")
    .select(["customerGroupMembers.userId", "users.email"])
    .where("customerGroupMembers.groupId", "=", id)
    .where("customerGroupMembers.source", "=", "rule");
  if (rule) leaving = leaving.where("customerGroupMembers.userId", "not in", qualifying(trx, rule));
  const removed = await leaving.execute();
  for (let i = 0; i < removed.length; i += 500) {
    await trx
      .deleteFrom("customerGroupMembers")
      .where("groupId", "=", id)
      .where(
        "userId",
        "in",
        removed.slice(i, i + 500).map((row) => row.userId),
      )
      .execute();
  }
  let added: { userId: string; email: string }[] = [];
  if (rule) {
    const at = now.toISOString();
    const joining = await trx
      .selectFrom("users")
      .select(["users.id as userId", "users.email"])
      .where("users.id", "in", qualifying(trx, rule))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("customerGroupMembers")
              .select("customerGroupMembers.userId")
              .where("customerGroupMembers.groupId", "=", id)
              .whereRef("customerGroupMembers.userId", "=", "users.id"),
          ),
        ),
      )
      .orderBy("users.email")
      .execute();
    for (let i = 0; i < joining.length; i += 500) {
      await trx
        .insertInto("customerGroupMembers")
        .values(
          joining
            .slice(i, i + 500)
            .map((row) => ({ groupId: id, userId: row.userId, source: "rule" as const, addedAt: at })),
        )
        .execute();
    }
    added = joining;
  }
  if (added.length + removed.length > 0) {
    await recordAudit(trx, {
      actor,
      action: "customer_group.refresh",
      entityType: "customer_group",
      entityId: id,
      summary: `Rule of customer group ${name}: ${added.length} added, ${removed.length} removed`,
      after: {
        added: added.slice(0, 100).map((row) => row.email),
        removed: removed.slice(0, 100).map((row) => row.email),
      },
      now,
    });
  }
  return { added: added.length, removed: removed.length };
}

/** Applies the group's rule now (the page's "Refresh members"). */
export async function refreshGroup(
  db: Database,
  { id, actor, now = new Date() }: { id: number; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ name: string; added: number; removed: number }>> {
  return asManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const rule = parseRule(group.rule);
    if (!rule) return fail({ code: "no-rule" });
    const moved = await applyRule(trx, { id, name: group.name, rule, actor: auditOf(actor), now });
    return ok({ name: group.name, ...moved });
  });
}

/** The daily job: applies every group's rule, one transaction a group, as the system. */
export async function refreshGroupRules(
  db: Database,
  now = new Date(),
): Promise<{ groups: number; added: number; removed: number }> {
  const groups = await db
    .selectFrom("customerGroups")
    .select(["id", "name", "rule"])
    .where("rule", "is not", null)
    .orderBy("id")
    .execute();
  let added = 0;
  let removed = 0;
  for (const group of groups) {
    const rule = parseRule(group.rule);
    if (!rule) continue;
    const moved = await db
      .transaction()
      .execute((trx) =>
        applyRule(trx, { id: Number(group.id), name: group.name, rule, actor: SYSTEM_ACTOR, now }),
      );
    added += moved.added;
    removed += moved.removed;
  }
  return { groups: groups.length, added, removed };
}
