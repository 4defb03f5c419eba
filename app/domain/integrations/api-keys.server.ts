import { createHash, randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { type ApiScope, isApiScope } from "../../lib/api-scopes.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";

/**
 * API keys (issue 32, decision 038): made and revoked by the owner (the `settings` permission),
 * checked on every API request against the database — so a revoked key stops on every process at
 * once. The secret is 32 random bytes, shown once; only its SHA-256 is kept (a hash of a random
 * 256-bit secret needs no salt or slow hash: there is nothing to guess from it), and a request's
 * key is found by that hash through its unique index.
 */

export type ApiKeyKind = "secret" | "publishable";

const SECRET_PREFIX: Record<ApiKeyKind, string> = { secret: "cw_sk_", publishable: "cw_pk_" };
/** how much of the secret the list shows (its kind's prefix and 6 characters) */
const SHOWN = 12;
/** a key's last use is written at most this often (one write per key a minute, not per request) */
const LAST_USE_EVERY_MS = 60_000;

export interface ApiKeyInput {
  name: string;
  kind: ApiKeyKind;
  /** a secret key's scopes (none for a publishable key) */
  scopes: ApiScope[];
  /** when it stops working; null: never */
  expiresAt: Date | null;
}

export interface ApiKeyView {
  id: number;
  name: string;
  kind: ApiKeyKind;
  prefix: string;
  scopes: ApiScope[];
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdByEmail: string;
  createdAt: string;
}

/** The key a request authenticated with. */
export interface ApiCaller {
  id: number;
  name: string;
  kind: ApiKeyKind;
  scopes: ApiScope[];
}

export type ApiKeyError = { code: "forbidden" } | { code: "not-found" } | { code: "already-revoked" };

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

function scopesOf(stored: string): ApiScope[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed)
      ? parsed.filter((s): s is ApiScope => typeof s === "string" && isApiScope(s))
      : [];
  } catch {
    return [];
  }
}

type ApiKeyRow = {
  id: number;
  name: string;
  kind: ApiKeyKind;
  prefix: string;
  scopes: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdByEmail: string;
  createdAt: string;
};

const viewOf = (row: ApiKeyRow): ApiKeyView => ({ ...row, id: Number(row.id), scopes: scopesOf(row.scopes) });

/** Every key, newest first (revoked ones too: the audit log names them). */
export async function listApiKeys(db: Database): Promise<ApiKeyView[]> {
  const rows = await db
    .selectFrom("apiKeys")
    .select([
      "id",
      "name",
      "kind",
      "prefix",
      "scopes",
      "expiresAt",
      "revokedAt",
      "lastUsedAt",
      "createdByEmail",
      "createdAt",
    ])
    .orderBy("id", "desc")
    .execute();
  return rows.map(viewOf);
}

/** A new key and its secret — the only time the secret is known outside the request that uses it. */
export async function createApiKey(
  db: Database,
  { input, actor, now = new Date() }: { input: ApiKeyInput; actor: StaffActor; now?: Date },
): Promise<Result<{ key: ApiKeyView; secret: string }, ApiKeyError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  const secret = `${SECRET_PREFIX[input.kind]}${randomBytes(32).toString("base64url")}`;
  const scopes = input.kind === "publishable" ? [] : [...new Set(input.scopes)];
  const at = now.toISOString();
  const key = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("apiKeys")
      .values({
        name: input.name,
        kind: input.kind,
        prefix: secret.slice(0, SHOWN),
        secretHash: hashOf(secret),
        scopes: JSON.stringify(scopes),
        expiresAt: input.expiresAt?.toISOString() ?? null,
        revokedAt: null,
        lastUsedAt: null,
        createdByEmail: actor.email,
        createdAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor,
      action: "api_key.create",
      entityType: "api_key",
      entityId: row.id,
      summary: `Created ${input.kind} API key ${input.name}`,
      after: { name: input.name, kind: input.kind, scopes, expiresAt: row.expiresAt },
      now,
    });
    return viewOf(row);
  });
  return ok({ key, secret });
}

/** Revokes a key: every process refuses it from the next request on. */
export async function revokeApiKey(
  db: Database,
  { id, actor, now = new Date() }: { id: number; actor: StaffActor; now?: Date },
): Promise<Result<{ name: string }, ApiKeyError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("apiKeys")
      .set({ revokedAt: now.toISOString() })
      .where("id", "=", id)
      .where("revokedAt", "is", null)
      .returning(["name"])
      .executeTakeFirst();
    if (!row) {
      const exists = await trx.selectFrom("apiKeys").select("id").where("id", "=", id).executeTakeFirst();
      return fail(exists ? { code: "already-revoked" as const } : { code: "not-found" as const });
    }
    await recordAudit(trx, {
      actor,
      action: "api_key.revoke",
      entityType: "api_key",
      entityId: id,
      summary: `Revoked API key ${row.name}`,
      now,
    });
    return ok({ name: row.name });
  });
}

/**
 * The name the audit log gives an API key acting (`keyActor`: its actor id is `api-key:<id>`), for
 * a step that finds only the actor's id later (a refund settled after the gateway answered); null
 * when the id is not a key's.
 */
export async function apiKeyActorEmail(
  db: Kysely<DB> | Transaction<DB>,
  actorId: string,
): Promise<string | null> {
  const id = /^api-key:(\d{1,12})$/.exec(actorId)?.[1];
  if (!id) return null;
  const key = await db.selectFrom("apiKeys").select("name").where("id", "=", Number(id)).executeTakeFirst();
  return key ? `API key ${key.name}` : null;
}

export type ApiKeyRefusal = "missing" | "unknown" | "revoked" | "expired";

/**
 * The key a request sent (the secret, as `Authorization: Bearer …`), if it is one of ours and still
 * works; else why not. Its last use is noted at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  secret: string | null,
  now: Date = new Date(),
): Promise<Result<ApiCaller, { code: ApiKeyRefusal }>> {
  if (secret === null) return fail({ code: "missing" });
  if (secret.length > 200 || !/^cw_(sk|pk)_[A-Za-z0-9_-]+$/.test(secret)) return fail({ code: "unknown" });
  const row = await db
    .selectFrom("apiKeys")
    .select(["id", "name", "kind", "scopes", "expiresAt", "revokedAt", "lastUsedAt"])
    .where("secretHash", "=", hashOf(secret))
    .executeTakeFirst();
  if (!row) return fail({ code: "unknown" });
  if (row.revokedAt !== null) return fail({ code: "revoked" });
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return fail({ code: "expired" });
  if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) <= now.getTime() - LAST_USE_EVERY_MS) {
    await db.updateTable("apiKeys").set({ lastUsedAt: now.toISOString() }).where("id", "=", row.id).execute();
  }
  return ok({ id: Number(row.id), name: row.name, kind: row.kind, scopes: scopesOf(row.scopes) });
}
