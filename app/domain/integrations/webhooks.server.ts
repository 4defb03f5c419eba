import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { checkEndpointUrl, type SentWebhook } from "../../adapters/webhooks/webhook-sender.server.ts";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { isWebhookEventType, WEBHOOK_TEST_EVENT, type WebhookEventType } from "../../lib/webhook-events.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { hasFailingEndpointDue } from "./webhook-upkeep.server.ts";

/**
 * Webhook endpoints and their deliveries (issue 32, decision 039). The owner adds an endpoint (a URL
 * outside the shop's network, the events wanted) and gets its signing secret; the delivery job
 * (`deliverWebhooks`, one process at a time) turns each new event of the outbox into one delivery
 * per endpoint that wants it, posts it signed per the Standard Webhooks specification (the
 * `standardwebhooks` package: `webhook-id` — the same on every retry, so a receiver can drop
 * repeats — `webhook-timestamp`, `webhook-signature`), and retries a failure with exponential
 * back-off and jitter for about a day. Every attempt is logged.
 */

/** How long a rotated-out secret still signs (both signatures are sent meanwhile). */
export const SECRET_GRACE_MS = 24 * 60 * 60_000;
/** the first retry's wait, doubled each time up to RETRY_MAX_MS; given up after GIVE_UP_MS */
export const RETRY_FIRST_MS = 30_000;
export const RETRY_MAX_MS = 6 * 60 * 60_000;
export const GIVE_UP_MS = 26 * 60 * 60_000;
/** deliveries one run of the job sends at most */
const BATCH = 50;

export type EndpointError =
  | { code: "forbidden" }
  | { code: "invalid-url" }
  | { code: "private-address" }
  | { code: "unresolved" }
  | { code: "no-events" }
  | { code: "not-found" }
  | { code: "disabled" };

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** A new endpoint and its secret (shown to the owner; needed to verify the signatures). */
export async function addWebhookEndpoint(
  db: Database,
  {
    actor,
    url,
    events,
    allowPrivate,
    now = new Date(),
  }: { actor: StaffActor; url: string; events: string[]; allowPrivate: boolean; now?: Date },
): Promise<Result<{ id: number; secret: string }, EndpointError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  const wanted = [...new Set(events)].filter(isWebhookEventType);
  if (wanted.length === 0 || wanted.length !== new Set(events).size) return fail({ code: "no-events" });
  const checked = await checkEndpointUrl(url, { allowPrivate });
  if (!checked.ok) {
    const code = { invalid: "invalid-url", private: "private-address", unresolved: "unresolved" } as const;
    return fail({ code: code[checked.reason] });
  }
  const secret = newSecret();
  const at = now.toISOString();
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("webhookEndpoints")
      .values({
        url: checked.url.toString(),
        events: JSON.stringify(wanted),
        secret,
        previousSecret: null,
        previousSecretUntil: null,
        enabled: 1,
        createdByEmail: actor.email,
        createdAt: at,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor,
      action: "webhook.create",
      entityType: "webhook",
      entityId: row.id,
      summary: `Added webhook endpoint ${checked.url.origin}`,
      after: { url: checked.url.toString(), events: wanted },
      now,
    });
    return Number(row.id);
  });
  return ok({ id, secret });
}

/** A new secret for an endpoint; the old one keeps signing for SECRET_GRACE_MS. */
export async function rotateWebhookSecret(
  db: Database,
  { actor, id, now = new Date() }: { actor: StaffActor; id: number; now?: Date },
): Promise<Result<{ secret: string }, EndpointError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  const secret = newSecret();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("webhookEndpoints")
      .select(["secret"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-found" as const });
    await trx
      .updateTable("webhookEndpoints")
      .set({
        secret,
        previousSecret: row.secret,
        previousSecretUntil: new Date(now.getTime() + SECRET_GRACE_MS).toISOString(),
        updatedAt: now.toISOString(),
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: "webhook.rotate",
      entityType: "webhook",
      entityId: id,
      summary: "Rotated a webhook endpoint's secret",
      now,
    });
    return ok({ secret });
  });
}

