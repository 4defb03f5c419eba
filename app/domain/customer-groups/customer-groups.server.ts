import { CsvError, parse } from "csv-parse/sync";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { can } from "../../lib/staff-roles.ts";
import { type Actor, recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";
import {
  type CsvLineProblem,
  type GroupMemberSource,
  type GroupRule,
  GROUP_MESSAGES as M,
} from "./group-form.ts";

/**
 * Customer groups (Admin → Customer groups, issue 31, decision 034). A group holds customer
 * accounts: added by hand (by e-mail), from a CSV of e-mails, or by the group's rule ("spent over
 * $X": placed orders, net of refunds, as Admin → Customers counts "total spent"). Applying the rule
 * recomputes only the members it brought in ('rule'); those added by hand or by CSV stay until
 * removed, and one added by hand who already was a rule member becomes a hand member. Promotions
 * name groups in their `customer-group` condition; the cart asks `customerGroupIds`.
 *
 * Every command takes the acting staff member and decides itself whether their role may manage
 * customers (decision 025): "forbidden" otherwise. Every change is written with its audit entry in
 * one transaction. The daily job (`refreshGroupRules`) applies every rule as the system.
 */

type Trx = Transaction<DB> | Kysely<DB>;

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

interface GroupSaved {
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

/** How many members a group's page lists (the count is of all). */
export const MEMBERS_SHOWN = 500;

/** The system's name in the audit log when the daily job applies the rules. */
export const SYSTEM_ACTOR: Actor = { id: "system", email: "system" };

const isCustomer = sql<boolean>`(users.role = 'customer' or users.role is null)`;

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

const auditOf = (actor: StaffActor): Actor => ({ id: actor.id, email: actor.email });

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

/** A command's transaction, after the actor's permission is checked. */
async function asManager<T>(
  db: Database,
  actor: StaffActor,
  change: (trx: Transaction<DB>) => Promise<GroupResult<T>>,
): Promise<GroupResult<T>> {
  if (!can(actor.role, "customers")) return fail({ code: "forbidden" });
  return db.transaction().execute(change);
}

async function groupRow(trx: Trx, id: number) {
  return trx
    .selectFrom("customerGroups")
    .select(["id", "name", "description", "rule"])
    .where("id", "=", id)
    .executeTakeFirst();
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

/** The customer accounts with these e-mails (any case), by lower-case e-mail. */
async function customersByEmail(trx: Trx, emails: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const lower = [...new Set(emails.map((email) => email.toLowerCase()))];
  for (let i = 0; i < lower.length; i += 500) {
    const rows = await trx
      .selectFrom("users")
      .select(["users.id", "users.email"])
      .where((eb) => eb(eb.fn("lower", ["users.email"]), "in", lower.slice(i, i + 500)))
      .where(isCustomer)
      .execute();
    for (const row of rows) found.set(row.email.toLowerCase(), row.id);
  }
  return found;
}

/**
 * Puts these accounts in the group as `source` members: new ones inserted, rule members become
 * `source` members (the rule no longer decides them); hand and CSV members stay as they are.
 * Returns the e-mails that were not members before.
 */
async function putMembers(
  trx: Transaction<DB>,
  groupId: number,
  users: ReadonlyMap<string, string>,
  source: "hand" | "csv",
  at: string,
): Promise<string[]> {
  const ids = [...users.values()];
  const existing = new Map<string, GroupMemberSource>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom("customerGroupMembers")
      .select(["userId", "source"])
      .where("groupId", "=", groupId)
      .where("userId", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) existing.set(row.userId, row.source);
  }
  const added: string[] = [];
  for (const [email, userId] of users) {
    const had = existing.get(userId);
    if (had === undefined) {
      await trx.insertInto("customerGroupMembers").values({ groupId, userId, source, addedAt: at }).execute();
      added.push(email);
    } else if (had === "rule") {
      await trx
        .updateTable("customerGroupMembers")
        .set({ source })
        .where("groupId", "=", groupId)
        .where("userId", "=", userId)
        .execute();
    }
  }
  return added;
}

/** Adds customers by e-mail; refused, naming them, when any e-mail is no customer's. */
export async function addMembers(
  db: Database,
  { id, emails, actor, now = new Date() }: { id: number; emails: string[]; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ name: string; added: number }>> {
  return asManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const found = await customersByEmail(trx, emails);
    const unknown = [...new Set(emails.filter((email) => !found.has(email.toLowerCase())))];
    if (unknown.length > 0) return fail({ code: "unknown-emails", emails: unknown });
    const added = await putMembers(trx, id, found, "hand", now.toISOString());
    if (added.length > 0) {
      await recordAudit(trx, {
        actor: auditOf(actor),
        action: "customer_group.add_members",
        entityType: "customer_group",
        entityId: id,
        summary: `Added ${added.length} to customer group ${group.name}: ${added.join(", ")}`,
        after: { added },
        now,
      });
    }
    return ok({ name: group.name, added: added.length });
  });
}

/** Takes a customer out of the group, whatever brought them in (a rule member comes back at the rule's next run). */
export async function removeMember(
  db: Database,
  { id, userId, actor, now = new Date() }: { id: number; userId: string; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ name: string; email: string }>> {
  return asManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const member = await trx
      .selectFrom("customerGroupMembers")
      .innerJoin("users", "users.id", "customerGroupMembers.userId")
      .select(["users.email", "customerGroupMembers.source"])
      .where("customerGroupMembers.groupId", "=", id)
      .where("customerGroupMembers.userId", "=", userId)
      .executeTakeFirst();
    if (!member) return fail({ code: "not-found" });
    await trx
      .deleteFrom("customerGroupMembers")
      .where("groupId", "=", id)
      .where("userId", "=", userId)
      .execute();
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.remove_member",
      entityType: "customer_group",
      entityId: id,
      summary: `Removed ${member.email} from customer group ${group.name}`,
      before: { email: member.email, source: member.source },
      now,
    });
    return ok({ name: group.name, email: member.email });
  });
}

