import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { Database } from "../../db/database.server.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import { recordAudit } from "../audit/audit-log.server.ts";

/**
 * Webhooks' upkeep (issue 32, decision 039), run by the delivery job:
 * - an endpoint that has only failed for a day (`failing_since`, set by its first failed attempt
 *   after a success, cleared by the next success) gets its owners an e-mail, once; after three days
 *   of only failures it is disabled (the page shows it, with an "Enable" button);
 * - the outbox is pruned: events older than 30 days whose deliveries have all ended (delivered or
 *   given up), with their deliveries and attempts.
 */

export const FAILING_MAIL_AFTER_MS = 24 * 60 * 60_000;
export const FAILING_DISABLE_AFTER_MS = 3 * 24 * 60 * 60_000;
export const OUTBOX_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** events one prune removes at most (the rest the next run) */
const PRUNE_BATCH = 1_000;

const SYSTEM = { id: "system", email: "webhook-delivery" };

/** Whether an endpoint is due its e-mail or its disabling (a read, for `hasWebhookWork`). */
export async function hasFailingEndpointDue(db: Database, now: Date): Promise<boolean> {
  const mailBefore = new Date(now.getTime() - FAILING_MAIL_AFTER_MS).toISOString();
  const disableBefore = new Date(now.getTime() - FAILING_DISABLE_AFTER_MS).toISOString();
  const row = await db
    .selectFrom("webhookEndpoints")
    .select("id")
    .where("enabled", "=", 1)
    .where((eb) =>
      eb.or([
        eb.and([eb("failingSince", "<=", mailBefore), eb("failureMailedAt", "is", null)]),
        eb("failingSince", "<=", disableBefore),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * E-mails the owners about each endpoint failing for a day (claimed first by a guarded update, so
 * one process sends it, once) and disables each failing for three. Returns how many of each.
 */
export async function watchFailingEndpoints(
  db: Database,
  { mail, shop, now = new Date() }: { mail: Mailer; shop: MailShop; now?: Date },
): Promise<{ mailed: number; disabled: number }> {
  const at = now.toISOString();
  const disableBefore = new Date(now.getTime() - FAILING_DISABLE_AFTER_MS).toISOString();
  const mailBefore = new Date(now.getTime() - FAILING_MAIL_AFTER_MS).toISOString();
  const disabled = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable("webhookEndpoints")
      .set({ enabled: 0, disabledAt: at, updatedAt: at })
      .where("enabled", "=", 1)
      .where("failingSince", "<=", disableBefore)
      .returning(["id", "url"])
      .execute();
    for (const row of rows) {
      await recordAudit(trx, {
        actor: SYSTEM,
        action: "webhook.disable",
        entityType: "webhook",
        entityId: row.id,
        summary: `Disabled webhook endpoint ${new URL(row.url).origin}: it has only failed for 3 days`,
        now,
      });
    }
    return rows.length;
  });
  const claimed = await db
    .updateTable("webhookEndpoints")
    .set({ failureMailedAt: at })
    .where("enabled", "=", 1)
    .where("failingSince", "<=", mailBefore)
    .where("failureMailedAt", "is", null)
    .returning(["id", "url", "failingSince"])
    .execute();
  if (claimed.length > 0) {
    const owners = await db
      .selectFrom("users")
      .select("email")
      .where("role", "=", "owner")
      .where("disabledAt", "is", null)
      .execute();
    const page = new URL("/admin/webhooks", shop.publicUrl).toString();
    for (const endpoint of claimed) {
      for (const owner of owners) {
        await mail
          .send({
            to: owner.email,
            subject: `${shop.shopName}: webhook endpoint failing since ${endpoint.failingSince?.slice(0, 10)}`,
            text: [
              `Every delivery to ${endpoint.url} has failed since ${endpoint.failingSince} (UTC).`,
              "The shop keeps trying each event for about a day. If the endpoint still fails three days after its first failure, it is disabled and gets no more events until it is enabled again on Admin → Webhooks.",
              `The attempts and the receiver's answers: ${page}`,
            ].join("\n\n"),
          })
          .catch((error: unknown) =>
            logger.warn({ err: error, endpoint: endpoint.id }, "webhook failure e-mail failed"),
          );
      }
    }
  }
  return { mailed: claimed.length, disabled };
}

/**
 * Removes the outbox's events older than OUTBOX_RETENTION_MS whose deliveries have all ended
 * (delivered or given up) — with those deliveries and their attempts — and only events the fan-out
 * has passed. Returns how many events went.
 */
export async function pruneWebhookOutbox(db: Database, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - OUTBOX_RETENTION_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom("webhookState")
      .select("fannedOutTo")
      .where("id", "=", 1)
      .executeTakeFirst();
    const events = await trx
      .selectFrom("webhookEvents")
      .select("id")
      .where("createdAt", "<", before)
      .where("id", "<=", Number(state?.fannedOutTo ?? 0))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("webhookDeliveries")
              .select("webhookDeliveries.id")
              .whereRef("webhookDeliveries.eventId", "=", "webhookEvents.id")
              .where("webhookDeliveries.status", "=", "pending"),
          ),
        ),
      )
      .orderBy("id")
      .limit(PRUNE_BATCH)
      .execute();
    const ids = events.map((event) => event.id);
    if (ids.length === 0) return 0;
    const deliveries = trx.selectFrom("webhookDeliveries").select("id").where("eventId", "in", ids);
    await trx.deleteFrom("webhookAttempts").where("deliveryId", "in", deliveries).execute();
    await trx.deleteFrom("webhookDeliveries").where("eventId", "in", ids).execute();
    await trx.deleteFrom("webhookEvents").where("id", "in", ids).execute();
    return ids.length;
  });
}