/**
 * "Send again": a delivery that was delivered or given up is queued again now, for the same event
 * (the same `webhook-id`: a receiver that has it drops it), with a new day of retries.
 */
export async function resendWebhookDelivery(
  db: Database,
  { actor, deliveryId, now = new Date() }: { actor: StaffActor; deliveryId: number; now?: Date },
): Promise<Result<{ endpointId: number }, EndpointError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx) => {
    const queued = await trx
      .updateTable("webhookDeliveries")
      .set({ status: "pending", attempts: 0, nextAttemptAt: now.toISOString(), createdAt: now.toISOString() })
      .where("id", "=", deliveryId)
      .where("status", "in", ["delivered", "failed"])
      .returning(["endpointId", "eventId"])
      .executeTakeFirst();
    if (!queued) return fail({ code: "not-found" as const });
    await recordAudit(trx, {
      actor,
      action: "webhook.resend",
      entityType: "webhook",
      entityId: queued.endpointId,
      summary: `Queued event evt_${queued.eventId} to be sent again`,
      now,
    });
    return ok({ endpointId: Number(queued.endpointId) });
  });
}

/**
 * "Send a test event": a `webhook.test` event and its one delivery, to this endpoint only (no
 * endpoint can subscribe to the type, so the fan-out gives it to nobody else). Sent by the job
 * within seconds, signed like any other.
 */
export async function sendTestWebhook(
  db: Database,
  { actor, endpointId, now = new Date() }: { actor: StaffActor; endpointId: number; now?: Date },
): Promise<Result<{ eventId: number }, EndpointError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx
      .selectFrom("webhookEndpoints")
      .select(["id", "enabled"])
      .where("id", "=", endpointId)
      .executeTakeFirst();
    if (!endpoint) return fail({ code: "not-found" as const });
    if (endpoint.enabled !== 1) return fail({ code: "disabled" as const });
    const event = await trx
      .insertInto("webhookEvents")
      .values({
        type: WEBHOOK_TEST_EVENT,
        subjectId: endpointId,
        data: JSON.stringify({ endpointId, message: "A test event from Admin → Webhooks." }),
        createdAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("webhookDeliveries")
      .values({
        eventId: event.id,
        endpointId,
        status: "pending",
        attempts: 0,
        nextAttemptAt: at,
        deliveredAt: null,
        createdAt: at,
      })
      .execute();
    await recordAudit(trx, {
      actor,
      action: "webhook.test",
      entityType: "webhook",
      entityId: endpointId,
      summary: `Sent a test event (evt_${event.id})`,
      now,
    });
    return ok({ eventId: Number(event.id) });
  });
}

/**
 * Turns an endpoint back on (after the job disabled it for failing for days): it gets the events
 * from now on, and its failures are counted afresh. Deliveries still pending go out again.
 */
export async function enableWebhookEndpoint(
  db: Database,
  { actor, id, now = new Date() }: { actor: StaffActor; id: number; now?: Date },
): Promise<Result<void, EndpointError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const enabled = await trx
      .updateTable("webhookEndpoints")
      .set({ enabled: 1, disabledAt: null, failingSince: null, failureMailedAt: null, updatedAt: at })
      .where("id", "=", id)
      .returning("url")
      .executeTakeFirst();
    if (!enabled) return fail({ code: "not-found" as const });
    // what waited while it was off starts its retries again now
    await trx
      .updateTable("webhookDeliveries")
      .set({ attempts: 0, nextAttemptAt: at, createdAt: at })
      .where("endpointId", "=", id)
      .where("status", "=", "pending")
      .execute();
    await recordAudit(trx, {
      actor,
      action: "webhook.enable",
      entityType: "webhook",
      entityId: id,
      summary: `Enabled webhook endpoint ${new URL(enabled.url).origin}`,
      now,
    });
    return ok(undefined);
  });
}

