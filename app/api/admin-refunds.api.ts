import { createHash } from "node:crypto";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { OrderStatus } from "../db/schema.ts";
import { advanceOrder, getAdminOrder, ORDER_ADMIN_MESSAGES } from "../domain/orders/order-admin.server.ts";
import { ORDER_STATUSES } from "../domain/orders/order-status.ts";
import { refundOrder, refundRefusalMessage } from "../domain/payments/refunds.server.ts";
import { mailShop } from "../lib/shop-settings.ts";
import { type ApiEnv, adminAccess, keyActor, requireScope } from "./api-auth.server.ts";
import { idempotencyHeaders, moneySchema } from "./conventions.ts";
import { type Problem, problemOf, problemResponses, problemSchema } from "./problem.ts";

/**
 * The Admin API's money back (issue 32): an order's refunds as its page shows them (`getAdminOrder`),
 * a refund as the page's refund form makes it (`refundOrder`: lines and quantities, or an amount;
 * recorded before the gateway is asked, outside any transaction, settled after), and cancelling an
 * order as its Cancel button does (`advanceOrder` to cancelled: a paid order's rest is refunded).
 */

const status = z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]);
const numberParam = z.object({ number: z.string().min(1).max(40) });

/** What the page shows while the gateway's answer is not known: recorded, settled by the job. */
const pendingSchema = z.object({ number: z.string(), status: z.literal("pending"), detail: z.string() });
const gatewayResponse = {
  description: "The payment provider refused or failed the refund: nothing was paid back",
  content: { "application/problem+json": { schema: problemSchema } },
};

/** A 502 as problem+json (the provider's failure, in the page's words). */
function gatewayProblem(c: Context, detail: string) {
  const body: Problem = { type: "about:blank", title: "Bad Gateway", status: 502, detail };
  return c.json(body, 502, { "Content-Type": "application/problem+json", "Cache-Control": "no-store" });
}

const refundable = z
  .object({
    refunded: moneySchema,
    left: moneySchema.openapi({ description: "what can still be refunded (pending refunds left out)" }),
    lines: z.array(
      z.object({
        itemId: z.number().int().openapi({ description: "the order line, as a refund's lines name it" }),
        name: z.string(),
        variantTitle: z.string(),
        quantity: z.number().int(),
        refundable: z.number().int().openapi({ description: "units not refunded yet" }),
      }),
    ),
    storeCredit: z
      .boolean()
      .openapi({ description: "the order has an account: a refund may be store credit" }),
  })
  .nullable()
  .openapi({ description: "null when the order cannot be refunded (its status, or nothing left)" });

const refundRecord = z.object({
  amount: moneySchema,
  reason: z.string(),
  restocked: z.boolean(),
  status: z.enum(["pending", "succeeded", "failed"]),
  failure: z.string().nullable(),
  giftCard: moneySchema.openapi({ description: "what of it went back to gift cards or store credit" }),
  toStoreCredit: z.boolean(),
  createdAt: z.string(),
});

