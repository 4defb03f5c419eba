import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
} from "kysely";
import { type NodeSqliteDatabase, openSqlite } from "./sqlite-connection.server.ts";

/**
 * Kysely has no node:sqlite dialect. This one drives the process's single `DatabaseSync`
 * connection with group commit (decision 009):
 *
 * - Every transaction is a member of a group: the first member opens `BEGIN IMMEDIATE` (so two
 *   writers never deadlock on a lock upgrade), each member runs inside its own savepoint, and the
 *   group's one `COMMIT` — one fsync with `synchronous = FULL` — comes when the transactions that
 *   were queued for the connection meanwhile have run. A member's commit resolves only once that
 *   COMMIT succeeded, so nothing is reported committed before it is durable; a member that fails
 *   rolls back to its savepoint and leaves the others alone; a failed COMMIT fails every member.
 * - Transactions and statements take the connection one at a time (a FIFO lock, as Kysely's own
 *   single-connection mutex). A row change outside a transaction (insert, update, delete) joins
 *   the group as a one-statement transaction, durable when it returns; any other statement (DDL,
 *   PRAGMA) first commits an open group and runs on its own. A single read may run while a group
 *   is open and then sees its members' writes before their COMMIT.
 */
export function createNodeSqliteDialect(path: string): NodeSqliteDialect {
  return new NodeSqliteDialect(path);
}

/** `data_version` moves when another connection commits; `total_changes()` when this one writes. */
const CHANGE_STAMP_SQL =
  "select data_version as version, total_changes() as changes from pragma_data_version";

export class NodeSqliteDialect extends SqliteDialect {
  readonly #path: string;
  constructor(path: string) {
    super({ database: () => Promise.reject(new Error("unused: the driver opens the database")) });
    this.#path = path;
  }
  #driver: GroupCommitDriver | null = null;
  override createDriver(): Driver {
    this.#driver = new GroupCommitDriver(() => openSqlite(this.#path));
    return this.#driver;
  }
  /** See GroupCommitDriver.changeStamp. */
  changeStamp(): string | null {
    return this.#driver?.changeStamp() ?? null;
  }
  override createAdapter() {
    return new OwnLockSqliteAdapter();
  }
}

/** The driver takes its own lock (below), so Kysely must not add its single-connection mutex. */
class OwnLockSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * How long this process's write transactions held the write lock, in all (a statement outside a
 * transaction counts as one): what `npm run bench` reports per order (decision 020).
 */
export const writeLockStats = { transactions: 0, heldMs: 0 };

/**
 * The longest statement this process ran on its own thread (node:sqlite holds the thread while it
 * runs): what the stall test and the bench read (decision 041); reset by setting it to 0.
 */
export const appThreadStatements = { longestMs: 0, longestSql: "" };

/** A first-come, first-served lock. */
class FifoLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];
  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** A transaction whose savepoint was released, waiting for its group's COMMIT. */
interface Member {
  resolve: () => void;
  reject: (error: unknown) => void;
}

const MEMBER_SAVEPOINT = "cw_group_member";

/**
 * What a statement does, from the query Kysely compiled (never from its text alone):
 * - "read": a select (CTEs included) — the only single statement that may run inside an open group;
 * - "row-write": an insert, update or delete — outside a transaction it joins the group;
 * - "other": DDL, PRAGMAs and raw SQL — the open group commits first and it runs on its own.
 * Raw SQL (`sql\`…\``) counts as a read only when it returns rows, starts with SELECT or WITH and
 * names no writing keyword; anything else is "other", which is always safe (it only costs a COMMIT).
 */
export type StatementKind = "read" | "row-write" | "other";

export function statementKind(compiled: CompiledQuery, returnsRows: () => boolean): StatementKind {
  switch (compiled.query.kind) {
    case "SelectQueryNode":
      return "read";
    case "InsertQueryNode":
    case "UpdateQueryNode":
    case "DeleteQueryNode":
    case "MergeQueryNode":
      return "row-write";
    case "RawNode": {
      const text = compiled.sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ");
      const read =
        /^\s*(select|with)\b/i.test(text) &&
        !/\b(insert|update|delete|replace|create|drop|alter|pragma|attach|vacuum)\b/i.test(text);
      return read && returnsRows() ? "read" : "other";
    }
    default:
      return "other";
  }
}