/** The wait before retry number `attempts` (1: the first retry), with ±20 % jitter. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The signed request of one event to one endpoint (every secret still valid signs it). */
export function signedRequest(
  event: { id: number; type: string; data: string; createdAt: string },
  secrets: readonly string[],
  now: Date,
): { headers: Record<string, string>; body: string } {
  const body = `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.createdAt)},"data":${event.data}}`;
  const id = `evt_${event.id}`;
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, now, body));
  return {
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signatures.join(" "),
      "User-Agent": "Cartwheel-Webhooks/1",
    },
    body,
  };
}

export type Send = (
  url: string,
  request: { headers: Record<string, string>; body: string },
) => Promise<SentWebhook>;

/**
 * One run of the delivery job (in one process at a time: the caller holds the job's lease). First
 * the new events become deliveries — one per endpoint enabled and wanting the type, added before the
 * event — then the deliveries due are sent, outside any transaction, and each outcome recorded:
 * a 2xx delivers it, anything else is tried again later, until GIVE_UP_MS after the event.
 */
export async function deliverWebhooks(
  db: Database,
  { send, now = () => new Date() }: { send: Send; now?: () => Date },
): Promise<{ queued: number; delivered: number; retrying: number; failed: number }> {
  const queued = await fanOut(db, now());
  let delivered = 0;
  let retrying = 0;
  let failed = 0;
  const due = await db
    .selectFrom("webhookDeliveries")
    .innerJoin("webhookEvents", "webhookEvents.id", "webhookDeliveries.eventId")
    .innerJoin("webhookEndpoints", "webhookEndpoints.id", "webhookDeliveries.endpointId")
    .select([
      "webhookDeliveries.id",
      "webhookDeliveries.attempts",
      "webhookDeliveries.endpointId",
      "webhookDeliveries.createdAt as queuedAt",
      "webhookEvents.id as eventId",
      "webhookEvents.type",
      "webhookEvents.data",
      "webhookEvents.createdAt",
      "webhookEndpoints.url",
      "webhookEndpoints.secret",
      "webhookEndpoints.previousSecret",
      "webhookEndpoints.previousSecretUntil",
    ])
    .where("webhookDeliveries.status", "=", "pending")
    .where("webhookDeliveries.nextAttemptAt", "<=", now().toISOString())
    .where("webhookEndpoints.enabled", "=", 1)
    .orderBy("webhookDeliveries.nextAttemptAt")
    .orderBy("webhookDeliveries.id")
    .limit(BATCH)
    .execute();
  for (const delivery of due) {
    const at = now();
    const secrets = [delivery.secret];
    if (
      delivery.previousSecret &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil > at.toISOString()
    ) {
      secrets.push(delivery.previousSecret);
    }
    const request = signedRequest(
      {
        id: Number(delivery.eventId),
        type: delivery.type,
        data: delivery.data,
        createdAt: delivery.createdAt,
      },
      secrets,
      at,
    );
    const sent = await send(delivery.url, request);
    const ok2xx = sent.status !== null && sent.status >= 200 && sent.status < 300;
    const attempts = delivery.attempts + 1;
    const wait = retryDelayMs(attempts);
    // a day of retries from the event — or from when it was queued again ("send again")
    const since = Math.max(Date.parse(delivery.createdAt), Date.parse(delivery.queuedAt));
    const giveUp = !ok2xx && at.getTime() + wait > since + GIVE_UP_MS;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("webhookAttempts")
        .values({
          deliveryId: delivery.id,
          attemptedAt: at.toISOString(),
          statusCode: sent.status,
          durationMs: sent.durationMs,
          responseExcerpt: sent.excerpt,
          error: sent.error,
        })
        .execute();
      await trx
        .updateTable("webhookDeliveries")
        .set({
          attempts,
          status: ok2xx ? "delivered" : giveUp ? "failed" : "pending",
          deliveredAt: ok2xx ? at.toISOString() : null,
          nextAttemptAt: new Date(at.getTime() + (ok2xx || giveUp ? 0 : wait)).toISOString(),
        })
        .where("id", "=", delivery.id)
        .where("status", "=", "pending")
        .execute();
      // the endpoint's health: failing since its first failure after a success (webhook-upkeep)
      await trx
        .updateTable("webhookEndpoints")
        .set(ok2xx ? { failingSince: null, failureMailedAt: null } : { failingSince: at.toISOString() })
        .where("id", "=", delivery.endpointId)
        .where("failingSince", ok2xx ? "is not" : "is", null)
        .execute();
    });
    if (ok2xx) delivered++;
    else if (giveUp) failed++;
    else retrying++;
  }
  return { queued, delivered, retrying, failed };
}

