import type { Generated } from "kysely";
import type { Timestamp } from "./schema-types.ts";

/** A key for the API (migration 2026-11-29T0800, decision 038). */
export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  kind: "secret" | "publishable";
  /** the secret's first characters, shown in the admin's list */
  prefix: string;
  /** SHA-256 of the whole secret, hex */
  secretHash: string;
  /** JSON array of scopes, e.g. ["orders:read"]; [] for a publishable key */
  scopes: string;
  expiresAt: Timestamp | null;
  revokedAt: Timestamp | null;
  lastUsedAt: Timestamp | null;
  createdByEmail: string;
  createdAt: Timestamp;
}

/** A POST's Idempotency-Key and, once answered, its answer (migration 2026-11-29T0805). */
export interface ApiIdempotencyTable {
  id: Generated<number>;
  apiKeyId: number;
  idempotencyKey: string;
  requestHash: string;
  /** null while the request is being answered */
  statusCode: number | null;
  responseBody: string | null;
  createdAt: Timestamp;
}
