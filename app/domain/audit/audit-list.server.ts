import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import {
  containsPattern,
  dayEnd,
  dayStart,
  listChoice,
  listDay,
  listFilter,
  listPage,
  listSearch,
} from "../../lib/list-query.ts";
import { AUDIT_ACTIONS, AUDIT_SORTS, type AuditActionName, type AuditSort } from "./audit-list-query.ts";
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditEntry } from "./audit-log.server.ts";

type Never<T extends never> = T;
/** Fails the type check, naming it, when the shop records an action the filter does not offer. */
export type UnlistedAuditAction = Never<Exclude<AuditAction, AuditActionName>>;

const ACTOR = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

/**
 * The audit log's query (`/admin/audit?search=&action=&actor=&from=&to=&sort=&page=`, and
 * `product=` for one product's history): each value checked on its own, a bad one left out (a
 * filter) or back to its default (sort, page).
 */
export const auditListQuerySchema = z.object({
  search: listSearch(254),
  action: listFilter(AUDIT_ACTIONS),
  actor: z.string().trim().regex(ACTOR).nullable().catch(null),
  from: listDay,
  to: listDay,
  sort: listChoice(AUDIT_SORTS, "newest"),
  product: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(1_000_000_000))
    .nullable()
    .catch(null),
  page: listPage,
});

export interface AuditLogQuery {
  /** part of the actor's e-mail or of the entry's summary (which names its target), or the target's id */
  search?: string;
  action?: AuditActionName | null;
  /** the actor's e-mail as recorded */
  actor?: string | null;
  /** on or after this UTC day (YYYY-MM-DD) */
  from?: string | null;
  /** on or before this UTC day */
  to?: string | null;
  /** one record's history (e.g. a product's) */
  entity?: { type: string; id: string } | null;
  sort?: AuditSort;
  page?: number;
}

/** The audit log filtered and sorted (newest first by default), one page. */
export async function listAuditLog(
  db: Database,
  {
    search = "",
    action = null,
    actor = null,
    from = null,
    to = null,
    entity = null,
    sort = "newest",
    page = 1,
  }: AuditLogQuery = {},
): Promise<{ entries: AuditEntry[]; page: number; hasMore: boolean }> {
  let query = db
    .selectFrom("auditLog")
    .select([
      "id",
      "actorEmail",
      "action",
      "entityType",
      "entityId",
      "summary",
      "beforeJson as before",
      "afterJson as after",
      "createdAt",
    ]);
  if (entity) query = query.where("entityType", "=", entity.type).where("entityId", "=", entity.id);
  if (action) query = query.where("action", "=", action);
  if (actor) query = query.where("actorEmail", "=", actor);
  if (from) query = query.where("createdAt", ">=", dayStart(from));
  if (to) query = query.where("createdAt", "<", dayEnd(to));
  const term = search.trim().toLowerCase().slice(0, 254);
  if (term) {
    const pattern = sql<string>`${containsPattern(term)} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["actorEmail"]), "like", pattern),
        eb(eb.fn("lower", ["summary"]), "like", pattern),
        eb(eb.fn("lower", ["entityId"]), "=", term),
      ]),
    );
  }
  const direction = sort === "oldest" ? "asc" : "desc";
  const rows = await query
    .orderBy("createdAt", direction)
    .orderBy("id", direction)
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * AUDIT_PAGE_SIZE)
    .execute();
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), page, hasMore: rows.length > AUDIT_PAGE_SIZE };
}

/** Who appears in the audit log (e-mails as recorded, A–Z), for the actor filter; at most 200. */
export async function listAuditActors(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom("auditLog")
    .select("actorEmail")
    .distinct()
    .orderBy("actorEmail")
    .limit(200)
    .execute();
  return rows.map((row) => row.actorEmail);
}
