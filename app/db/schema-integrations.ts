import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

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

/** Where the owner wants events sent (migration 2026-11-29T0810, decision 039). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  /** JSON array of event types */
  events: string;
  /** whsec_… (Standard Webhooks) */
  secret: string;
  /** the secret before the last rotation, still signing until `previousSecretUntil` */
  previousSecret: string | null;
  previousSecretUntil: Timestamp | null;
  enabled: Flag;
  createdByEmail: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** the first failed attempt since its last success; null while it answers (migration 0830) */
  failingSince: Generated<Timestamp | null>;
  /** when the owners were told it has failed for a day */
  failureMailedAt: Generated<Timestamp | null>;
  /** when the delivery job turned it off after three days of failures */
  disabledAt: Generated<Timestamp | null>;
}

/** The outbox: one event, written with the change it tells of. */
export interface WebhookEventsTable {
  id: Generated<number>;
  type: string;
  /** the order's (product's, variant's, return's, gift card's) id; 0 for a customer (its id is text, in the data) */
  subjectId: number;
  /** JSON: what the event says, as it was when it happened */
  data: string;
  createdAt: Timestamp;
}

export interface WebhookStateTable {
  id: number;
  /** the last event the delivery job made deliveries for */
  fannedOutTo: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  eventId: number;
  endpointId: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Timestamp;
  deliveredAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  deliveryId: number;
  attemptedAt: Timestamp;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}
