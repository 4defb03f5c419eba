import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { GiftCardKind, GiftCardMovementReason } from "../../db/schema-gift-cards.ts";
import { type Currency, currencyOf } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { type GiftCardIssuedData, recordEvent } from "../integrations/webhook-outbox.server.ts";
import { GIFT_CARD_LIMITS } from "./gift-card-form.ts";

/**
 * Gift cards and store credit (issue 31, migration 0730, decision 036): a balance in the shop's
 * currency that pays for orders. This module owns every balance: each change is a guarded update
 * (never below zero, never on a disabled or expired card) and a movement written in the same
 * transaction, so a balance always equals the sum of its movements (`checkGiftCardLedger`).
 *
 * A code is 16 symbols from 32 that cannot be mistaken for each other (80 bits from the CSPRNG),
 * shown as XXXX-XXXX-XXXX-XXXX; the shop keeps only its SHA-256 (a code is a bearer secret, and 80
 * random bits need no slow hash) and its last four symbols to name it.
 */

/** 32 symbols: the letters but I and O, the digits but 0 and 1 */
const SYMBOLS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 16;

/** A new code (unformatted): every byte's low 5 bits pick one of the 32 symbols (256 = 8 × 32: no bias). */
function newCode(): string {
  let code = "";
  for (const byte of randomBytes(CODE_LENGTH)) code += SYMBOLS[byte & 31];
  return code;
}

/** "ABCD-EFGH-JKLM-NPQR" as a shopper may type it (any case, spaces or dashes) → its 16 symbols; null when not a code. */
export function normalizeGiftCardCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== CODE_LENGTH) return null;
  for (const symbol of code) if (!SYMBOLS.includes(symbol)) return null;
  return code;
}

/** 16 symbols → "ABCD-EFGH-JKLM-NPQR". */
export function formatGiftCardCode(code: string): string {
  return code.match(/.{1,4}/g)!.join("-");
}

const hashOf = (code: string) => createHash("sha256").update(code).digest("hex");

export interface GiftCardView {
  id: number;
  kind: GiftCardKind;
  last4: string;
  currency: Currency;
  initialCents: number;
  balanceCents: number;
  expiresAt: string | null;
  recipientEmail: string | null;
  recipientName: string | null;
  disabled: boolean;
  createdAt: string;
}

const VIEW_COLUMNS = [
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
] as const;

function viewOf(row: {
  id: number;
  kind: GiftCardKind;
  last4: string;
  currency: string;
  initialCents: number;
  balanceCents: number;
  expiresAt: string | null;
  recipientEmail: string | null;
  recipientName: string | null;
  disabledAt: string | null;
  createdAt: string;
}): GiftCardView {
  const { disabledAt, currency, ...rest } = row;
  return { ...rest, currency: currencyOf(currency), disabled: disabledAt !== null };
}

export interface IssueGiftCardInput {
  /** one per form shown: the same form sent twice issues one card */
  key: string;
  amountCents: number;
  currency: Currency;
  expiresAt: string | null;
  recipientEmail: string | null;
  recipientName: string | null;
  message: string | null;
}

export type GiftCardError =
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "invalid"; field: string };

/**
 * Issues a gift card from the admin (permission `refunds`: it is money the shop gives): its code is
 * in the answer only — shown once, and e-mailed to the recipient by the caller. The same form sent
 * again (its key) answers with the card it issued, without its code (`code: null`).
 */
export async function issueGiftCard(
  db: Database,
  { input, actor, now = new Date() }: { input: IssueGiftCardInput; actor: StaffActor; now?: Date },
): Promise<Result<{ card: GiftCardView; code: string | null }, GiftCardError>> {
  if (!actorCan(actor, "refunds")) return fail({ code: "forbidden" });
  const issued = async () => {
    const row = await db
      .selectFrom("giftCards")
      .select(VIEW_COLUMNS)
      .where("issueKey", "=", input.key)
      .executeTakeFirst();
    return row ? ok({ card: viewOf(row), code: null }) : null;
  };
  const before = await issued();
  if (before) return before;
  const { amountCents } = input;
  if (
    !Number.isSafeInteger(amountCents) ||
    amountCents < GIFT_CARD_LIMITS.minCents ||
    amountCents > GIFT_CARD_LIMITS.maxCents
  ) {
    return fail({ code: "invalid", field: "amount" });
  }
  if (input.expiresAt !== null && input.expiresAt <= now.toISOString()) {
    return fail({ code: "invalid", field: "expiresAt" });
  }
  const at = now.toISOString();
  try {
    return await insertGiftCard(db, input, actor, now, at);
  } catch (error) {
    // the same form sent twice at once: the other request issued it
    const twin = await issued();
    if (twin) return twin;
    throw error;
  }
}

