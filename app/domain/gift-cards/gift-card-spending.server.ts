import type { Transaction } from "kysely";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { eventRow, type GiftCardUsedData } from "../integrations/webhook-outbox.server.ts";
import type { Tender } from "./gift-card-plan.ts";
import { recordMovement } from "./gift-cards.server.ts";

/**
 * Gift cards and store credit spent and given back (issue 31, decision 036): the cards a checkout
 * may use, an order's takes in its reserving transaction, what an unpaid order gives back, and a
 * refund's gift card part back to the cards or to store credit. Every change is a guarded update
 * and a movement in the same transaction (gift-cards.server.ts issues cards and keeps the ledger).
 */

/**
 * Takes `amountCents` from a card for an order, inside the order's transaction: guarded, so only
 * while the card is live and holds that much — two checkouts racing for one balance never take more
 * than it holds. False when it does not (the caller rolls back).
 */
export async function takeGiftCard(
  trx: Transaction<DB>,
  {
    giftCardId,
    orderId,
    amountCents,
    now,
  }: { giftCardId: number; orderId: number; amountCents: number; now: Date },
): Promise<boolean> {
  if (amountCents <= 0) return true;
  const at = now.toISOString();
  const taken = await trx
    .updateTable("giftCards")
    .set((eb) => ({ balanceCents: eb("balanceCents", "-", amountCents), updatedAt: at }))
    .where("id", "=", giftCardId)
    .where("balanceCents", ">=", amountCents)
    .where("disabledAt", "is", null)
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", at)]))
    .returning(["kind", "last4", "currency", "balanceCents"])
    .executeTakeFirst();
  if (!taken) return false;
  const movement = {
    giftCardId,
    amountCents: -amountCents,
    reason: "redeemed" as const,
    orderId,
    actor: "checkout",
    createdAt: at,
  };
  if (taken.kind !== "gift_card") {
    // store credit spent is no gift card's use
    await recordMovement(trx, { ...movement, at });
    return true;
  }
  const data: GiftCardUsedData = {
    id: giftCardId,
    last4: taken.last4,
    orderId,
    amount: { amount: amountCents, currency: taken.currency },
    balance: { amount: taken.balanceCents, currency: taken.currency },
  };
  const event = eventRow("gift_card.used", giftCardId, data, at);
  // Place Order's transaction: on PostgreSQL the movement and the event in one statement
  if (engineOf<DB>(trx) === "postgres") {
    await trx
      .with("used", (db) => db.insertInto("webhookEvents").values(event))
      .insertInto("giftCardMovements")
      .values(movement)
      .execute();
  } else {
    await recordMovement(trx, { ...movement, at });
    await trx.insertInto("webhookEvents").values(event).execute();
  }
  return true;
}

/**
 * Gives back what an order took from gift cards and not given back yet (its payment failed, or it
 * was cancelled before it was paid), inside that transaction. Idempotent: a second call finds
 * nothing left to give back.
 */
export async function releaseGiftCards(trx: Transaction<DB>, orderId: number, now: Date): Promise<void> {
  const rows = await trx
    .selectFrom("giftCardMovements")
    .select((eb) => ["giftCardId", eb.fn.sum<number>("amountCents").as("net")])
    .where("orderId", "=", orderId)
    .where("reason", "in", ["redeemed", "released"])
    .groupBy("giftCardId")
    .orderBy("giftCardId")
    .execute();
  const at = now.toISOString();
  for (const { giftCardId, net } of rows) {
    const owed = -Number(net);
    if (owed <= 0) continue;
    await trx
      .updateTable("giftCards")
      .set((eb) => ({ balanceCents: eb("balanceCents", "+", owed), updatedAt: at }))
      .where("id", "=", giftCardId)
      .execute();
    await recordMovement(trx, {
      giftCardId,
      amountCents: owed,
      reason: "released",
      orderId,
      actor: "checkout",
      at,
    });
  }
}

/**
 * The applied cards (by id, in the order applied) that can pay now: live, holding something, in
 * the shop's currency — store credit only the signed-in account's own. The balances are as read
 * now; Place Order takes them with guarded updates.
 */
