import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  RETURN_REASONS,
  RETURN_STATUS_LABELS,
  RETURN_STATUSES,
  RETURN_TRANSITIONS,
  type ReturnStatus,
} from "../domain/returns/return-status.ts";
import { getReturn, listReturns, moveReturn } from "../domain/returns/returns.server.ts";
import { mailShop } from "../lib/shop-settings.ts";
import { type ApiEnv, adminAccess, keyActor, requireScope } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders, moneySchema } from "./conventions.ts";
import { type Problem, problemOf, problemResponses, problemSchema } from "./problem.ts";

/**
 * The Admin API's returns (issue 32): the admin's list (`listReturns`, its status filter, pages of
 * 25 reached by the cursor), one return as its page reads it (`getReturn`), and the page's buttons —
 * approve, reject (with the reason the customer reads), receive (its units back into stock), refund
 * (through the refund workflow under the return's own key) — each `moveReturn`, as the page calls it.
 */

const statusSchema = z.enum(RETURN_STATUSES as [ReturnStatus, ...ReturnStatus[]]);
const numberParam = z.object({ number: z.string().min(1).max(40) });
const RETURN_NUMBER = /^RT-[0-9A-Z]{1,20}$/;
const pageCursor = z.object({ page: z.number().int().min(1).max(100_000) });

const returnSummary = z
  .object({
    number: z.string(),
    status: statusSchema,
    orderNumber: z.string(),
    email: z.string(),
    createdAt: z.string(),
  })
  .openapi("ReturnSummary");

const returnDetail = z
  .object({
    number: z.string(),
    status: statusSchema,
    reason: z.string().openapi({ description: `the shopper's: ${RETURN_REASONS.join("; ")}` }),
    rejectionReason: z.string().nullable(),
    refund: moneySchema.nullable().openapi({ description: "what was refunded, once it is" }),
    createdAt: z.string(),
    orderNumber: z.string(),
    email: z.string(),
    items: z.array(
      z.object({
        orderItemId: z.number().int(),
        productId: z.number().int().nullable(),
        variantId: z.number().int().nullable(),
        name: z.string(),
        variantTitle: z.string(),
        quantity: z.number().int(),
      }),
    ),
    next: z.array(statusSchema).openapi({ description: "the statuses it can move to now" }),
  })
  .openapi("Return");

const listReturnsRoute = createRoute({
  method: "get",
  path: "/admin/returns",
  operationId: "listReturns",
  tags: ["Admin: returns"],
  summary: "The returns, newest first, optionally of one status, as in the admin's list",
  ...adminAccess("returns", "read"),
  request: {
    query: z.object({
      status: statusSchema.optional(),
      cursor: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: "the nextCursor of the page before (pages of 25, as the admin's)" }),
    }),
  },
  responses: {
    200: {
      description: "A page of returns",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(returnSummary), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getReturnRoute = createRoute({
  method: "get",
  path: "/admin/returns/{number}",
  operationId: "getReturn",
  tags: ["Admin: returns"],
  summary: "One return with its items, as its page shows it",
  ...adminAccess("returns", "read"),
  request: { params: numberParam },
  responses: {
    200: { description: "The return", content: { "application/json": { schema: returnDetail } } },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const moved = z.object({ number: z.string(), status: statusSchema });

/** One of the return page's buttons as an operation: `to` the status it moves the return to. */
function moveRoute(
  to: Exclude<ReturnStatus, "requested">,
  { path, operationId, summary }: { path: string; operationId: string; summary: string },
) {
  return createRoute({
    method: "post",
    path: `/admin/returns/{number}/${path}`,
    operationId,
    tags: ["Admin: returns"],
    summary,
    security: [{ apiKey: [] }],
    "x-scope": "returns:write",
    middleware: [requireScope("returns", "write")] as const,
    request: { params: numberParam, headers: idempotencyHeaders },
    responses: {
      200: { description: "Moved", content: { "application/json": { schema: moved } } },
      ...(to === "refunded"
        ? {
            202: {
              description:
                "The refund waits for the payment provider's answer; the return is refunded with it",
              content: {
                "application/json": {
                  schema: z.object({ number: z.string(), status: z.literal("pending"), detail: z.string() }),
                },
              },
            },
            502: {
              description: "The payment provider refused or failed the refund",
              content: { "application/problem+json": { schema: problemSchema } },
            },
          }
        : {}),
      ...problemResponses(400, 401, 403, 404, 409, 422, 429),
    },
  });
}

const approveReturn = moveRoute("approved", {
  path: "approval",
  operationId: "approveReturn",
  summary: "Approve a requested return (the customer is e-mailed to send the items)",
});
const rejectBase = moveRoute("rejected", {
  path: "rejection",
  operationId: "rejectReturn",
  summary: "Reject a requested return, with the reason the customer reads",
});
const rejectReturn = createRoute({
  ...rejectBase,
  request: {
    ...rejectBase.request,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              reason: z
                .string()
                .trim()
                .min(1, "Say why the return is rejected: the customer reads it.")
                .max(300)
                .openapi({ description: "why, as the customer reads it in the e-mail" }),
            })
            .strict(),
        },
      },
    },
  },
});
const receiveReturn = moveRoute("received", {
  path: "receipt",
  operationId: "receiveReturn",
  summary: "Mark an approved return received: its units go back into stock",
});
const refundReturnRoute = moveRoute("refunded", {
  path: "refund",
  operationId: "refundReturn",
  summary: "Refund a received return's items (and the shipping for a faulty, damaged or wrong item)",
});

