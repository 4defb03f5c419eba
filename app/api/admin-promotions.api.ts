import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  type AdminPromotion,
  getAdminPromotion,
  listAdminPromotions,
} from "../domain/promotions/promotion-admin.server.ts";
import { codeCounts, generateCodes } from "../domain/promotions/promotion-codes.server.ts";
import {
  actionText,
  CODE_MESSAGES_ADMIN,
  CODES_LIMITS,
  PROMOTION_MESSAGES,
  type PromotionStatus,
  STATUS_LABELS,
} from "../domain/promotions/promotion-form.ts";
import type { Currency } from "../lib/money.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Admin API's promotions (issue 32): the admin's list in the order they apply
 * (`listAdminPromotions`, its "with a code" filter, pages of 50 reached by the cursor), one promotion
 * as its edit page reads it (`getAdminPromotion`, with its codes' counts) and single-use codes made
 * as its "Single-use codes" form makes them (`generateCodes`: N unique codes with a prefix).
 */

const STATUSES = Object.keys(STATUS_LABELS) as [PromotionStatus, ...PromotionStatus[]];
const pageCursor = z.object({ page: z.number().int().min(1).max(10_000) });
const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const promotionSummary = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z
      .string()
      .nullable()
      .openapi({ description: "its shared code; null for none, or when it is applied by single-use codes" }),
    uniqueCodes: z.boolean().openapi({ description: "applied by its single-use codes only" }),
    does: z.string().openapi({ description: "what it does, in the admin list's words" }),
    status: z.enum(STATUSES),
    active: z.boolean(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    priority: z.number().int(),
    combines: z.boolean(),
    usageLimit: z.number().int().nullable(),
    perCustomerLimit: z.number().int().nullable(),
    usedCount: z.number().int(),
    campaign: z.string().nullable(),
  })
  .openapi("PromotionSummary");

const rule = z.object({ type: z.string() }).catchall(z.unknown());

const promotion = promotionSummary
  .extend({
    action: rule.openapi({ description: "what it does, as stored (amounts in minor units)" }),
    conditions: z.array(rule).openapi({ description: "when it applies, as stored" }),
    codes: z
      .object({ total: z.number().int(), used: z.number().int() })
      .openapi({ description: "its single-use codes" }),
  })
  .openapi("Promotion");

function summaryOf(p: AdminPromotion, currency: Currency) {
  return {
    id: p.id,
    name: p.name,
    code: p.uniqueCodes ? null : p.code,
    uniqueCodes: p.uniqueCodes,
    does: actionText(p.action, currency),
    status: p.status,
    active: p.active,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    priority: p.priority,
    combines: p.combines,
    usageLimit: p.usageLimit,
    perCustomerLimit: p.perCustomerLimit,
    usedCount: p.usedCount,
    campaign: p.campaignName,
  };
}

const listPromotions = createRoute({
  method: "get",
  path: "/admin/promotions",
  operationId: "listPromotions",
  tags: ["Admin: promotions"],
  summary: "The promotions in the order they apply, as in the admin's list",
  ...adminAccess("discounts", "read"),
  request: {
    query: z.object({
      with: z
        .enum(["code"])
        .optional()
        .openapi({ description: "code: only those a shopper applies with a code, shared or single-use" }),
      cursor: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: "the nextCursor of the page before (pages of 50, as the admin's)" }),
    }),
  },
  responses: {
    200: {
      description: "A page of promotions",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(promotionSummary), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getPromotion = createRoute({
  method: "get",
  path: "/admin/promotions/{id}",
  operationId: "getPromotion",
  tags: ["Admin: promotions"],
  summary: "One promotion with what it does, its conditions and its codes' counts",
  ...adminAccess("discounts", "read"),
  request: { params: idParam },
  responses: {
    200: { description: "The promotion", content: { "application/json": { schema: promotion } } },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const makeCodes = createRoute({
  method: "post",
  path: "/admin/promotions/{id}/codes",
  operationId: "createPromotionCodes",
  tags: ["Admin: promotions"],
  summary: "Make N unique single-use codes with a prefix, as the promotion page's codes form does",
  description: `Each code is good for one order (PREFIX-7KQ2M9XH4P: 10 random characters). The promotion is then applied by its codes only. At most ${CODES_LIMITS.perRequest.toLocaleString("en-US")} a request and ${CODES_LIMITS.perPromotion.toLocaleString("en-US")} a promotion; the codes are exported from the promotion's page (CSV).`,
  ...adminAccess("discounts", "write"),
  request: {
    params: idParam,
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              count: z
                .number()
                .int(CODE_MESSAGES_ADMIN.count)
                .min(1, CODE_MESSAGES_ADMIN.count)
                .max(CODES_LIMITS.perRequest, CODE_MESSAGES_ADMIN.count),
              prefix: z
                .string()
                .regex(new RegExp(`^[A-Za-z0-9]{0,${CODES_LIMITS.prefix}}$`), CODE_MESSAGES_ADMIN.prefix)
                .optional()
                .openapi({ description: "letters or digits (upper-cased); absent or empty for none" }),
            })
            .strict()
            .openapi("PromotionCodesToMake"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Made",
      content: {
        "application/json": {
          schema: z.object({
            made: z.number().int(),
            codes: z
              .object({ total: z.number().int(), used: z.number().int() })
              .openapi({ description: "the promotion's codes now" }),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

export function registerAdminPromotions(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listPromotions, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor ? decodeCursor(query.cursor, pageCursor) : { page: 1 };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const { db, settings } = c.get("services");
    const [page, shop] = await Promise.all([
      listAdminPromotions(db, { page: position.page, withCode: query.with === "code" }),
      settings.current(),
    ]);
    return c.json(
      {
        data: page.promotions.map((p) => summaryOf(p, shop.currency)),
        nextCursor: page.hasMore ? encodeCursor({ page: position.page + 1 }) : null,
      },
      200,
    );
  });

  api.openapi(getPromotion, async (c) => {
    const { db, settings } = c.get("services");
    const id = c.req.valid("param").id;
    const [found, shop] = await Promise.all([getAdminPromotion(db, id), settings.current()]);
    if (!found) return problemOf(c, 404, PROMOTION_MESSAGES.notFound);
    const p = found.promotion;
    return c.json(
      {
        ...summaryOf(p, shop.currency),
        action: p.action as unknown as z.infer<typeof rule>,
        conditions: p.conditions as unknown as z.infer<typeof rule>[],
        codes: await codeCounts(db, p.id),
      },
      200,
    );
  });

  api.openapi(makeCodes, async (c) => {
    const db = c.get("db");
    const id = c.req.valid("param").id;
    const { count, prefix = "" } = c.req.valid("json");
    const made = await generateCodes(db, {
      promotionId: id,
      count,
      prefix: prefix.toUpperCase(),
      actor: keyActor(c.get("caller")),
    });
    if (made.ok) return c.json({ made: made.value.made, codes: await codeCounts(db, id) }, 200);
    switch (made.error.code) {
      case "not-found":
        return problemOf(c, 404, PROMOTION_MESSAGES.notFound);
      case "shared-code":
        return problemOf(c, 409, CODE_MESSAGES_ADMIN.shared);
      case "too-many":
        return problemOf(c, 409, CODE_MESSAGES_ADMIN.tooMany);
      default:
        return problemOf(c, 403, "This API key may not make promotion codes.");
    }
  });
}
