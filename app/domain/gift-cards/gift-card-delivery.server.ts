import type { Transaction } from "kysely";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import { sendGiftCardEmail } from "./gift-card-email.server.ts";
import { type GiftCardView, issueSoldGiftCard } from "./gift-cards.server.ts";

/**
 * Gift cards sold as a product (issue 31, decision 036): Place Order records one delivery per gift
 * card line (its amount, how many, to whom); once the order is paid, `deliverGiftCards` issues the
 * cards in one transaction that also keeps their codes on the delivery, e-mails them, and then
 * forgets the codes. A process that dies in between leaves the codes for the next run to send, so
 * a card is never issued without its code reaching someone; the shop otherwise keeps only hashes.
 * It runs right after Place Order answers and as a background job (a payment settled later).
 */

/** A gift card line of an order being reserved. */
export interface GiftCardLine {
  variantId: number;
  amountCents: number;
  quantity: number;
  recipient: { email: string | null; name: string | null; message: string | null } | null;
}

/** In Place Order's reserving transaction: the order's gift card lines, to deliver once it is paid. */
export async function recordGiftCardDeliveries(
  trx: Transaction<DB>,
  orderId: number,
  lines: readonly GiftCardLine[],
): Promise<void> {
  if (lines.length === 0) return;
  await trx
    .insertInto("giftCardDeliveries")
    .values(
      lines.map((line) => ({
        orderId,
        variantId: line.variantId,
        amountCents: line.amountCents,
        quantity: line.quantity,
        recipientEmail: line.recipient?.email ?? null,
        recipientName: line.recipient?.name ?? null,
        message: line.recipient?.message ?? null,
      })),
    )
    .execute();
}

/** After this many failed sends a delivery waits for staff (the log says so). */
const MAX_ATTEMPTS = 20;
/** A delivery sent or given up, when no delivery of that order may be tried again this soon. */
const PAID_STATUSES = ["paid", "shipped", "delivered", "partially_refunded", "refunded"] as const;

/**
 * Issues and e-mails the gift cards of paid orders not delivered yet (or only issued: their codes
 * were kept for this). Idempotent: issuing is guarded by `issued_at`, sending by `sent_at`.
 */
export async function deliverGiftCards(
  db: Database,
  mail: Mailer,
  shop: MailShop,
  { now = new Date(), limit = 50, orderId }: { now?: Date; limit?: number; orderId?: number } = {},
): Promise<{ issued: number; sent: number }> {
  const open = await db
    .selectFrom("giftCardDeliveries")
    .innerJoin("orders", "orders.id", "giftCardDeliveries.orderId")
    .select([
      "giftCardDeliveries.id",
      "giftCardDeliveries.orderId",
      "giftCardDeliveries.amountCents",
      "giftCardDeliveries.quantity",
      "giftCardDeliveries.recipientEmail",
      "giftCardDeliveries.recipientName",
      "giftCardDeliveries.message",
      "giftCardDeliveries.issuedAt",
      "orders.number",
      "orders.email",
      "orders.currency",
      "orders.userId",
    ])
    .where("giftCardDeliveries.sentAt", "is", null)
    .where("giftCardDeliveries.attempts", "<", MAX_ATTEMPTS)
    .where("orders.status", "in", [...PAID_STATUSES])
    .$if(orderId !== undefined, (q) => q.where("giftCardDeliveries.orderId", "=", orderId!))
    .orderBy("giftCardDeliveries.id")
    .limit(limit)
    .execute();
  let issued = 0;
  let sent = 0;
  for (const delivery of open) {
    const at = now.toISOString();
    const to = delivery.recipientEmail ?? delivery.email;
    // issue once: the transaction that issues the cards claims the delivery and keeps their codes
    const cards = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("giftCardDeliveries")
        .set((eb) => ({ issuedAt: at, attempts: eb("attempts", "+", 1) }))
        .where("id", "=", delivery.id)
        .where("issuedAt", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      const made: { card: GiftCardView; code: string }[] = [];
      for (let n = 0; n < delivery.quantity; n++) {
        made.push(
          await issueSoldGiftCard(trx, {
            amountCents: delivery.amountCents,
            currency: delivery.currency,
            recipientEmail: to,
            recipientName: delivery.recipientName,
            message: delivery.message,
            orderId: delivery.orderId,
            orderNumber: delivery.number,
            userId: delivery.userId,
            now,
          }),
        );
      }
      await trx
        .updateTable("giftCardDeliveries")
        .set({ codes: JSON.stringify(made.map(({ card, code }) => ({ id: card.id, code }))) })
        .where("id", "=", delivery.id)
        .execute();
      return made;
    });
    if (cards) issued += cards.length;
    if (await sendDelivery(db, mail, shop, delivery.id, now)) sent++;
  }
  return { issued, sent };
}