class GroupCommitDriver implements Driver {
  readonly #open: () => NodeSqliteDatabase;
  #db: NodeSqliteDatabase | null = null;
  readonly #lock = new FifoLock();
  /** members of the open group (an open BEGIN IMMEDIATE), or null when none is open */
  #group: Member[] | null = null;
  #flushQueued = false;
  /** groups rolled back after their members' writes were visible to reads (part of changeStamp) */
  #rollbacks = 0;

  constructor(open: () => NodeSqliteDatabase) {
    this.#open = open;
  }

  get #database(): NodeSqliteDatabase {
    if (!this.#db) throw new Error("the database is closed");
    return this.#db;
  }

  async init(): Promise<void> {
    this.#db = this.#open();
  }

  /**
   * Changes as soon as this connection changed a row (even before that change is committed),
   * another connection — another process too — committed a change, or a group whose writes reads
   * may have seen was rolled back (a page rendered from them must not outlive them); null until
   * opened. Read on the connection directly, without the lock: it is connection state, not a
   * query of the data.
   */
  changeStamp(): string | null {
    if (!this.#db) return null;
    const row = this.#db.prepare(CHANGE_STAMP_SQL).all([])[0] as { version: number; changes: number };
    return `${row.version}:${row.changes}:${this.#rollbacks}`;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return new Lease(this);
  }

  acquireLock(): Promise<void> {
    return this.#lock.acquire();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await lease.holdLock();
    const { raw } = this.#database;
    if (this.#group && !raw.isTransaction)
      this.#endGroup(new Error("the group's transaction was rolled back"));
    if (!this.#group) {
      raw.exec("begin immediate");
      this.#group = [];
    }
    try {
      raw.exec(`savepoint ${MEMBER_SAVEPOINT}`);
    } catch (error) {
      this.#queueFlush(); // the group must not stay open without a member to close it
      throw error;
    }
    lease.inTransaction = true;
    lease.startedAt = performance.now();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const group = this.#group;
    if (!group || !this.#database.raw.isTransaction) {
      throw new Error("the transaction was rolled back by SQLite before its commit");
    }
    this.#database.raw.exec(`release ${MEMBER_SAVEPOINT}`);
    lease.inTransaction = false;
    lease.countHeld();
    const committed = new Promise<void>((resolve, reject) => group.push({ resolve, reject }));
    // others may run (and join the group) while this one waits for the COMMIT
    lease.releaseLock();
    this.#queueFlush();
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.lockReleased) return; // its group's COMMIT failed: rolled back with the group
    lease.inTransaction = false;
    lease.countHeld();
    const { raw } = this.#database;
    if (raw.isTransaction) {
      raw.exec(`rollback to ${MEMBER_SAVEPOINT}`);
      raw.exec(`release ${MEMBER_SAVEPOINT}`);
    } else if (this.#group) {
      // SQLite rolled the whole transaction back (disk full, I/O error): every member is gone
      this.#endGroup(new Error("the group's transaction was rolled back"));
    }
    this.#queueFlush();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).releaseLock();
  }

  async destroy(): Promise<void> {
    await this.#lock.acquire();
    try {
      this.#commitGroup();
      this.#db?.close();
      this.#db = null;
    } finally {
      this.#lock.release();
    }
  }

  /** A row change outside a transaction: a member of the group on its own, durable when it returns. */
  async executeInGroup(lease: Lease, compiled: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.beginTransaction(lease);
    let result: QueryResult<unknown>;
    try {
      result = this.execute(lease, compiled);
    } catch (error) {
      await this.rollbackTransaction(lease);
      throw error;
    }
    await this.commitTransaction(lease);
    return result;
  }

  /** Runs one statement for a lease holding the lock. */
  execute(lease: Lease, compiled: CompiledQuery): QueryResult<unknown> {
    const statement = this.#database.prepare(compiled.sql);
    if (!lease.inTransaction && statementKind(compiled, () => statement.reader) !== "read") {
      this.#commitGroup();
    }
    if (lease.inTransaction && !this.#database.raw.isTransaction) {
      // SQLite rolled the transaction back (disk full, I/O error): nothing more may run outside it
      throw new Error("the transaction was rolled back by SQLite");
    }
    const started = performance.now();
    try {
      if (statement.reader) return { rows: statement.all(compiled.parameters) };
      return this.#run(statement, compiled);
    } finally {
      const ms = performance.now() - started;
      if (ms > appThreadStatements.longestMs) {
        appThreadStatements.longestMs = ms;
        appThreadStatements.longestSql = compiled.sql;
      }
    }
  }

  #run(statement: ReturnType<NodeSqliteDatabase["prepare"]>, compiled: CompiledQuery): QueryResult<unknown> {
    const { changes, lastInsertRowid } = statement.run(compiled.parameters);
    return {
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      numAffectedRows: changes != null ? BigInt(changes) : undefined,
      rows: [],
    };
  }