export async function usableTenders(
  db: Database | Transaction<DB>,
  ids: readonly number[],
  { userId, currency, now }: { userId: string | null; currency: string; now: Date },
): Promise<Tender[]> {
  if (ids.length === 0) return [];
  const at = now.toISOString();
  const rows = await db
    .selectFrom("giftCards")
    .select(["id", "kind", "last4", "balanceCents", "userId"])
    .where("id", "in", [...ids])
    .where("currency", "=", currency)
    .where("balanceCents", ">", 0)
    .where("disabledAt", "is", null)
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", at)]))
    .execute();
  return ids.flatMap((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row || (row.kind === "store_credit" && (userId === null || row.userId !== userId))) return [];
    return [{ id: row.id, kind: row.kind, last4: row.last4, balanceCents: row.balanceCents }];
  });
}

/** The account's store credit, when it has any to spend. */
export async function storeCreditOf(db: Database, userId: string, currency: string): Promise<Tender | null> {
  const row = await db
    .selectFrom("giftCards")
    .select(["id", "kind", "last4", "balanceCents"])
    .where("userId", "=", userId)
    .where("kind", "=", "store_credit")
    .where("currency", "=", currency)
    .where("balanceCents", ">", 0)
    .where("disabledAt", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * An order's gift card takes, inside its reserving transaction, in id order (the lock order every
 * take and refund follows). False when a card no longer holds its part (the caller rolls back).
 */
export async function takeGiftCards(
  trx: Transaction<DB>,
  takes: readonly { id: number; amountCents: number }[],
  { orderId, now }: { orderId: number; now: Date },
): Promise<boolean> {
  for (const take of [...takes].sort((a, b) => a.id - b.id)) {
    if (!(await takeGiftCard(trx, { giftCardId: take.id, orderId, amountCents: take.amountCents, now })))
      return false;
  }
  return true;
}

/**
 * The gift card part of a refund that succeeded, inside its settling transaction: back to the cards
 * the order was paid with (each at most what it paid and has not had back), or — `toStoreCredit` —
 * all of it to the order's account's store credit (made on first use). Movements `refunded`, with
 * the order, so an order's card refunds always sum to its refunds' gift card parts.
 */
export async function refundToGiftCards(
  trx: Transaction<DB>,
  {
    orderId,
    amountCents,
    toStoreCredit,
    userId,
    currency,
    actor,
    now,
  }: {
    orderId: number;
    amountCents: number;
    toStoreCredit: boolean;
    userId: string | null;
    currency: string;
    actor: string;
    now: Date;
  },
): Promise<void> {
  if (amountCents <= 0) return;
  const at = now.toISOString();
  const credit = async (giftCardId: number, cents: number) => {
    await trx
      .updateTable("giftCards")
      .set((eb) => ({ balanceCents: eb("balanceCents", "+", cents), updatedAt: at }))
      .where("id", "=", giftCardId)
      .execute();
    await recordMovement(trx, { giftCardId, amountCents: cents, reason: "refunded", orderId, actor, at });
  };
  if (toStoreCredit) {
    if (!userId) throw new Error("store credit needs the order's account");
    await credit(await storeCreditId(trx, { userId, currency, at }), amountCents);
    return;
  }
  const paid = await trx
    .selectFrom("giftCardMovements")
    .select((eb) => ["giftCardId", eb.fn.sum<number>("amountCents").as("net")])
    .where("orderId", "=", orderId)
    .where("reason", "in", ["redeemed", "released", "refunded"])
    .groupBy("giftCardId")
    .orderBy("giftCardId")
    .execute();
  let left = amountCents;
  for (const { giftCardId, net } of paid) {
    const owed = Math.min(-Number(net), left);
    if (owed <= 0) continue;
    await credit(giftCardId, owed);
    left -= owed;
  }
  // more than the cards paid can only go back as store credit (the refund's split never asks it)
  if (left > 0) throw new Error("a refund's gift card part exceeds what the order's cards paid");
}

/** The account's store credit row, made (empty) when it has none yet. */
async function storeCreditId(
  trx: Transaction<DB>,
  { userId, currency, at }: { userId: string; currency: string; at: string },
): Promise<number> {
  const existing = await trx
    .selectFrom("giftCards")
    .select("id")
    .where("userId", "=", userId)
    .where("kind", "=", "store_credit")
    .executeTakeFirst();
  if (existing) return existing.id;
  const row = await trx
    .insertInto("giftCards")
    .values({
      kind: "store_credit",
      codeHash: null,
      last4: "",
      currency,
      initialCents: 0,
      balanceCents: 0,
      userId,
      issuedBy: "refund",
      createdAt: at,
      updatedAt: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