export function registerAdminReturns(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listReturnsRoute, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor ? decodeCursor(query.cursor, pageCursor) : { page: 1 };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const page = await listReturns(c.get("db"), { status: query.status ?? null, page: position.page });
    return c.json(
      {
        data: page.returns,
        nextCursor: page.hasMore ? encodeCursor({ page: position.page + 1 }) : null,
      },
      200,
    );
  });

  api.openapi(getReturnRoute, async (c) => {
    const number = c.req.valid("param").number.toUpperCase();
    const found = RETURN_NUMBER.test(number) ? await getReturn(c.get("db"), number) : null;
    if (!found) return problemOf(c, 404, "No return has that number.");
    return c.json(
      {
        number: found.number,
        status: found.status,
        reason: found.reason,
        rejectionReason: found.rejectionReason,
        refund: found.refundCents === null ? null : { amount: found.refundCents, currency: found.currency },
        createdAt: found.createdAt,
        orderNumber: found.orderNumber,
        email: found.email,
        items: found.items.map((item) => ({
          orderItemId: item.orderItemId,
          productId: item.productId,
          variantId: item.variantId,
          name: item.name,
          variantTitle: item.variantTitle,
          quantity: item.quantity,
        })),
        next: [...RETURN_TRANSITIONS[found.status]],
      },
      200,
    );
  });

  /** The page's action for one button: the same command, its refusals in the page's words. */
  async function move(
    c: Context<ApiEnv>,
    to: Exclude<ReturnStatus, "requested">,
    rejectionReason: string | null,
  ) {
    const number = (c.req.param("number") ?? "").toUpperCase();
    if (!RETURN_NUMBER.test(number)) return { status: 404, detail: "No return has that number." } as const;
    const { db, gateway, mail, settings, config } = c.get("services");
    const result = await moveReturn(
      db,
      { gateway, mail, shop: mailShop(await settings.current(), config.PUBLIC_URL) },
      { number, to, actor: keyActor(c.get("caller")), rejectionReason },
    );
    if (result.ok) return { status: 200, number, to: result.value.to } as const;
    switch (result.error.code) {
      case "forbidden":
        return { status: 403, detail: "This API key may not change returns." } as const;
      case "not-found":
        return { status: 404, detail: "No return has that number." } as const;
      case "refund":
        return { status: 502, detail: `The refund failed: ${result.error.message}.` } as const;
      case "refund-pending":
        return {
          status: 202,
          detail:
            "The refund is waiting for the payment provider's answer; the return is marked refunded as soon as it comes.",
        } as const;
      case "not-allowed":
        return {
          status: 409,
          detail: `This return is ${RETURN_STATUS_LABELS[result.error.from].toLowerCase()} and cannot become ${to}.`,
        } as const;
    }
  }

  for (const [route, to] of [
    [approveReturn, "approved"],
    [receiveReturn, "received"],
  ] as const) {
    api.openapi(route, async (c) => {
      const answer = await move(c, to, null);
      if (answer.status === 200) return c.json({ number: answer.number, status: answer.to }, 200);
      if (answer.status === 202 || answer.status === 502) return problemOf(c, 409, answer.detail);
      return problemOf(c, answer.status, answer.detail);
    });
  }

  api.openapi(rejectReturn, async (c) => {
    const answer = await move(c, "rejected", c.req.valid("json").reason);
    if (answer.status === 200) return c.json({ number: answer.number, status: answer.to }, 200);
    if (answer.status === 202 || answer.status === 502) return problemOf(c, 409, answer.detail);
    return problemOf(c, answer.status, answer.detail);
  });

  api.openapi(refundReturnRoute, async (c) => {
    const answer = await move(c, "refunded", null);
    if (answer.status === 200) return c.json({ number: answer.number, status: answer.to }, 200);
    if (answer.status === 202) {
      return c.json(
        {
          number: c.req.valid("param").number.toUpperCase(),
          status: "pending" as const,
          detail: answer.detail,
        },
        202,
      );
    }
    if (answer.status === 502) {
      const body: Problem = { type: "about:blank", title: "Bad Gateway", status: 502, detail: answer.detail };
      return c.json(body, 502, { "Content-Type": "application/problem+json", "Cache-Control": "no-store" });
    }
    return problemOf(c, answer.status, answer.detail);
  });
}
