import type { Kysely } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok } from "../../lib/result.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import type { GroupMemberSource, GroupRule } from "./group-form.ts";
import { applyRule } from "./group-rules.server.ts";
import {
  asManager,
  auditOf,
  type GroupDetail,
  type GroupInput,
  type GroupResult,
  type GroupSaved,
  type GroupSummary,
  groupRow,
  parseRule,
  type Trx,
} from "./group-store.server.ts";

/**
 * Customer groups (Admin → Customer groups, issue 31, decision 034). A group holds customer
 * accounts: added by hand (by e-mail), from a CSV of e-mails, or by the group's rule ("spent over
 * $X": placed orders, net of refunds, as Admin → Customers counts "total spent"). Applying the rule
 * recomputes only the members it brought in ('rule'); those added by hand or by CSV stay until
 * removed, and one added by hand who already was a rule member becomes a hand member. Promotions
 * name groups in their `customer-group` condition; the cart asks `customerGroupIds`.
 *
 * This module holds the groups (read, made, edited, deleted); their members are
 * group-members.server.ts's and their rules group-rules.server.ts's.
 *
 * Every command takes the acting staff member and decides itself whether their role may manage
 * customers (decision 025): "forbidden" otherwise. Every change is written with its audit entry in
 * one transaction. The daily job (`refreshGroupRules`) applies every rule as the system.
 */

/** How many members a group's page lists (the count is of all). */
export const MEMBERS_SHOWN = 500;

/** Every group, by name, with how many members it has. */
export async function listGroups(db: Database): Promise<GroupSummary[]> {
  const rows = await db
    .selectFrom("customerGroups")
    .leftJoin("customerGroupMembers", "customerGroupMembers.groupId", "customerGroups.id")
    .select((eb) => [
      "customerGroups.id",
      "customerGroups.name",
      "customerGroups.description",
      "customerGroups.rule",
      eb.fn.count<number>("customerGroupMembers.userId").as("members"),
    ])
    .groupBy([
      "customerGroups.id",
      "customerGroups.name",
      "customerGroups.description",
      "customerGroups.rule",
    ])
    .orderBy("customerGroups.name")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    description: row.description,
    rule: parseRule(row.rule),
    memberCount: Number(row.members),
  }));
}

