import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type Driver, type Generated, Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openSqlite } from "./sqlite-connection.server.ts";
import { createNodeSqliteDialect, NodeSqliteDialect, statementKind } from "./sqlite-dialect.server.ts";

interface CounterDb {
  counter: { id: Generated<number>; value: number };
  things: { id: Generated<number>; label: string; flag: number | null; at: string | null };
}

let dir: string;
let path: string;
let db: Kysely<CounterDb>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "cartwheel-dialect-"));
  path = join(dir, "test.db");
  db = new Kysely<CounterDb>({ dialect: createNodeSqliteDialect(path) });
  await sql`create table counter (id integer primary key, value integer not null)`.execute(db);
  await sql`insert into counter (id, value) values (1, 0)`.execute(db);
  await sql`create table things (id integer primary key, label text not null, flag integer, at text)`.execute(
    db,
  );
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** A second, independent connection to the same file that gives up on a lock after `timeout` ms. */
function otherConnection(timeout = 50): DatabaseSync {
  return new DatabaseSync(path, { timeout });
}

describe("openSqlite PRAGMAs", () => {
  it("sets WAL, foreign keys, synchronous FULL and a busy timeout on every connection", () => {
    const connection = openSqlite(path);
    try {
      const pragma = (name: string) =>
        connection.raw.prepare(`pragma ${name}`).get() as Record<string, unknown>;
      expect(pragma("journal_mode")).toEqual({ journal_mode: "wal" });
      expect(pragma("foreign_keys")).toEqual({ foreign_keys: 1 });
      expect(pragma("synchronous")).toEqual({ synchronous: 2 });
      expect(Number(Object.values(pragma("busy_timeout"))[0])).toBeGreaterThanOrEqual(1000);
    } finally {
      connection.close();
    }
  });

  it("applies them to the connection Kysely uses", async () => {
    const first = async (query: string) =>
      Object.values((await sql.raw<Record<string, unknown>>(query).execute(db)).rows[0]!)[0];
    expect(await first("pragma journal_mode")).toBe("wal");
    expect(await first("pragma foreign_keys")).toBe(1);
    expect(await first("pragma synchronous")).toBe(2);
    expect(Number(await first("pragma busy_timeout"))).toBeGreaterThanOrEqual(1000);
  });

  it("enforces foreign keys", async () => {
    await sql`create table parent (id integer primary key)`.execute(db);
    await sql`create table child (id integer primary key, parent_id integer not null references parent(id))`.execute(
      db,
    );
    await expect(sql`insert into child (id, parent_id) values (1, 42)`.execute(db)).rejects.toThrow(
      /FOREIGN KEY/i,
    );
  });
});