async function insertGiftCard(
  db: Database,
  input: IssueGiftCardInput,
  actor: StaffActor,
  now: Date,
  at: string,
) {
  const { amountCents } = input;
  return db.transaction().execute(async (trx) => {
    const code = newCode();
    const row = await trx
      .insertInto("giftCards")
      .values({
        kind: "gift_card",
        codeHash: hashOf(code),
        last4: code.slice(-4),
        currency: input.currency,
        initialCents: amountCents,
        balanceCents: amountCents,
        expiresAt: input.expiresAt,
        userId: null,
        recipientEmail: input.recipientEmail,
        recipientName: input.recipientName,
        message: input.message,
        issuedBy: `staff:${actor.id}`,
        issueKey: input.key,
        orderId: null,
        disabledAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordMovement(trx, {
      giftCardId: row.id,
      amountCents,
      reason: "issued",
      orderId: null,
      actor: `staff:${actor.id}`,
      at,
    });
    await recordAudit(trx, {
      actor,
      action: "gift_card.issue",
      entityType: "gift_card",
      entityId: row.id,
      summary: `Issued gift card ending ${row.last4}`,
      after: {
        amountCents,
        currency: input.currency,
        expiresAt: input.expiresAt,
        recipientEmail: input.recipientEmail,
      },
      now,
    });
    await recordIssued(trx, row, null, at);
    return ok({ card: viewOf(row), code: formatGiftCardCode(code) });
  });
}

/**
 * A gift card bought in an order, issued once the order is paid (gift-card-delivery.server.ts), in
 * the caller's transaction: its code is in the answer only, for the e-mail that delivers it.
 */
export async function issueSoldGiftCard(
  trx: Transaction<DB>,
  card: {
    amountCents: number;
    currency: string;
    recipientEmail: string;
    recipientName: string | null;
    message: string | null;
    orderId: number;
    orderNumber: string;
    userId: string | null;
    now: Date;
  },
): Promise<{ card: GiftCardView; code: string }> {
  const at = card.now.toISOString();
  const code = newCode();
  const row = await trx
    .insertInto("giftCards")
    .values({
      kind: "gift_card",
      codeHash: hashOf(code),
      last4: code.slice(-4),
      currency: card.currency,
      initialCents: card.amountCents,
      balanceCents: card.amountCents,
      expiresAt: null,
      userId: card.userId,
      recipientEmail: card.recipientEmail,
      recipientName: card.recipientName,
      message: card.message,
      issuedBy: `order:${card.orderNumber}`,
      issueKey: null,
      orderId: card.orderId,
      disabledAt: null,
      createdAt: at,
      updatedAt: at,
    })
    .returning(VIEW_COLUMNS)
    .executeTakeFirstOrThrow();
  await recordMovement(trx, {
    giftCardId: row.id,
    amountCents: card.amountCents,
    reason: "issued",
    orderId: null,
    actor: `order:${card.orderNumber}`,
    at,
  });
  await recordIssued(trx, row, card.orderNumber, at);
  return { card: viewOf(row), code: formatGiftCardCode(code) };
}

/** The card's `gift_card.issued` event, in the transaction that issued it (decision 039). */
async function recordIssued(
  trx: Transaction<DB>,
  row: { id: number; last4: string; currency: string; initialCents: number; expiresAt: string | null },
  orderNumber: string | null,
  at: string,
) {
  const data: GiftCardIssuedData = {
    id: row.id,
    last4: row.last4,
    initial: { amount: row.initialCents, currency: row.currency },
    expiresAt: row.expiresAt,
    orderNumber,
  };
  await recordEvent(trx, "gift_card.issued", { subjectId: row.id, data, at });
}

/** A balance's change, written beside it in the same transaction (what `checkGiftCardLedger` sums). */
export async function recordMovement(
  trx: Transaction<DB>,
  movement: {
    giftCardId: number;
    amountCents: number;
    reason: GiftCardMovementReason;
    orderId: number | null;
    actor: string;
    at: string;
  },
) {
  const { at, ...values } = movement;
  await trx
    .insertInto("giftCardMovements")
    .values({ ...values, createdAt: at })
    .execute();
}

/** Why a code cannot pay: unknown (or not a code), disabled, expired, or nothing left on it. */
export type GiftCardRefusal = { code: "unknown" | "disabled" | "expired" | "empty" };

/** A gift card as a shopper may use it now, by its code: its balance, or why not. */
export async function findGiftCard(
  db: Database,
  typed: string,
  now: Date = new Date(),
): Promise<Result<GiftCardView, GiftCardRefusal>> {
  const code = normalizeGiftCardCode(typed);
  if (!code) return fail({ code: "unknown" } as const);
  const row = await db
    .selectFrom("giftCards")
    .select(VIEW_COLUMNS)
    .where("codeHash", "=", hashOf(code))
    .where("kind", "=", "gift_card")
    .executeTakeFirst();
  if (!row) return fail({ code: "unknown" } as const);
  if (row.disabledAt !== null) return fail({ code: "disabled" } as const);
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return fail({ code: "expired" } as const);
  if (row.balanceCents === 0) return fail({ code: "empty" } as const);
  return ok(viewOf(row));
}

/** Disables or enables a card (disabled: it cannot pay; its balance stays, shown to staff). */
export async function setGiftCardDisabled(
  db: Database,
  { id, disabled, actor, now = new Date() }: { id: number; disabled: boolean; actor: StaffActor; now?: Date },
): Promise<Result<GiftCardView, GiftCardError>> {
  if (!actorCan(actor, "refunds")) return fail({ code: "forbidden" });
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("giftCards")
      .set({ disabledAt: disabled ? at : null, updatedAt: at })
      .where("id", "=", id)
      .returning(VIEW_COLUMNS)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-found" } as const);
    await recordAudit(trx, {
      actor,
      action: disabled ? "gift_card.disable" : "gift_card.enable",
      entityType: "gift_card",
      entityId: id,
      summary: `${disabled ? "Disabled" : "Enabled"} gift card ending ${row.last4}`,
      now,
    });
    return ok(viewOf(row));
  });
}