/** The e-mails of one issued delivery, then its codes forgotten; false when a send failed (tried again later). */
async function sendDelivery(
  db: Database,
  mail: Mailer,
  shop: MailShop,
  deliveryId: number,
  now: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom("giftCardDeliveries")
    .select(["codes", "message", "sentAt"])
    .where("id", "=", deliveryId)
    .executeTakeFirstOrThrow();
  if (row.sentAt !== null || row.codes === null) return false;
  const codes = JSON.parse(row.codes) as { id: number; code: string }[];
  const cards = await db
    .selectFrom("giftCards")
    .select([
      "id",
      "kind",
      "last4",
      "currency",
      "initialCents",
      "balanceCents",
      "expiresAt",
      "recipientEmail",
      "recipientName",
      "disabledAt",
      "createdAt",
    ])
    .where(
      "id",
      "in",
      codes.map((c) => c.id),
    )
    .execute();
  for (const { id, code } of codes) {
    const card = cards.find((c) => c.id === id);
    if (!card) continue;
    const view: GiftCardView = {
      ...card,
      currency: card.currency as GiftCardView["currency"],
      disabled: card.disabledAt !== null,
    };
    // a card sold never expires: the time zone its e-mail would date an expiry in is not needed
    if (
      !(await sendGiftCardEmail(
        mail,
        { ...shop, timeZone: "UTC" },
        { card: view, code, message: row.message },
      ))
    ) {
      await db
        .updateTable("giftCardDeliveries")
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("id", "=", deliveryId)
        .execute();
      logger.warn({ delivery: deliveryId }, "a gift card delivery e-mail failed; it is tried again later");
      return false;
    }
  }
  await db
    .updateTable("giftCardDeliveries")
    .set({ sentAt: now.toISOString(), codes: null })
    .where("id", "=", deliveryId)
    .where("sentAt", "is", null)
    .execute();
  return true;
}

/**
 * A refund of gift card lines takes their cards back, in the refund's own transaction: for each
 * unit, one card the order issued at that line's amount and never used (its whole balance, not
 * disabled) is disabled, so a card paid back can no longer pay. A line whose cards are not issued
 * yet, or were used, cannot be refunded: its order item's id is the answer (the caller rolls back).
 * Lines that are not gift cards are left alone.
 */
export async function takeBackSoldGiftCards(
  trx: Transaction<DB>,
  {
    orderId,
    lines,
    at,
  }: { orderId: number; lines: readonly { itemId: number; quantity: number }[]; at: string },
): Promise<{ itemId: number } | null> {
  if (lines.length === 0) return null;
  const sold = await trx
    .selectFrom("orderItems")
    .innerJoin("giftCardDeliveries", (join) =>
      join
        .onRef("giftCardDeliveries.orderId", "=", "orderItems.orderId")
        .onRef("giftCardDeliveries.variantId", "=", "orderItems.variantId"),
    )
    .select(["orderItems.id", "giftCardDeliveries.amountCents", "giftCardDeliveries.issuedAt"])
    .where("orderItems.orderId", "=", orderId)
    .where(
      "orderItems.id",
      "in",
      lines.map((line) => line.itemId),
    )
    .orderBy("orderItems.id")
    .execute();
  for (const item of sold) {
    const units = lines
      .filter((line) => line.itemId === item.id)
      .reduce((sum, line) => sum + line.quantity, 0);
    if (units === 0) continue;
    if (item.issuedAt === null) return { itemId: item.id };
    // cards of one amount are alike: any untouched one of the order's at that amount stands for the unit
    const untouched = await trx
      .selectFrom("giftCards")
      .select("id")
      .where("orderId", "=", orderId)
      .where("kind", "=", "gift_card")
      .where("initialCents", "=", item.amountCents)
      .where((eb) => eb("balanceCents", "=", eb.ref("initialCents")))
      .where("disabledAt", "is", null)
      .orderBy("id")
      .limit(units)
      .execute();
    if (untouched.length < units) return { itemId: item.id };
    const disabled = await trx
      .updateTable("giftCards")
      .set({ disabledAt: at, updatedAt: at })
      .where(
        "id",
        "in",
        untouched.map((card) => card.id),
      )
      // a checkout may have taken from one meanwhile (PostgreSQL checks this again under the row lock)
      .where((eb) => eb("balanceCents", "=", eb.ref("initialCents")))
      .where("disabledAt", "is", null)
      .executeTakeFirst();
    if (Number(disabled.numUpdatedRows) !== units) return { itemId: item.id };
  }
  return null;
}