describe("statements", () => {
  it("returns rows for readers, including insert … returning, and change counts for writers", async () => {
    const inserted = await db
      .insertInto("things")
      .values({ label: "a" })
      .returning(["id", "label"])
      .execute();
    expect(inserted).toEqual([{ id: 1, label: "a" }]);
    const updated = await db.updateTable("things").set({ label: "b" }).where("id", "=", 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    // the same SQL again comes from the statement cache and must still work
    const again = await db.insertInto("things").values({ label: "c" }).returning(["id", "label"]).execute();
    expect(again).toEqual([{ id: 2, label: "c" }]);
  });

  it("binds booleans as 0/1 and dates as ISO strings", async () => {
    const at = new Date(Date.UTC(2026, 10, 22, 2, 0, 0));
    await db
      .insertInto("things")
      .values({ label: "x", flag: true as never, at: at as never })
      .execute();
    const row = await db.selectFrom("things").selectAll().executeTakeFirstOrThrow();
    expect(row.flag).toBe(1);
    expect(row.at).toBe("2026-11-22T02:00:00.000Z");
  });
});

describe("transactions", () => {
  it("begin IMMEDIATE: an open transaction holds the write lock before its first statement", async () => {
    const other = otherConnection();
    try {
      // Sanity: with no transaction open, the other connection can write.
      other.exec("insert into things (label) values ('outside')");
      await db.transaction().execute(async () => {
        // A deferred BEGIN would take no lock until the first write; IMMEDIATE takes it at once.
        expect(() => other.exec("insert into things (label) values ('blocked')")).toThrow(/locked|busy/i);
        expect(() => other.exec("begin immediate")).toThrow(/locked|busy/i);
      });
      // Released on commit.
      other.exec("insert into things (label) values ('after')");
    } finally {
      other.close();
    }
    const labels = (await db.selectFrom("things").select("label").orderBy("id").execute()).map(
      (r) => r.label,
    );
    expect(labels).toEqual(["outside", "after"]);
  });

  it("a second writer's transaction fails fast instead of deadlocking on a lock upgrade", async () => {
    const other = otherConnection();
    try {
      other.exec("begin immediate");
      other.exec("insert into things (label) values ('held')");
      // Our begin immediate cannot get the lock (the other side holds it, busy timeout applies).
      const blocked = new Kysely<CounterDb>({
        dialect: createNodeSqliteDialect(path),
      });
      try {
        // shorten the wait so the test is quick
        await sql`pragma busy_timeout = 50`.execute(blocked);
        await expect(
          blocked.transaction().execute(async (trx) => {
            await trx.insertInto("things").values({ label: "mine" }).execute();
          }),
        ).rejects.toThrow(/locked|busy/i);
      } finally {
        other.exec("commit");
        await blocked.destroy();
      }
    } finally {
      other.close();
    }
    const labels = (await db.selectFrom("things").select("label").execute()).map((r) => r.label);
    expect(labels).toEqual(["held"]);
  });

  it("rolls back when the callback throws", async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable("counter").set({ value: 99 }).where("id", "=", 1).execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { value } = await db.selectFrom("counter").select("value").executeTakeFirstOrThrow();
    expect(value).toBe(0);
  });

  it("serialises concurrent transactions on one instance (read-modify-write keeps every increment)", async () => {
    const increment = () =>
      db.transaction().execute(async (trx) => {
        const { value } = await trx
          .selectFrom("counter")
          .select("value")
          .where("id", "=", 1)
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 1)); // yield so others would interleave
        await trx
          .updateTable("counter")
          .set({ value: value + 1 })
          .where("id", "=", 1)
          .execute();
      });
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, increment),
      // plain queries in between must wait their turn too, not run inside someone's transaction
      ...Array.from({ length: 5 }, () => db.selectFrom("counter").select("value").execute()),
    ]);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const { value } = await db.selectFrom("counter").select("value").executeTakeFirstOrThrow();
    expect(value).toBe(20);
  });
});