/** The cards, newest first, a page at a time. */
export async function listGiftCards(
  db: Database,
  { page, perPage = 50 }: { page: number; perPage?: number },
): Promise<{ cards: GiftCardView[]; hasMore: boolean }> {
  const rows = await db
    .selectFrom("giftCards")
    .select(VIEW_COLUMNS)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(perPage + 1)
    .offset((page - 1) * perPage)
    .execute();
  return { cards: rows.slice(0, perPage).map(viewOf), hasMore: rows.length > perPage };
}

export interface GiftCardMovementView {
  amountCents: number;
  reason: GiftCardMovementReason;
  orderNumber: string | null;
  actor: string;
  createdAt: string;
}

/** One card with its movements, oldest first. */
export async function getGiftCard(
  db: Database,
  id: number,
): Promise<{ card: GiftCardView; message: string | null; movements: GiftCardMovementView[] } | null> {
  const row = await db
    .selectFrom("giftCards")
    .select([...VIEW_COLUMNS, "message"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const movements = await db
    .selectFrom("giftCardMovements")
    .leftJoin("orders", "orders.id", "giftCardMovements.orderId")
    .select([
      "giftCardMovements.amountCents",
      "giftCardMovements.reason",
      "orders.number as orderNumber",
      "giftCardMovements.actor",
      "giftCardMovements.createdAt",
    ])
    .where("giftCardMovements.giftCardId", "=", id)
    .orderBy("giftCardMovements.id")
    .execute();
  const { message, ...card } = row;
  return { card: viewOf(card), message, movements };
}

/** Cards whose balance is not the sum of their movements (none, unless something wrote around this module). */
export async function checkGiftCardLedger(
  db: Database,
): Promise<{ id: number; balanceCents: number; ledgerCents: number }[]> {
  const rows = await db
    .selectFrom("giftCards")
    .leftJoin("giftCardMovements", "giftCardMovements.giftCardId", "giftCards.id")
    .select((eb) => [
      "giftCards.id",
      "giftCards.balanceCents",
      eb.fn.coalesce(eb.fn.sum<number>("giftCardMovements.amountCents"), eb.lit(0)).as("ledgerCents"),
    ])
    .groupBy(["giftCards.id", "giftCards.balanceCents"])
    .execute();
  return rows
    .map((row) => ({ id: row.id, balanceCents: row.balanceCents, ledgerCents: Number(row.ledgerCents) }))
    .filter((row) => row.balanceCents !== row.ledgerCents);
}