/**
 * Whether the delivery job has anything to do — an event not yet made deliveries, a delivery due,
 * or a failing endpoint to tell the owners of or to disable — by reads alone (the job runs every few seconds; it writes only when there is work).
 */
export async function hasWebhookWork(db: Database, now: Date = new Date()): Promise<boolean> {
  const [endpoint, state, latest, due, failing] = await Promise.all([
    // no endpoint: nothing to send, and events wait (none is for an endpoint added after it)
    db.selectFrom("webhookEndpoints").select("id").where("enabled", "=", 1).limit(1).executeTakeFirst(),
    db.selectFrom("webhookState").select("fannedOutTo").where("id", "=", 1).executeTakeFirst(),
    db.selectFrom("webhookEvents").select("id").orderBy("id", "desc").limit(1).executeTakeFirst(),
    db
      .selectFrom("webhookDeliveries")
      .select("id")
      .where("status", "=", "pending")
      .where("nextAttemptAt", "<=", now.toISOString())
      .limit(1)
      .executeTakeFirst(),
    // an endpoint failing for a day (its owners to be told) or for three (to be disabled)
    hasFailingEndpointDue(db, now),
  ]);
  if (!endpoint) return false;
  return Number(latest?.id ?? 0) > Number(state?.fannedOutTo ?? 0) || due !== undefined || failing;
}

/** The outbox's new events as deliveries (INSERT … SELECT; the unique index keeps one per pair). */
async function fanOut(db: Database, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom("webhookState")
      .select("fannedOutTo")
      .where("id", "=", 1)
      .executeTakeFirst();
    const from = Number(state?.fannedOutTo ?? 0);
    const events = await trx
      .selectFrom("webhookEvents")
      .select(["id", "type", "createdAt"])
      .where("id", ">", from)
      .orderBy("id")
      .limit(1_000)
      .execute();
    if (events.length === 0) return 0;
    const endpoints = await trx
      .selectFrom("webhookEndpoints")
      .select(["id", "events", "createdAt"])
      .where("enabled", "=", 1)
      .execute();
    const wants = endpoints.map((e) => ({
      ...e,
      events: new Set(JSON.parse(e.events) as WebhookEventType[]),
    }));
    const rows = events.flatMap((event) =>
      wants
        .filter((e) => e.events.has(event.type as WebhookEventType) && e.createdAt <= event.createdAt)
        .map((e) => ({
          eventId: Number(event.id),
          endpointId: Number(e.id),
          status: "pending" as const,
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          deliveredAt: null,
          createdAt: now.toISOString(),
        })),
    );
    for (let i = 0; i < rows.length; i += 200) {
      await trx
        .insertInto("webhookDeliveries")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(["eventId", "endpointId"]).doNothing())
        .execute();
    }
    await trx
      .updateTable("webhookState")
      .set({ fannedOutTo: Number(events.at(-1)!.id) })
      .where("id", "=", 1)
      .execute();
    return rows.length;
  });
}
