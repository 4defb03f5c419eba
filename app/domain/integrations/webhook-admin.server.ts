import type { Database } from "../../db/database.server.ts";
import { isWebhookEventType, type WebhookEventType } from "../../lib/webhook-events.ts";

/** What Admin → Webhooks shows (decision 039): each endpoint and its latest attempts. Never a secret. */
export interface WebhookEndpointView {
  id: number;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** when the delivery job disabled it (failing for days); null: on, or never disabled by the job */
  disabledAt: string | null;
  /** its first failure since its last success; null while it answers */
  failingSince: string | null;
  createdAt: string;
  pending: number;
  delivered: number;
  failed: number;
  attempts: {
    id: number;
    deliveryId: number;
    /** the delivery's state now: a delivered or given-up one can be sent again */
    deliveryStatus: "pending" | "delivered" | "failed";
    eventType: string;
    eventId: number;
    attemptedAt: string;
    statusCode: number | null;
    error: string | null;
    excerpt: string | null;
  }[];
}

const ATTEMPTS_SHOWN = 20;

export async function listWebhookEndpoints(db: Database): Promise<WebhookEndpointView[]> {
  const endpoints = await db
    .selectFrom("webhookEndpoints")
    .select(["id", "url", "events", "enabled", "disabledAt", "failingSince", "createdAt"])
    .orderBy("id", "desc")
    .execute();
  const ids = endpoints.map((endpoint) => endpoint.id);
  if (ids.length === 0) return [];
  // every endpoint's counts in one query; each one's latest attempts at once
  const [counts, attemptsOf] = await Promise.all([
    db
      .selectFrom("webhookDeliveries")
      .select((eb) => ["endpointId", "status", eb.fn.countAll<number>().as("n")])
      .where("endpointId", "in", ids)
      .groupBy(["endpointId", "status"])
      .execute(),
    Promise.all(ids.map((id) => latestAttempts(db, id))),
  ]);
  return endpoints.map((endpoint, i) => {
    const count = (status: string) =>
      Number(counts.find((row) => row.endpointId === endpoint.id && row.status === status)?.n ?? 0);
    return {
      id: Number(endpoint.id),
      url: endpoint.url,
      events: (JSON.parse(endpoint.events) as string[]).filter(isWebhookEventType),
      enabled: endpoint.enabled === 1,
      disabledAt: endpoint.disabledAt,
      failingSince: endpoint.failingSince,
      createdAt: endpoint.createdAt,
      pending: count("pending"),
      delivered: count("delivered"),
      failed: count("failed"),
      attempts: attemptsOf[i]!,
    };
  });
}

async function latestAttempts(db: Database, endpointId: number) {
  const attempts = await db
    .selectFrom("webhookAttempts")
    .innerJoin("webhookDeliveries", "webhookDeliveries.id", "webhookAttempts.deliveryId")
    .innerJoin("webhookEvents", "webhookEvents.id", "webhookDeliveries.eventId")
    .select([
      "webhookAttempts.id",
      "webhookDeliveries.id as deliveryId",
      "webhookDeliveries.status as deliveryStatus",
      "webhookEvents.type as eventType",
      "webhookEvents.id as eventId",
      "webhookAttempts.attemptedAt",
      "webhookAttempts.statusCode",
      "webhookAttempts.error",
      "webhookAttempts.responseExcerpt as excerpt",
    ])
    .where("webhookDeliveries.endpointId", "=", endpointId)
    .orderBy("webhookAttempts.id", "desc")
    .limit(ATTEMPTS_SHOWN)
    .execute();
  return attempts.map((a) => ({
    ...a,
    id: Number(a.id),
    deliveryId: Number(a.deliveryId),
    eventId: Number(a.eventId),
  }));
}
