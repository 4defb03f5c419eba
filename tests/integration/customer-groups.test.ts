import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import {
  createGroup,
  customerGroupIds,
  deleteGroup,
  getGroup,
  groupsOfCustomer,
  listGroups,
  updateGroup,
} from "../../app/domain/customer-groups/customer-groups.server.ts";
import {
  addMembers,
  importMembersCsv,
  readEmailsCsv,
  removeMember,
} from "../../app/domain/customer-groups/group-members.server.ts";
import { refreshGroup, refreshGroupRules } from "../../app/domain/customer-groups/group-rules.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder, insertUser } from "../helpers/account-fixtures.ts";

/**
 * Customer groups (issue 31, decision 034) through the real database on each engine: groups made,
 * renamed and deleted; customers added by e-mail (an unknown one refused by name), from a CSV whose
 * bad lines are reported, and by the rule "spent over $X" (placed orders net of refunds) — rule
 * members come and go with it, hand and CSV members stay; every change audited; a role without the
 * customers permission refused inside the command.
 */
const OWNER: StaffActor = { id: "owner-1", email: "owner@groups.example", role: "owner" };
const STAFF: StaffActor = { id: "staff-1", email: "staff@groups.example", role: "staff" };

describe.each(ENGINES)("customer groups on %s", (engine) => {
  let t: TestDatabase;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    for (const email of [
      "big@groups.example",
      "small@groups.example",
      "hand@groups.example",
      "csv@groups.example",
    ]) {
      ids[email] = await insertUser(t.db, email);
    }
    // big: $38.00 + $38.00 − $8.00 refunded = $68.00; small: $38.00 (and a failed payment)
    await insertOrder(t.db, { userId: ids["big@groups.example"]!, createdAt: "2026-11-01T10:00:00.000Z" });
    const refunded = await insertOrder(t.db, {
      userId: ids["big@groups.example"]!,
      createdAt: "2026-11-02T10:00:00.000Z",
    });
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 800, status: "partially_refunded" })
      .where("number", "=", refunded)
      .execute();
    await insertOrder(t.db, { userId: ids["small@groups.example"]!, createdAt: "2026-11-01T10:00:00.000Z" });
    await insertOrder(t.db, {
      userId: ids["small@groups.example"]!,
      createdAt: "2026-11-03T10:00:00.000Z",
      status: "payment_failed",
    });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  // SQLite may give a deleted group's id to the next one: each test reads the entries written since it began
  let auditFrom = 0;
  beforeEach(async () => {
    const last = await t.db
      .selectFrom("auditLog")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    auditFrom = Number(last?.id ?? 0);
  });
  const auditActions = async (groupId: number) =>
    (
      await t.db
        .selectFrom("auditLog")
        .select(["action"])
        .where("entityType", "=", "customer_group")
        .where("entityId", "=", String(groupId))
        .where("id", ">", auditFrom)
        .orderBy("id")
        .execute()
    ).map((row) => row.action);

  it("creates, renames and deletes a group (names unique in any case), each change audited", async () => {
    const created = await createGroup(t.db, {
      input: { name: "Wholesale", description: "Trade" },
      actor: OWNER,
    });
    if (!created.ok) throw new Error(created.error.code);
    const id = created.value.id;
    expect(await createGroup(t.db, { input: { name: "wholesale", description: "" }, actor: OWNER })).toEqual({
      ok: false,
      error: { code: "name-taken", name: "wholesale" },
    });
    const renamed = await updateGroup(t.db, {
      id,
      input: { name: "Trade customers", description: "Shops" },
      rule: null,
      actor: OWNER,
    });
    expect(renamed).toMatchObject({ ok: true, value: { changed: true, name: "Trade customers" } });
    const again = await updateGroup(t.db, {
      id,
      input: { name: "Trade customers", description: "Shops" },
      rule: null,
      actor: OWNER,
    });
    expect(again).toMatchObject({ ok: true, value: { changed: false } });
    expect((await listGroups(t.db)).find((group) => group.id === id)).toEqual({
      id,
      name: "Trade customers",
      description: "Shops",
      rule: null,
      memberCount: 0,
    });
    expect(await deleteGroup(t.db, { id, actor: OWNER })).toEqual({
      ok: true,
      value: { name: "Trade customers" },
    });
    expect(await getGroup(t.db, id)).toBeNull();
    expect(await auditActions(id)).toEqual([
      "customer_group.create",
      "customer_group.update",
      "customer_group.delete",
    ]);
    expect(
      await updateGroup(t.db, { id, input: { name: "X", description: "" }, rule: null, actor: OWNER }),
    ).toEqual({ ok: false, error: { code: "not-found" } });
  });

  it("adds customers by e-mail in any case, refuses an unknown e-mail by name, and removes a member", async () => {
    const created = await createGroup(t.db, { input: { name: "Friends", description: "" }, actor: OWNER });
    if (!created.ok) throw new Error(created.error.code);
    const id = created.value.id;
    expect(
      await addMembers(t.db, { id, emails: ["HAND@groups.example", "nobody@groups.example"], actor: OWNER }),
    ).toEqual({ ok: false, error: { code: "unknown-emails", emails: ["nobody@groups.example"] } });
    expect((await getGroup(t.db, id))?.memberCount).toBe(0);
    expect(await addMembers(t.db, { id, emails: ["HAND@groups.example"], actor: OWNER })).toEqual({
      ok: true,
      value: { name: "Friends", added: 1 },
    });
    // again: nothing new, nothing audited
    expect(await addMembers(t.db, { id, emails: ["hand@groups.example"], actor: OWNER })).toMatchObject({
      ok: true,
      value: { added: 0 },
    });
    const group = await getGroup(t.db, id);
    expect(group?.members.map((m) => [m.email, m.source])).toEqual([["hand@groups.example", "hand"]]);
    expect(await customerGroupIds(t.db, ids["hand@groups.example"]!)).toContain(id);
    expect(await groupsOfCustomer(t.db, ids["hand@groups.example"]!)).toContainEqual({
      id,
      name: "Friends",
      source: "hand",
    });
    expect(await removeMember(t.db, { id, userId: ids["hand@groups.example"]!, actor: OWNER })).toEqual({
      ok: true,
      value: { name: "Friends", email: "hand@groups.example" },
    });
    expect(await customerGroupIds(t.db, ids["hand@groups.example"]!)).not.toContain(id);
    expect(await auditActions(id)).toEqual([
      "customer_group.create",
      "customer_group.add_members",
      "customer_group.remove_member",
    ]);
  });

  it("reads a CSV of e-mails: a header skipped, the e-mail in any column, bad lines reported by number", () => {
    const read = readEmailsCsv(
      'name,email\nAda,ada@x.example\n\nno e-mail here\n"Bob",bob@x.example,extra\nbroken@\n',
    );
    expect(read).toEqual({
      ok: true,
      value: {
        emails: [
          { line: 2, email: "ada@x.example" },
          { line: 5, email: "bob@x.example" },
        ],
        problems: [
          { line: 4, message: "“no e-mail here” is not an e-mail address" },
          { line: 6, message: "“broken@” is not an e-mail address" },
        ],
      },
    });
  });

  it("imports a CSV: the customers it names are added, lines naming no customer reported", async () => {
    const created = await createGroup(t.db, { input: { name: "Newsletter", description: "" }, actor: OWNER });
    if (!created.ok) throw new Error(created.error.code);
    const id = created.value.id;
    const imported = await importMembersCsv(t.db, {
      id,
      text: "email\ncsv@groups.example\nstranger@groups.example\nnot an address\nCSV@groups.example\n",
      filename: "list.csv",
      actor: OWNER,
    });
    expect(imported).toEqual({
      ok: true,
      value: {
        name: "Newsletter",
        added: 1,
        problems: [
          { line: 3, message: "no customer has the e-mail stranger@groups.example" },
          { line: 4, message: "“not an address” is not an e-mail address" },
        ],
      },
    });
    expect((await getGroup(t.db, id))?.members.map((m) => [m.email, m.source])).toEqual([
      ["csv@groups.example", "csv"],
    ]);
    expect(await importMembersCsv(t.db, { id, text: "\n\n", actor: OWNER })).toMatchObject({
      ok: false,
      error: { code: "unreadable" },
    });
    expect(await auditActions(id)).toEqual(["customer_group.create", "customer_group.import"]);
  });

  it("a rule 'spent over $X' adds the customers it holds for and removes them when it no longer does; hand members stay", async () => {
    const created = await createGroup(t.db, { input: { name: "VIP", description: "" }, actor: OWNER });
    if (!created.ok) throw new Error(created.error.code);
    const id = created.value.id;
    await addMembers(t.db, { id, emails: ["hand@groups.example"], actor: OWNER });
    const members = async () =>
      Object.fromEntries((await getGroup(t.db, id))!.members.map((m) => [m.email, m.source]));
    // over $50.00: big ($68.00 net of the refund) only
    const saved = await updateGroup(t.db, {
      id,
      input: { name: "VIP", description: "" },
      rule: { type: "spent-over", cents: 5_000 },
      actor: OWNER,
    });
    expect(saved).toMatchObject({ ok: true, value: { changed: true, added: 1, removed: 0 } });
    expect(await members()).toEqual({ "big@groups.example": "rule", "hand@groups.example": "hand" });
    // over $30.00: small ($38.00; its failed payment does not count) joins
    await updateGroup(t.db, {
      id,
      input: { name: "VIP", description: "" },
      rule: { type: "spent-over", cents: 3_000 },
      actor: OWNER,
    });
    expect(await members()).toEqual({
      "big@groups.example": "rule",
      "hand@groups.example": "hand",
      "small@groups.example": "rule",
    });
    // small is refunded $10.00: $28.00, no longer over $30.00 — the daily job takes them out
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("userId", "=", ids["small@groups.example"]!)
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 1_000, status: "partially_refunded" })
      .where("id", "=", order.id)
      .execute();
    expect(await refreshGroupRules(t.db)).toMatchObject({ added: 0, removed: 1 });
    expect(await members()).toEqual({ "big@groups.example": "rule", "hand@groups.example": "hand" });
    // and back when the refund is undone, by the page's "Refresh members"
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 0, status: "paid" })
      .where("id", "=", order.id)
      .execute();
    expect(await refreshGroup(t.db, { id, actor: OWNER })).toEqual({
      ok: true,
      value: { name: "VIP", added: 1, removed: 0 },
    });
    // a rule member added by hand becomes a hand member: the rule no longer decides them
    await addMembers(t.db, { id, emails: ["small@groups.example"], actor: OWNER });
    // the rule removed: its rule members go, hand members stay
    const cleared = await updateGroup(t.db, {
      id,
      input: { name: "VIP", description: "" },
      rule: null,
      actor: OWNER,
    });
    expect(cleared).toMatchObject({ ok: true, value: { removed: 1 } });
    expect(await members()).toEqual({ "hand@groups.example": "hand", "small@groups.example": "hand" });
    // removed by hand, a rule member comes back at the rule's next run only
    expect(await refreshGroup(t.db, { id, actor: OWNER })).toEqual({ ok: false, error: { code: "no-rule" } });
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail", "summary"])
      .where("entityType", "=", "customer_group")
      .where("entityId", "=", String(id))
      .where("action", "=", "customer_group.refresh")
      .where("id", ">", auditFrom)
      .orderBy("id")
      .execute();
    expect(audit.map((row) => [row.actorEmail, row.summary])).toEqual([
      ["owner@groups.example", "Rule of customer group VIP: 1 added, 0 removed"],
      ["owner@groups.example", "Rule of customer group VIP: 1 added, 0 removed"],
      ["system", "Rule of customer group VIP: 0 added, 1 removed"],
      ["owner@groups.example", "Rule of customer group VIP: 1 added, 0 removed"],
      ["owner@groups.example", "Rule of customer group VIP: 0 added, 1 removed"],
    ]);
  });

  it("refuses every command to a role without the customers permission, writing nothing", async () => {
    const before = await listGroups(t.db);
    const forbidden = { ok: false, error: { code: "forbidden" } };
    expect(await createGroup(t.db, { input: { name: "Nope", description: "" }, actor: STAFF })).toEqual(
      forbidden,
    );
    const id = before[0]!.id;
    expect(await addMembers(t.db, { id, emails: ["hand@groups.example"], actor: STAFF })).toEqual(forbidden);
    expect(await importMembersCsv(t.db, { id, text: "hand@groups.example", actor: STAFF })).toEqual(
      forbidden,
    );
    expect(await removeMember(t.db, { id, userId: ids["hand@groups.example"]!, actor: STAFF })).toEqual(
      forbidden,
    );
    expect(await refreshGroup(t.db, { id, actor: STAFF })).toEqual(forbidden);
    expect(
      await updateGroup(t.db, { id, input: { name: "Renamed", description: "" }, rule: null, actor: STAFF }),
    ).toEqual(forbidden);
    expect(await deleteGroup(t.db, { id, actor: STAFF })).toEqual(forbidden);
    expect(await listGroups(t.db)).toEqual(before);
  });
});
