import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { OrderStatus } from "../db/schema.ts";
import {
  advanceOrder,
  listAdminOrders,
  ORDER_ADMIN_MESSAGES,
  type OrderCursor,
} from "../domain/orders/order-admin.server.ts";
import { ORDER_PAYMENT_FILTERS, ORDER_SORTS } from "../domain/orders/order-list-query.ts";
import { ORDER_STATUSES } from "../domain/orders/order-status.ts";
import { getOrderByNumber } from "../domain/orders/orders.server.ts";
import { CARRIER_IDS, type CarrierId, TRACKING_NUMBER } from "../lib/carriers.ts";
import { mailShop } from "../lib/shop-settings.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders, moneySchema, pageSchema } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Admin API's orders (issue 32): the admin's list — its filters and sorts under the same names
 * (`listAdminOrders`, the page's own query) with a cursor in place of the page number — and one
 * order as the order page reads it (`getOrderByNumber`).
 */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.");

const listQuery = z.object({
  status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]).optional(),
  search: z.string().max(254).optional().openapi({ description: "the order number or the e-mail" }),
  from: day.optional().openapi({ description: "placed on or after this UTC day" }),
  to: day.optional().openapi({ description: "placed on or before this UTC day" }),
  payment: z.enum(ORDER_PAYMENT_FILTERS).optional(),
  sort: z.enum(ORDER_SORTS).default("newest"),
  ...pageSchema.shape,
});

