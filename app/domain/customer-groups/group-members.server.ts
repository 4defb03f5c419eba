import { CsvError, parse } from "csv-parse/sync";
import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { type CsvLineProblem, type GroupMemberSource, GROUP_MESSAGES as M } from "./group-form.ts";
import {
  asManager,
  auditOf,
  type GroupResult,
  groupRow,
  isCustomer,
  type Trx,
} from "./group-store.server.ts";

/**
 * A customer group's members added by hand (by e-mail) or from a CSV of e-mails, and removed
 * (decision 034). Adding someone the rule brought in makes them a hand or CSV member: the rule no
 * longer decides them.
 */

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