describe("group commit", () => {
  /** counts the COMMITs the connection runs (the transactions' own, the groups') */
  function countCommits() {
    const exec = vi.spyOn(DatabaseSync.prototype, "exec");
    return {
      commits: () => exec.mock.calls.filter(([statement]) => /^\s*commit\b/i.test(String(statement))).length,
      restore: () => exec.mockRestore(),
    };
  }
  const labels = async () =>
    (await db.selectFrom("things").select("label").orderBy("label").execute()).map((r) => r.label);
  const insert = (label: string) =>
    db.transaction().execute(async (trx) => {
      await trx.insertInto("things").values({ label }).execute();
    });

  it("transactions queued for the connection meanwhile share one COMMIT, each durable when it resolves", async () => {
    const other = otherConnection();
    const spy = countCommits();
    try {
      const seenByOther: string[][] = [];
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          await insert(`t${i}`);
          // resolved only after the COMMIT: another connection sees it at once
          const row = other.prepare("select label from things where label = ?").get(`t${i}`);
          seenByOther.push(row ? [String(row.label)] : []);
        }),
      );
      expect(spy.commits()).toBe(1);
      expect(seenByOther.flat().sort()).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`).sort());
    } finally {
      spy.restore();
      other.close();
    }
  });

  it("a member that fails rolls back alone; the others of its group commit", async () => {
    const results = await Promise.allSettled([
      insert("a"),
      db.transaction().execute(async (trx) => {
        await trx.insertInto("things").values({ label: "b" }).execute();
        throw new Error("b fails");
      }),
      insert("c"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await labels()).toEqual(["a", "c"]);
  });

  it("a failed COMMIT fails every member of the group and keeps nothing of theirs", async () => {
    await sql`create table parent (id integer primary key)`.execute(db);
    await sql`create table child (id integer primary key, parent_id integer not null
      references parent(id) deferrable initially deferred)`.execute(db);
    const results = await Promise.allSettled([
      insert("kept?"),
      db.transaction().execute(async (trx) => {
        // a deferred constraint is checked at COMMIT: this member makes the group's COMMIT fail
        await sql`insert into child (id, parent_id) values (1, 42)`.execute(trx);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await labels()).toEqual([]);
    // the connection goes on: a later transaction commits
    await insert("later");
    expect(await labels()).toEqual(["later"]);
  });

  it("row changes outside a transaction made meanwhile share one COMMIT, each durable when it resolves", async () => {
    const other = otherConnection();
    await db
      .insertInto("things")
      .values(Array.from({ length: 10 }, (_, i) => ({ label: `r${i}` })))
      .execute();
    const spy = countCommits();
    try {
      const seenByOther: unknown[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          await db.updateTable("things").set({ flag: 1 }).where("label", "=", `r${i}`).execute();
          seenByOther.push(other.prepare("select flag from things where label = ?").get(`r${i}`)?.flag);
        }),
      );
      expect(spy.commits()).toBe(1);
      expect(seenByOther).toEqual(Array.from({ length: 10 }, () => 1));
    } finally {
      spy.restore();
      other.close();
    }
    // a failing row change rolls back alone
    await expect(
      db
        .insertInto("things")
        .values({ label: null as never })
        .execute(),
    ).rejects.toThrow(/NOT NULL/);
    expect((await labels()).length).toBe(10);
  });

  it("a connection kept after its transaction committed waits for the lock again (never runs inside another's transaction)", async () => {
    let outside: Promise<unknown> | undefined;
    await db.connection().execute(async (connection) => {
      await connection.transaction().execute(async (trx) => {
        await trx.insertInto("things").values({ label: "a" }).execute();
      });
      // the commit gave the lock up; another transaction takes it and later rolls back
      outside = db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto("things").values({ label: "y" }).execute();
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error("y rolls back");
        })
        .catch((error: unknown) => error);
      await new Promise((resolve) => setImmediate(resolve));
      // must not run inside that transaction (it would be rolled back with it)
      await connection.insertInto("things").values({ label: "c" }).execute();
    });
    expect(String(await outside)).toMatch(/y rolls back/);
    expect(await labels()).toEqual(["a", "c"]);
  });

  it("a single write joins an open group and is itself durable when it returns", async () => {
    const other = otherConnection();
    const spy = countCommits();
    try {
      let member: Promise<void> | undefined;
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("things").values({ label: "first" }).execute();
        // queued while this transaction holds the connection: runs after it, before the group's COMMIT
        member = insert("member");
      });
      await member;
      await Promise.all([insert("grouped"), db.insertInto("things").values({ label: "single" }).execute()]);
      expect(other.prepare("select count(*) as n from things").get()).toEqual({ n: 4 });
      // first + member share one COMMIT; "grouped" and the single write share the next
      expect(spy.commits()).toBe(2);
    } finally {
      spy.restore();
      other.close();
    }
    expect(await labels()).toEqual(["first", "grouped", "member", "single"]);
  });

  it("classifies statements by Kysely's query, not their text: a WITH read runs inside the open group, a WITH insert joins it", async () => {
    const spy = countCommits();
    try {
      await Promise.all([
        insert("a"),
        // a select with a CTE is a read: it must not force the open group's COMMIT
        db
          .with("labelled", (q) => q.selectFrom("things").select("label"))
          .selectFrom("labelled")
          .selectAll()
          .execute(),
        // an insert with a CTE is a row change outside a transaction: it joins the group
        db
          .with("source", (q) => q.selectFrom("counter").select("value"))
          .insertInto("things")
          .columns(["label"])
          .expression((eb) => eb.selectFrom("source").select(sql<string>`'from-cte'`.as("label")))
          .execute(),
        insert("b"),
      ]);
      expect(spy.commits()).toBe(1);
    } finally {
      spy.restore();
    }
    expect(await labels()).toEqual(["a", "b", "from-cte"]);
    // raw SQL is a read only when it reads; anything else commits the group first (safe)
    const kind = (text: string, rows: boolean) =>
      statementKind({ sql: text, query: { kind: "RawNode" }, parameters: [] } as never, () => rows);
    expect(kind("with x as (select 1) select * from x", true)).toBe("read");
    expect(kind("/* a note */ select label from things", true)).toBe("read");
    expect(kind("with x as (select 1) insert into things (label) select 'y' from x returning id", true)).toBe(
      "other",
    );
    expect(kind("pragma table_info(things)", true)).toBe("other");
    expect(kind("create table z (id integer)", false)).toBe("other");
  });

  it("a COMMIT and then a ROLLBACK that both fail reject the members and leave the process and the connection working", async () => {
    const realExec = DatabaseSync.prototype.exec;
    const failing = { commit: 1, rollback: 1 };
    const exec = vi.spyOn(DatabaseSync.prototype, "exec").mockImplementation(function (
      this: DatabaseSync,
      statement: string,
    ) {
      const word = statement.trim().toLowerCase() as keyof typeof failing;
      if (word in failing && failing[word] > 0) {
        failing[word]--;
        throw new Error(`disk I/O error (${word})`);
      }
      return realExec.call(this, statement);
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const results = await Promise.allSettled([insert("lost-1"), insert("lost-2")]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/disk I\/O error \(commit\)/);
      expect(failing).toEqual({ commit: 0, rollback: 0 });
      // the connection was replaced: later work commits
      await insert("later");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      exec.mockRestore();
    }
    expect(await labels()).toEqual(["later"]);
  });

  it("the write lock is free again once the last member resolved", async () => {
    await Promise.all([insert("x"), insert("y")]);
    const other = otherConnection();
    try {
      expect(() => other.exec("insert into things (label) values ('other')")).not.toThrow();
    } finally {
      other.close();
    }
    expect(await labels()).toEqual(["other", "x", "y"]);
  });
});

describe("change stamp (for the page cache)", () => {
  /** A Kysely of its own on the test file, with the dialect object it was made with. */
  const dialectOf = () => {
    const dialect = createNodeSqliteDialect(path);
    return { dialect, kysely: new Kysely<CounterDb>({ dialect }) };
  };

  it("is null until the database is opened, then stays put across reads", async () => {
    const { dialect, kysely } = dialectOf();
    try {
      expect(dialect.changeStamp()).toBeNull();
      await kysely.selectFrom("counter").selectAll().execute();
      const stamp = dialect.changeStamp();
      expect(stamp).toMatch(/^\d+:\d+:\d+$/);
      await kysely.selectFrom("counter").selectAll().execute();
      await kysely.selectFrom("things").selectAll().execute();
      expect(dialect.changeStamp()).toBe(stamp);
    } finally {
      await kysely.destroy();
    }
  });

  it("moves with a write of this connection, inside a transaction before its commit too", async () => {
    const { dialect, kysely } = dialectOf();
    try {
      await kysely.selectFrom("counter").selectAll().execute();
      const before = dialect.changeStamp();
      await kysely.updateTable("counter").set({ value: 1 }).where("id", "=", 1).execute();
      const afterWrite = dialect.changeStamp();
      expect(afterWrite).not.toBe(before);
      let insideTransaction: string | null = null;
      await kysely.transaction().execute(async (trx) => {
        await trx.insertInto("things").values({ label: "new" }).execute();
        insideTransaction = dialect.changeStamp();
      });
      expect(insideTransaction).not.toBe(afterWrite);
    } finally {
      await kysely.destroy();
    }
  });

  it("moves when a group whose writes reads could see is rolled back by a failed COMMIT", async () => {
    const { dialect, kysely } = dialectOf();
    try {
      await sql`create table parent (id integer primary key)`.execute(kysely);
      await sql`create table child (id integer primary key, parent_id integer not null
        references parent(id) deferrable initially deferred)`.execute(kysely);
      let seenDuringGroup: string | null = null;
      const results = await Promise.allSettled([
        kysely.transaction().execute(async (trx) => {
          await sql`insert into child (id, parent_id) values (1, 42)`.execute(trx);
        }),
        // runs after the member released its savepoint, before the group's COMMIT: a page render
        // here reads the member's write and would be cached under this stamp
        (async () => {
          await kysely.selectFrom("counter").selectAll().execute();
          seenDuringGroup = dialect.changeStamp();
        })(),
      ]);
      expect(results[0].status).toBe("rejected");
      expect(seenDuringGroup).not.toBeNull();
      expect(dialect.changeStamp()).not.toBe(seenDuringGroup);
    } finally {
      await kysely.destroy();
    }
  });

  it("moves when another connection (another process) commits, not when it only reads", async () => {
    const { dialect, kysely } = dialectOf();
    const other = otherConnection(1_000);
    try {
      await kysely.selectFrom("counter").selectAll().execute();
      const before = dialect.changeStamp();
      other.prepare("select * from counter").all();
      expect(dialect.changeStamp()).toBe(before);
      other.prepare("update counter set value = value + 1 where id = 1").run();
      expect(dialect.changeStamp()).not.toBe(before);
    } finally {
      other.close();
      await kysely.destroy();
    }
  });
});

describe("contract with Kysely (what the dialect leans on)", () => {
  /** A dialect whose driver and connections record the calls Kysely makes on them. */
  class RecordingDialect extends NodeSqliteDialect {
    readonly calls: string[] = [];
    override createDriver(): Driver {
      const record = <T extends object>(target: T, label: (name: string) => string): T =>
        new Proxy(target, {
          get: (object, name) => {
            const value = Reflect.get(object, name, object);
            if (typeof value !== "function") return value;
            return (...args: unknown[]) => {
              this.calls.push(label(String(name)));
              const result = value.apply(object, args);
              // connections Kysely acquires are recorded too
              return name === "acquireConnection"
                ? (result as Promise<object>).then((c) => record(c, (n) => `connection.${n}`))
                : result;
            };
          },
        });
      return record(super.createDriver(), (n) => n);
    }
  }

  it("drives a transaction, a query and a stream through the driver calls the dialect implements", async () => {
    const dialect = new RecordingDialect(path);
    const kysely = new Kysely<CounterDb>({ dialect });
    try {
      await kysely.selectFrom("counter").selectAll().execute();
      // Kysely's calls (the Driver and DatabaseConnection interfaces), not the dialect's own
      const kyselyCalls =
        /^(acquireConnection|beginTransaction|commitTransaction|rollbackTransaction|releaseConnection|connection\.(executeQuery|streamQuery))$/;
      const calls = () => dialect.calls.filter((c) => kyselyCalls.test(c));
      expect(calls()).toEqual(["acquireConnection", "connection.executeQuery", "releaseConnection"]);
      dialect.calls.length = 0;
      await kysely.transaction().execute(async (trx) => {
        await trx.updateTable("counter").set({ value: 5 }).execute();
      });
      expect(calls()).toEqual([
        "acquireConnection",
        "beginTransaction",
        "connection.executeQuery",
        "commitTransaction",
        "releaseConnection",
      ]);
      dialect.calls.length = 0;
      const streamed = [];
      for await (const row of kysely.selectFrom("counter").selectAll().stream()) streamed.push(row);
      expect(streamed).toEqual([{ id: 1, value: 5 }]);
      expect(calls()).toEqual(["acquireConnection", "connection.streamQuery", "releaseConnection"]);
    } finally {
      await kysely.destroy();
    }
  });

  it("names the query nodes the dialect classifies statements by", () => {
    const kinds = [
      db.selectFrom("counter").selectAll(),
      db
        .with("c", (q) => q.selectFrom("counter").selectAll())
        .selectFrom("c")
        .selectAll(),
      db.insertInto("things").values({ label: "x" }),
      db.updateTable("things").set({ label: "y" }),
      db.deleteFrom("things"),
    ].map((query) => query.compile().query.kind);
    expect(kinds).toEqual([
      "SelectQueryNode",
      "SelectQueryNode",
      "InsertQueryNode",
      "UpdateQueryNode",
      "DeleteQueryNode",
    ]);
    expect(sql`select 1`.compile(db).query.kind).toBe("RawNode");
  });

  it("lets the driver keep its own lock: Kysely adds no mutex of its own", () => {
    expect(new NodeSqliteDialect(path).createAdapter().supportsMultipleConnections).toBe(true);
  });
});
