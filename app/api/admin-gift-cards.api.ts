import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { sendGiftCardEmail } from "../domain/gift-cards/gift-card-email.server.ts";
import { GIFT_CARD_LIMITS, GIFT_CARD_MESSAGES as M } from "../domain/gift-cards/gift-card-form.ts";
import {
  type GiftCardView,
  getGiftCard,
  issueGiftCard,
  listGiftCards,
} from "../domain/gift-cards/gift-cards.server.ts";
import { mailShop } from "../lib/shop-settings.ts";
import { endOfDayIn } from "../lib/time-zones.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders, moneySchema, pageSchema } from "./conventions.ts";
import { SECRET_ANSWER_HEADER } from "./idempotency.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Admin API's gift cards (issue 32; the `refunds` permission, as the admin's pages: a card is
 * money the shop gives): the list newest first (`listGiftCards`), one card with its movements
 * (`getGiftCard`), and a card issued as Admin → Gift cards → Issue does (`issueGiftCard`, its code
 * e-mailed to the recipient when there is one). The code is in the answer to the issuing request
 * only — never kept with the API's idempotency answers.
 */

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const pageCursor = z.object({
  page: z.number().int().min(1).max(100_000),
  perPage: z.number().int().min(1).max(100),
});

const giftCard = z
  .object({
    id: z.number().int(),
    kind: z.enum(["gift_card", "store_credit"]),
    last4: z.string().openapi({ description: "the code's last four characters, to tell cards apart" }),
    initial: moneySchema,
    balance: moneySchema,
    expiresAt: z.string().nullable().openapi({ description: "the end of its last day; null: never" }),
    recipientEmail: z.string().nullable(),
    recipientName: z.string().nullable(),
    disabled: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("GiftCard");

function cardOf(card: GiftCardView) {
  const money = (amount: number) => ({ amount, currency: card.currency });
  return {
    id: card.id,
    kind: card.kind,
    last4: card.last4,
    initial: money(card.initialCents),
    balance: money(card.balanceCents),
    expiresAt: card.expiresAt,
    recipientEmail: card.recipientEmail,
    recipientName: card.recipientName,
    disabled: card.disabled,
    createdAt: card.createdAt,
  };
}

const listCards = createRoute({
  method: "get",
  path: "/admin/gift-cards",
  operationId: "listGiftCards",
  tags: ["Admin: gift cards"],
  summary: "The gift cards and store credit, newest first, as in the admin's list",
  ...adminAccess("refunds", "read"),
  request: { query: pageSchema },
  responses: {
    200: {
      description: "A page of cards",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(giftCard), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getCard = createRoute({
  method: "get",
  path: "/admin/gift-cards/{id}",
  operationId: "getGiftCard",
  tags: ["Admin: gift cards"],
  summary: "One card with its message and its movements, oldest first, as its page shows them",
  ...adminAccess("refunds", "read"),
  request: { params: idParam },
  responses: {
    200: {
      description: "The card",
      content: {
        "application/json": {
          schema: giftCard
            .extend({
              message: z.string().nullable(),
              movements: z.array(
                z.object({
                  amount: moneySchema.openapi({ description: "positive: onto the card; negative: taken" }),
                  reason: z.enum(["issued", "redeemed", "released", "refunded"]),
                  orderNumber: z.string().nullable(),
                  createdAt: z.string(),
                }),
              ),
            })
            .openapi("GiftCardDetail"),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const issueCard = createRoute({
  method: "post",
  path: "/admin/gift-cards",
  operationId: "issueGiftCard",
  tags: ["Admin: gift cards"],
  summary: "Issue a gift card, as Admin → Gift cards → Issue does; its code is in this answer only",
  description:
    "The code is e-mailed to the recipient when one is given. The answer holding the code is not kept: the same Idempotency-Key again issues nothing more and answers with the card without its code (code: null).",
  ...adminAccess("refunds", "write"),
  request: {
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              amount: z.object({
                amount: z
                  .number()
                  .int(M.amount)
                  .min(GIFT_CARD_LIMITS.minCents, M.amount)
                  .max(GIFT_CARD_LIMITS.maxCents, M.amount),
                currency: z.string().length(3),
              }),
              expiresOn: z
                .string()
                .regex(/^\d{4}-\d{2}-\d{2}$/, M.expiresAt)
                .optional()
                .openapi({
                  description: "its last day (YYYY-MM-DD) on the shop's clocks; absent: never expires",
                }),
              recipientEmail: z.email(M.recipientEmail).max(254, M.recipientEmail).optional(),
              recipientName: z.string().trim().max(GIFT_CARD_LIMITS.name, M.recipientName).optional(),
              message: z.string().max(GIFT_CARD_LIMITS.message, M.message).optional(),
            })
            .strict()
            .openapi("GiftCardToIssue"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Issued (or, for the same Idempotency-Key again, the card issued then, without its code)",
      content: {
        "application/json": {
          schema: z.object({
            card: giftCard,
            code: z.string().nullable().openapi({ description: "the card's code: shown this once" }),
            emailedTo: z.string().nullable(),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 409, 422, 429),
  },
});

export function registerAdminGiftCards(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listCards, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor
      ? decodeCursor(query.cursor, pageCursor)
      : { page: 1, perPage: query.limit };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const page = await listGiftCards(c.get("db"), position);
    return c.json(
      {
        data: page.cards.map(cardOf),
        nextCursor: page.hasMore
          ? encodeCursor({ page: position.page + 1, perPage: position.perPage })
          : null,
      },
      200,
    );
  });

  api.openapi(getCard, async (c) => {
    const found = await getGiftCard(c.get("db"), c.req.valid("param").id);
    if (!found) return problemOf(c, 404, M.notFound);
    const { card, message, movements } = found;
    return c.json(
      {
        ...cardOf(card),
        message,
        movements: movements.map((m) => ({
          amount: { amount: m.amountCents, currency: card.currency },
          reason: m.reason,
          orderNumber: m.orderNumber,
          createdAt: m.createdAt,
        })),
      },
      200,
    );
  });

  api.openapi(issueCard, async (c) => {
    const { db, mail, settings, config } = c.get("services");
    const body = c.req.valid("json");
    const caller = c.get("caller");
    const shop = await settings.current();
    if (body.amount.currency.toUpperCase() !== shop.currency) {
      return problemOf(c, 400, `A gift card is in the shop's currency, ${shop.currency}.`);
    }
    const expiresAt = body.expiresOn ? endOfDayIn(body.expiresOn, shop.timeZone) : null;
    if (body.expiresOn && !expiresAt) return problemOf(c, 400, M.expiresAt);
    const message = body.message?.replace(/\r\n?/g, "\n") || null;
    const issued = await issueGiftCard(db, {
      input: {
        // the card's own key: this key's Idempotency-Key (the same one again issues nothing more)
        key: `api:${caller.id}:${c.req.valid("header")["idempotency-key"]}`,
        amountCents: body.amount.amount,
        currency: shop.currency,
        expiresAt,
        recipientEmail: body.recipientEmail || null,
        recipientName: body.recipientName || null,
        message,
      },
      actor: keyActor(caller),
    });
    if (!issued.ok) {
      if (issued.error.code !== "invalid") return problemOf(c, 403, "This API key may not issue gift cards.");
      return problemOf(c, 400, issued.error.field === "amount" ? M.amount : M.expiresAt);
    }
    const { card, code } = issued.value;
    if (code === null) return c.json({ card: cardOf(card), code: null, emailedTo: null }, 200);
    const emailed = await sendGiftCardEmail(
      mail,
      { ...mailShop(shop, config.PUBLIC_URL), timeZone: shop.timeZone },
      { card, code, message },
    );
    // shown once: not kept with the Idempotency-Key's answer (app/api/idempotency.ts)
    c.header(SECRET_ANSWER_HEADER, "1");
    c.header("Cache-Control", "no-store");
    return c.json({ card: cardOf(card), code, emailedTo: emailed ? card.recipientEmail : null }, 200);
  });
}