const orderSummary = z
  .object({
    number: z.string(),
    email: z.string(),
    status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
    total: moneySchema,
    createdAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("OrderSummary");

const orderList = z
  .object({ data: z.array(orderSummary), nextCursor: z.string().nullable() })
  .openapi("OrderList");

const orderLine = z.object({
  productId: z.number().int().nullable(),
  productSlug: z.string(),
  name: z.string(),
  variantTitle: z.string(),
  sku: z.string().nullable(),
  brand: z.string(),
  quantity: z.number().int(),
  unitPrice: moneySchema,
  lineTotal: moneySchema,
});

const order = z
  .object({
    number: z.string(),
    email: z.string(),
    status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
    createdAt: z.string(),
    estimatedDelivery: z.string(),
    shippingMethod: z.object({ code: z.string(), name: z.string() }),
    shipTo: z.object({
      name: z.string(),
      phone: z.string(),
      address: z.string(),
      city: z.string(),
      state: z.string(),
      zipCode: z.string(),
      country: z.string(),
    }),
    tracking: z
      .object({ carrier: z.string(), number: z.string().nullable(), url: z.string().nullable() })
      .nullable(),
    code: z.string().nullable().openapi({ description: "the promotion code entered at checkout" }),
    items: z.array(orderLine),
    subtotal: moneySchema,
    discount: moneySchema,
    shipping: moneySchema,
    tax: moneySchema,
    total: moneySchema,
    taxIncluded: z.boolean(),
  })
  .openapi("Order");

const listOrders = createRoute({
  method: "get",
  path: "/admin/orders",
  operationId: "listOrders",
  tags: ["Admin: orders"],
  summary: "The orders, filtered and sorted as in the admin's list",
  ...adminAccess("orders", "read"),
  request: { query: listQuery },
  responses: {
    200: { description: "A page of orders", content: { "application/json": { schema: orderList } } },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getOrder = createRoute({
  method: "get",
  path: "/admin/orders/{number}",
  operationId: "getOrder",
  tags: ["Admin: orders"],
  summary: "One order, as the order page shows it",
  ...adminAccess("orders", "read"),
  request: { params: z.object({ number: z.string().min(1).max(40) }) },
  responses: {
    200: { description: "The order", content: { "application/json": { schema: order } } },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const shipOrder = createRoute({
  method: "post",
  path: "/admin/orders/{number}/shipment",
  operationId: "shipOrder",
  tags: ["Admin: orders"],
  summary: "Mark a paid order shipped, with its carrier and tracking number (the customer is e-mailed)",
  ...adminAccess("orders", "write"),
  request: {
    params: z.object({ number: z.string().min(1).max(40) }),
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              carrier: z.enum(CARRIER_IDS).optional(),
              trackingNumber: z
                .string()
                .trim()
                .regex(TRACKING_NUMBER, "A tracking number has 3 to 40 letters, digits, spaces or dashes.")
                .optional(),
            })
            .strict()
            .openapi("Shipment"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Shipped",
      content: {
        "application/json": {
          schema: z.object({
            number: z.string(),
            status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const deliverOrder = createRoute({
  method: "post",
  path: "/admin/orders/{number}/delivery",
  operationId: "deliverOrder",
  tags: ["Admin: orders"],
  summary: "Mark a shipped order delivered (the customer is e-mailed), as the order page's Delivered button",
  ...adminAccess("orders", "write"),
  request: {
    params: z.object({ number: z.string().min(1).max(40) }),
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: z.object({}).strict() } } },
  },
  responses: {
    200: {
      description: "Delivered",
      content: {
        "application/json": {
          schema: z.object({
            number: z.string(),
            status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const cursorSchema = z.object({ value: z.union([z.string(), z.number()]), id: z.number().int() });

/** The order moved as the order page's buttons move it (`advanceOrder`), by the key. */
async function moveTo(
  c: Context<ApiEnv>,
  number: string,
  to: "shipped" | "delivered",
  shipment?: { carrier?: CarrierId; trackingNumber?: string },
) {
  const { db, gateway, mail, settings, config } = c.get("services");
  return advanceOrder(
    { db, gateway, mail, shop: mailShop(await settings.current(), config.PUBLIC_URL) },
    { number, to, actor: keyActor(c.get("caller")), ...(shipment ? { shipment } : {}) },
  );
}

export function registerOrders(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listOrders, async (c) => {
    const query = c.req.valid("query");
    const after = query.cursor ? decodeCursor(query.cursor, cursorSchema) : null;
    if (query.cursor && !after) return problemOf(c, 400, "The cursor is not one this API gave.");
    const page = await listAdminOrders(c.get("db"), {
      status: query.status ?? null,
      search: query.search ?? "",
      from: query.from ?? null,
      to: query.to ?? null,
      payment: query.payment ?? null,
      sort: query.sort,
      after: after as OrderCursor | null,
      limit: query.limit,
    });
    return c.json(
      {
        data: page.orders.map((row) => ({
          number: row.number,
          email: row.email,
          status: row.status,
          total: { amount: row.totalCents, currency: row.currency },
          createdAt: row.createdAt,
        })),
        nextCursor: page.next ? encodeCursor(page.next) : null,
      },
      200,
    );
  });

  api.openapi(shipOrder, async (c) => {
    const number = c.req.valid("param").number.toUpperCase();
    const moved = await moveTo(c, number, "shipped", c.req.valid("json"));
    if (moved.ok) return c.json({ number, status: moved.value.to }, 200);
    switch (moved.error.code) {
      case "not-found":
        return problemOf(c, 404, "No order has that number.");
      case "not-allowed":
        return problemOf(c, 409, ORDER_ADMIN_MESSAGES.notAllowed(moved.error.from, "shipped"));
      default:
        return problemOf(c, 403, "This API key may not ship orders.");
    }
  });

  api.openapi(deliverOrder, async (c) => {
    const number = c.req.valid("param").number.toUpperCase();
    const moved = await moveTo(c, number, "delivered");
    if (moved.ok) return c.json({ number, status: moved.value.to }, 200);
    switch (moved.error.code) {
      case "not-found":
        return problemOf(c, 404, "No order has that number.");
      case "not-allowed":
        return problemOf(c, 409, ORDER_ADMIN_MESSAGES.notAllowed(moved.error.from, "delivered"));
      default:
        return problemOf(c, 403, "This API key may not deliver orders.");
    }
  });

  api.openapi(getOrder, async (c) => {
    const found = await getOrderByNumber(c.get("db"), c.req.valid("param").number.toUpperCase());
    if (!found) return problemOf(c, 404, "No order has that number.");
    const money = (amount: number) => ({ amount, currency: found.currency });
    return c.json(
      {
        number: found.number,
        email: found.email,
        status: found.status,
        createdAt: found.createdAt,
        estimatedDelivery: found.estimatedDelivery,
        shippingMethod: { code: found.shippingMethod, name: found.shippingMethodName },
        shipTo: found.shipTo,
        tracking: found.tracking,
        code: found.couponCode,
        items: found.items.map((item) => ({
          productId: item.productId,
          productSlug: item.productSlug,
          name: item.name,
          variantTitle: item.variantTitle,
          sku: item.sku,
          brand: item.brand,
          quantity: item.quantity,
          unitPrice: money(item.unitPriceCents),
          lineTotal: money(item.lineTotalCents),
        })),
        subtotal: money(found.totals.subtotalCents),
        discount: money(found.totals.discountCents),
        shipping: money(found.totals.shippingCents),
        tax: money(found.totals.taxCents),
        total: money(found.totals.totalCents),
        taxIncluded: found.totals.taxIncluded,
      },
      200,
    );
  });
}