  *stream(compiled: CompiledQuery): IterableIterator<QueryResult<unknown>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error("only select queries can be streamed");
    for (const row of this.#database.prepare(compiled.sql).iterate(compiled.parameters)) {
      yield { rows: [row] };
    }
  }

  releaseLock(): void {
    this.#lock.release();
  }

  /**
   * The group's COMMIT runs once the connection is free: whatever queued for it before then runs
   * first, and the transactions among them join this COMMIT.
   */
  #queueFlush(): void {
    if (this.#flushQueued || !this.#group) return;
    this.#flushQueued = true;
    // #commitGroup never throws and the lock never rejects: nothing here can go unhandled
    setImmediate(async () => {
      await this.#lock.acquire();
      this.#flushQueued = false;
      try {
        this.#commitGroup();
      } finally {
        this.#lock.release();
      }
    });
  }

  /** Commits the open group, if any (the caller holds the lock); never throws. */
  #commitGroup(): void {
    const members = this.#group;
    if (!members || !this.#db) return;
    const { raw } = this.#db;
    this.#group = null;
    try {
      if (!raw.isTransaction) throw new Error("the group's transaction was rolled back");
      raw.exec("commit");
    } catch (error) {
      this.#rollbacks++;
      this.#rollBackOrReopen();
      for (const member of members) member.reject(error);
      return;
    }
    for (const member of members) member.resolve();
  }

  /**
   * After a failed COMMIT: ROLLBACK; if even that fails (the connection is unusable), close the
   * connection — SQLite rolls back what it had open — and open a fresh one. Never throws.
   */
  #rollBackOrReopen(): void {
    const db = this.#db;
    if (!db) return;
    try {
      if (db.raw.isTransaction) db.raw.exec("rollback");
      return;
    } catch {
      // fall through: replace the connection
    }
    try {
      db.close();
    } catch {
      // already unusable; the new connection is what matters
    }
    try {
      this.#db = this.#open();
    } catch {
      this.#db = null; // the next statement fails with "the database is closed", not the process
    }
  }

  /** Fails the members of a group SQLite already rolled back. */
  #endGroup(error: Error): void {
    const members = this.#group ?? [];
    this.#group = null;
    if (members.length > 0) this.#rollbacks++;
    for (const member of members) member.reject(error);
  }
}

/** The connection as one holder of the lock sees it (Kysely gets one per acquisition). */
class Lease implements DatabaseConnection {
  readonly #driver: GroupCommitDriver;
  inTransaction = false;
  lockReleased = false;
  /** when its transaction took the lock (performance.now) */
  startedAt = 0;
  constructor(driver: GroupCommitDriver) {
    this.#driver = driver;
  }
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.holdLock();
    if (!this.inTransaction && statementKind(compiled, () => false) === "row-write") {
      return (await this.#driver.executeInGroup(this, compiled)) as QueryResult<R>;
    }
    return this.#driver.execute(this, compiled) as QueryResult<R>;
  }
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    await this.holdLock();
    for (const result of this.#driver.stream(compiled)) yield result as QueryResult<R>;
  }
  /**
   * A commit gives the lock up before its group's COMMIT; a holder that goes on using the same
   * connection (`db.connection()`, as Kysely's migrator does) takes it back first.
   */
  async holdLock(): Promise<void> {
    if (!this.lockReleased) return;
    await this.#driver.acquireLock();
    this.lockReleased = false;
  }
  countHeld(): void {
    writeLockStats.transactions += 1;
    writeLockStats.heldMs += performance.now() - this.startedAt;
  }
  releaseLock(): void {
    if (this.lockReleased) return;
    this.lockReleased = true;
    this.#driver.releaseLock();
  }
}