/** The groups a promotion's condition may name (its form's choices). */
export async function groupChoices(db: Database): Promise<{ id: number; name: string }[]> {
  const rows = await db.selectFrom("customerGroups").select(["id", "name"]).orderBy("name").execute();
  return rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

/** One group with its members (the first MEMBERS_SHOWN by e-mail); null when there is none. */
export async function getGroup(db: Database, id: number): Promise<GroupDetail | null> {
  const group = await db
    .selectFrom("customerGroups")
    .select(["id", "name", "description", "rule"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!group) return null;
  const [members, count] = await Promise.all([
    db
      .selectFrom("customerGroupMembers")
      .innerJoin("users", "users.id", "customerGroupMembers.userId")
      .select([
        "customerGroupMembers.userId",
        "users.email",
        "users.name",
        "customerGroupMembers.source",
        "customerGroupMembers.addedAt",
      ])
      .where("customerGroupMembers.groupId", "=", id)
      .orderBy("users.email")
      .limit(MEMBERS_SHOWN + 1)
      .execute(),
    db
      .selectFrom("customerGroupMembers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("groupId", "=", id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    id: Number(group.id),
    name: group.name,
    description: group.description,
    rule: parseRule(group.rule),
    memberCount: Number(count.n),
    members: members.slice(0, MEMBERS_SHOWN).map((row) => ({ ...row, userId: String(row.userId) })),
    moreMembers: members.length > MEMBERS_SHOWN,
  };
}

/** The groups a customer is in, by name (the customer's page in the admin). */
export async function groupsOfCustomer(
  db: Database,
  userId: string,
): Promise<{ id: number; name: string; source: GroupMemberSource }[]> {
  const rows = await db
    .selectFrom("customerGroupMembers")
    .innerJoin("customerGroups", "customerGroups.id", "customerGroupMembers.groupId")
    .select(["customerGroups.id", "customerGroups.name", "customerGroupMembers.source"])
    .where("customerGroupMembers.userId", "=", userId)
    .orderBy("customerGroups.name")
    .execute();
  return rows.map((row) => ({ id: Number(row.id), name: row.name, source: row.source }));
}

/** The ids of the groups a signed-in shopper is in: what a promotion's customer-group condition reads. */
export async function customerGroupIds(db: Kysely<DB>, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("customerGroupMembers")
    .select("groupId")
    .where("userId", "=", userId)
    .orderBy("groupId")
    .execute();
  return rows.map((row) => Number(row.groupId));
}

async function nameTaken(trx: Trx, name: string, exceptId: number | null): Promise<boolean> {
  let query = trx
    .selectFrom("customerGroups")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()));
  if (exceptId !== null) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function createGroup(
  db: Database,
  { input, actor, now = new Date() }: { input: GroupInput; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ id: number; name: string }>> {
  return asManager(db, actor, async (trx) => {
    if (await nameTaken(trx, input.name, null)) return fail({ code: "name-taken", name: input.name });
    const at = now.toISOString();
    const row = await trx
      .insertInto("customerGroups")
      .values({ name: input.name, description: input.description, rule: null, createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.create",
      entityType: "customer_group",
      entityId: id,
      summary: `Created customer group ${input.name}`,
      after: input,
      now,
    });
    return ok({ id, name: input.name });
  });
}

/**
 * Saves a group's name, description and rule. A rule set or changed is applied at once (its
 * members recomputed, in the same transaction); a rule removed takes its 'rule' members with it,
 * since nothing holds them in the group any more.
 */
export async function updateGroup(
  db: Database,
  {
    id,
    input,
    rule,
    actor,
    now = new Date(),
  }: { id: number; input: GroupInput; rule: GroupRule | null; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ id: number; name: string; changed: boolean; added: number; removed: number }>> {
  return asManager(db, actor, async (trx): Promise<GroupResult<GroupSaved>> => {
    const before = await groupRow(trx, id);
    if (!before) return fail({ code: "not-found" });
    if (await nameTaken(trx, input.name, id)) return fail({ code: "name-taken", name: input.name });
    const oldRule = parseRule(before.rule);
    const old = { name: before.name, description: before.description, rule: oldRule };
    const next = { name: input.name, description: input.description, rule };
    if (JSON.stringify(old) === JSON.stringify(next)) {
      return ok({ id, name: input.name, changed: false, added: 0, removed: 0 });
    }
    await trx
      .updateTable("customerGroups")
      .set({
        name: input.name,
        description: input.description,
        rule: rule ? JSON.stringify(rule) : null,
        updatedAt: now.toISOString(),
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.update",
      entityType: "customer_group",
      entityId: id,
      summary: `Edited customer group ${input.name}`,
      before: old,
      after: next,
      now,
    });
    let moved = { added: 0, removed: 0 };
    if (JSON.stringify(oldRule) !== JSON.stringify(rule)) {
      moved = await applyRule(trx, { id, name: input.name, rule, actor: auditOf(actor), now });
    }
    return ok({ id, name: input.name, changed: true, ...moved });
  });
}

/** The promotions whose customer-group condition names the group (deleting it would widen them when edited). */
async function promotionsNaming(trx: Trx, id: number): Promise<string[]> {
  const rows = await trx
    .selectFrom("promotions")
    .select(["name", "conditions"])
    .where("conditions", "like", '%"customer-group"%')
    .orderBy("id")
    .execute();
  return rows
    .filter((row) => {
      try {
        const conditions = JSON.parse(row.conditions) as { type?: string; groupIds?: unknown }[];
        return conditions.some(
          (condition) =>
            condition.type === "customer-group" &&
            Array.isArray(condition.groupIds) &&
            condition.groupIds.map(Number).includes(id),
        );
      } catch {
        return false;
      }
    })
    .map((row) => row.name);
}

/** Deletes a group and its memberships; refused while a promotion's condition names it. */
export async function deleteGroup(
  db: Database,
  { id, actor, now = new Date() }: { id: number; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ name: string }>> {
  return asManager(db, actor, async (trx) => {
    const before = await groupRow(trx, id);
    if (!before) return fail({ code: "not-found" });
    const naming = await promotionsNaming(trx, id);
    if (naming.length > 0) return fail({ code: "in-use", promotions: naming });
    const members = await trx
      .selectFrom("customerGroupMembers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("groupId", "=", id)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom("customerGroupMembers").where("groupId", "=", id).execute();
    await trx.deleteFrom("customerGroups").where("id", "=", id).execute();
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.delete",
      entityType: "customer_group",
      entityId: id,
      summary: `Deleted customer group ${before.name} (${Number(members.n)} members)`,
      before: { name: before.name, description: before.description, rule: parseRule(before.rule) },
      now,
    });
    return ok({ name: before.name });
  });
}