const getRefunds = createRoute({
  method: "get",
  path: "/admin/orders/{number}/refunds",
  operationId: "listOrderRefunds",
  tags: ["Admin: refunds"],
  summary: "An order's refunds, and what its refund form offers (lines and what is left)",
  ...adminAccess("refunds", "read"),
  request: { params: numberParam },
  responses: {
    200: {
      description: "The order's refunds",
      content: {
        "application/json": {
          schema: z
            .object({
              number: z.string(),
              status,
              total: moneySchema,
              refundable,
              refunds: z.array(refundRecord),
            })
            .openapi("OrderRefunds"),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const refundBody = z
  .object({
    lines: z
      .array(
        z.object({
          itemId: z.number().int().positive().max(2_147_483_647),
          quantity: z.number().int().min(1).max(100_000),
        }),
      )
      .max(500)
      .optional()
      .openapi({ description: "lines and units to refund (their share of what was paid); or an amount" }),
    amount: z
      .object({
        amount: z.number().int().min(1).max(999_999_999),
        currency: z.string().length(3),
      })
      .optional()
      .openapi({ description: "an amount to refund, in the order's currency (when no lines are named)" }),
    restock: z.boolean().optional().openapi({ description: "put the refunded units back into stock" }),
    storeCredit: z
      .boolean()
      .optional()
      .openapi({ description: "all of it as store credit on the order's account" }),
    reason: z.string().trim().max(200).optional(),
  })
  .strict()
  .openapi("Refund");

const createRefund = createRoute({
  method: "post",
  path: "/admin/orders/{number}/refunds",
  operationId: "refundOrder",
  tags: ["Admin: refunds"],
  summary: "Refund lines of an order, or an amount, as the order page's refund form does",
  description:
    "Recorded before the payment provider is asked, never more than is left or than the units bought. The Idempotency-Key is also the refund's own key: sent again, it refunds once.",
  ...adminAccess("refunds", "write"),
  request: {
    params: numberParam,
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: refundBody } } },
  },
  responses: {
    200: {
      description: "Refunded",
      content: {
        "application/json": {
          schema: z
            .object({ number: z.string(), amount: moneySchema, status, replayed: z.boolean() })
            .openapi("RefundMade"),
        },
      },
    },
    202: {
      description: "Recorded; the payment provider's answer is awaited and settles it shortly",
      content: { "application/json": { schema: pendingSchema } },
    },
    502: gatewayResponse,
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const cancelOrder = createRoute({
  method: "post",
  path: "/admin/orders/{number}/cancellation",
  operationId: "cancelOrder",
  tags: ["Admin: refunds"],
  summary: "Cancel an order as its page's Cancel button does (a paid order's payment is refunded)",
  description:
    "Its items go back into stock and its code's use is given back; a paid order is cancelled in the same step that records its refund. Cannot be undone. Needs refunds:write as well as orders:write, as the page needs both permissions.",
  security: [{ apiKey: [] }],
  "x-scope": "orders:write",
  "x-scope-also": ["refunds:write"],
  middleware: [requireScope("orders", "write"), requireScope("refunds", "write")] as const,
  request: { params: numberParam, headers: idempotencyHeaders },
  responses: {
    200: {
      description: "Cancelled",
      content: { "application/json": { schema: z.object({ number: z.string(), status }) } },
    },
    202: {
      description: "Its refund waits for the payment provider's answer; the order is cancelled with it",
      content: { "application/json": { schema: pendingSchema } },
    },
    502: gatewayResponse,
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

/**
 * A refund's own key from the request's Idempotency-Key (another API key's same value is another
 * refund); a long one hashed, so the payment provider's key (`refund:<key>`) stays within its limits.
 */
function refundKeyOf(apiKeyId: number, idempotencyKey: string): string {
  const key =
    idempotencyKey.length <= 100 ? idempotencyKey : createHash("sha256").update(idempotencyKey).digest("hex");
  return `api:${apiKeyId}:${key}`;
}

/** The refund refusals the page shows beside its form, by the status the API answers them with. */
const REFUSAL_STATUS = {
  "nothing-chosen": 400,
  "not-refundable": 409,
  "too-much": 409,
  "line-too-much": 409,
  "no-account": 409,
  "gift-card-used": 409,
} as const;

export function registerAdminRefunds(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(getRefunds, async (c) => {
    const found = await getAdminOrder(c.get("db"), c.req.valid("param").number.toUpperCase());
    if (!found) return problemOf(c, 404, "No order has that number.");
    const money = (amount: number) => ({ amount, currency: found.currency });
    return c.json(
      {
        number: found.number,
        status: found.status,
        total: money(found.totals.totalCents),
        refundable: found.refund
          ? {
              refunded: money(found.refund.refundedCents),
              left: money(found.refund.leftCents),
              lines: found.refund.lines,
              storeCredit: found.refund.storeCredit,
            }
          : null,
        refunds: found.refunds.map((r) => ({
          amount: money(r.amountCents),
          reason: r.reason,
          restocked: r.restocked,
          status: r.status,
          failure: r.failure,
          giftCard: money(r.giftCardCents),
          toStoreCredit: r.toStoreCredit,
          createdAt: r.createdAt,
        })),
      },
      200,
    );
  });

  api.openapi(createRefund, async (c) => {
    const { db, gateway, mail, settings, config } = c.get("services");
    const number = c.req.valid("param").number.toUpperCase();
    const body = c.req.valid("json");
    const caller = c.get("caller");
    const lines = body.lines ?? [];
    if (body.amount && lines.length > 0) {
      return problemOf(c, 400, "Name the lines to refund, or an amount: not both.");
    }
    let amountCents: number | null = null;
    if (body.amount) {
      // the amount is the order's currency's, as the form's is (its order page shows it in it)
      const order = await getAdminOrder(db, number);
      if (!order) return problemOf(c, 404, "No order has that number.");
      if (body.amount.currency.toUpperCase() !== order.currency) {
        return problemOf(c, 400, `The amount must be in the order's currency, ${order.currency}.`);
      }
      amountCents = body.amount.amount;
    }
    const result = await refundOrder(
      { db, gateway, mail, shop: mailShop(await settings.current(), config.PUBLIC_URL) },
      {
        number,
        key: refundKeyOf(caller.id, c.req.valid("header")["idempotency-key"]),
        lines,
        amountCents,
        restock: body.restock ?? false,
        toStoreCredit: body.storeCredit ?? false,
        reason: body.reason ?? "",
        actor: keyActor(caller),
      },
    );
    if (result.ok) {
      const { amountCents: amount, currency, status: after, replayed } = result.value;
      return c.json({ number, amount: { amount, currency }, status: after, replayed }, 200);
    }
    const error = result.error;
    switch (error.code) {
      case "forbidden":
        return problemOf(c, 403, refundRefusalMessage(error));
      case "not-found":
        return problemOf(c, 404, "No order has that number.");
      case "pending":
        return c.json({ number, status: "pending" as const, detail: refundRefusalMessage(error) }, 202);
      case "gateway":
        return gatewayProblem(c, refundRefusalMessage(error));
      default:
        return problemOf(c, REFUSAL_STATUS[error.code], refundRefusalMessage(error));
    }
  });

  api.openapi(cancelOrder, async (c) => {
    const { db, gateway, mail, settings, config } = c.get("services");
    const number = c.req.valid("param").number.toUpperCase();
    const moved = await advanceOrder(
      { db, gateway, mail, shop: mailShop(await settings.current(), config.PUBLIC_URL) },
      // the API call is the confirmation the page's confirm step asks for
      { number, to: "cancelled", actor: keyActor(c.get("caller")), confirmed: true },
    );
    if (moved.ok) return c.json({ number, status: moved.value.to }, 200);
    switch (moved.error.code) {
      case "not-found":
        return problemOf(c, 404, "No order has that number.");
      case "not-allowed":
        return problemOf(c, 409, ORDER_ADMIN_MESSAGES.notAllowed(moved.error.from, "cancelled"));
      case "refund-pending":
        return c.json(
          { number, status: "pending" as const, detail: ORDER_ADMIN_MESSAGES.refundPending },
          202,
        );
      case "refund-failed":
        return gatewayProblem(c, ORDER_ADMIN_MESSAGES.refundFailed(moved.error.message));
      default:
        // "unconfirmed" cannot happen here (confirmed above); "forbidden": the key's scopes
        return problemOf(c, 403, "This API key may not cancel orders.");
    }
  });
}