const EMAIL = /^[^\s@",;<>]{1,64}@[^\s@",;<>]{1,189}\.[^\s@",;<>]{1,63}$/;

/**
 * A CSV's e-mails with their line numbers: on each line, the first cell holding an "@" (so a one-column
 * list and an export with the e-mail in any column both work); a first line without one is a header;
 * other lines without an e-mail are problems.
 */
export function readEmailsCsv(
  text: string,
): Result<
  { emails: { line: number; email: string }[]; problems: CsvLineProblem[] },
  { code: "unreadable"; message: string }
> {
  let parsed: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError)
      return fail({ code: "unreadable", message: `The file is not a readable CSV: ${error.message}` });
    throw error;
  }
  const emails: { line: number; email: string }[] = [];
  const problems: CsvLineProblem[] = [];
  let previousEnd = 0;
  let previousEmpty = 0;
  parsed.forEach(({ record, info }, index) => {
    const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
    previousEnd = info.lines;
    previousEmpty = info.empty_lines;
    const cells = record.map((cell) => cell.trim()).filter((cell) => cell !== "");
    if (cells.length === 0) return;
    const email = cells.find((cell) => cell.includes("@"));
    if (email === undefined) {
      if (index === 0) return; // a header: "email", "Name,E-mail"…
      problems.push({ line, message: M.notEmail(cells.join(", ")) });
    } else if (!EMAIL.test(email)) problems.push({ line, message: M.notEmail(email) });
    else emails.push({ line, email });
  });
  return ok({ emails, problems });
}

/**
 * Adds the customers a CSV of e-mails names (as 'csv' members); the lines that name no customer, or
 * no e-mail, are reported with their line numbers and the rest is still added.
 */
export async function importMembersCsv(
  db: Database,
  {
    id,
    text,
    filename = "",
    actor,
    now = new Date(),
  }: { id: number; text: string; filename?: string; actor: StaffActor; now?: Date },
): Promise<GroupResult<{ name: string; added: number; problems: CsvLineProblem[] }>> {
  return asManager(db, actor, async (trx) => {
    const group = await groupRow(trx, id);
    if (!group) return fail({ code: "not-found" });
    const read = readEmailsCsv(text);
    if (!read.ok) return read;
    const { emails } = read.value;
    if (emails.length === 0 && read.value.problems.length === 0) {
      return fail({ code: "unreadable", message: M.emptyFile });
    }
    const found = await customersByEmail(
      trx,
      emails.map((entry) => entry.email),
    );
    const problems = [...read.value.problems];
    const users = new Map<string, string>();
    for (const { line, email } of emails) {
      const userId = found.get(email.toLowerCase());
      if (userId === undefined) problems.push({ line, message: M.unknownLine(email) });
      else users.set(email.toLowerCase(), userId);
    }
    problems.sort((a, b) => a.line - b.line);
    const added = await putMembers(trx, id, users, "csv", now.toISOString());
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "customer_group.import",
      entityType: "customer_group",
      entityId: id,
      summary: `Imported ${added.length} into customer group ${group.name}${filename ? ` from ${filename}` : ""}; ${problems.length} lines named no customer`,
      after: { added, problems: problems.slice(0, 100) },
      now,
    });
    return ok({ name: group.name, added: added.length, problems });
  });
}

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
async function applyRule(
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
