import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { OrderStatus } from "../db/schema.ts";
import { getCustomer, listCustomers } from "../domain/accounts/customers.server.ts";
import { groupsOfCustomer, listGroups } from "../domain/customer-groups/customer-groups.server.ts";
import { GROUP_LIMITS, GROUP_MESSAGES } from "../domain/customer-groups/group-form.ts";
import { addMembers } from "../domain/customer-groups/group-members.server.ts";
import { ORDER_STATUSES } from "../domain/orders/order-status.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders, moneySchema } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Admin API's customers (issue 32): the admin's list (`listCustomers`: search by name or e-mail,
 * pages of 25 reached by the cursor), one customer as their page reads them (`getCustomer`, with
 * `groupsOfCustomer`), the customer groups (`listGroups`) and adding members by e-mail as the group
 * page's "Add customers" form does (`addMembers`).
 */

const SOURCES = ["hand", "csv", "rule"] as const;
const pageCursor = z.object({ page: z.number().int().min(1).max(100_000) });

const customerSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    createdAt: z.string(),
    disabled: z.boolean(),
    orderCount: z.number().int(),
    spent: moneySchema.openapi({ description: "what their placed orders came to, less refunds" }),
  })
  .openapi("CustomerSummary");

const customer = customerSummary
  .extend({
    orders: z.array(
      z.object({
        number: z.string(),
        createdAt: z.string(),
        status: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]]),
        total: moneySchema.openapi({ description: "less what was refunded" }),
      }),
    ),
    addresses: z.array(z.object({ name: z.string(), lines: z.string(), isDefault: z.boolean() })),
    groups: z.array(z.object({ id: z.number().int(), name: z.string(), source: z.enum(SOURCES) })),
  })
  .openapi("Customer");

const group = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    rule: z
      .object({ type: z.literal("spent-over"), spent: moneySchema })
      .nullable()
      .openapi({ description: "its members by rule: customers who spent over an amount" }),
    memberCount: z.number().int(),
  })
  .openapi("CustomerGroup");

const listCustomersRoute = createRoute({
  method: "get",
  path: "/admin/customers",
  operationId: "listCustomers",
  tags: ["Admin: customers"],
  summary: "The customers, newest first, searched by name or e-mail as in the admin's list",
  ...adminAccess("customers", "read"),
  request: {
    query: z.object({
      search: z.string().max(254).optional().openapi({ description: "part of the name or the e-mail" }),
      cursor: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: "the nextCursor of the page before (pages of 25, as the admin's)" }),
    }),
  },
  responses: {
    200: {
      description: "A page of customers",
      content: {
        "application/json": {
          schema: z.object({ data: z.array(customerSummary), nextCursor: z.string().nullable() }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getCustomerRoute = createRoute({
  method: "get",
  path: "/admin/customers/{id}",
  operationId: "getCustomer",
  tags: ["Admin: customers"],
  summary: "One customer with their orders (newest 50), addresses and groups, as their page shows them",
  ...adminAccess("customers", "read"),
  request: { params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) }) },
  responses: {
    200: { description: "The customer", content: { "application/json": { schema: customer } } },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const listGroupsRoute = createRoute({
  method: "get",
  path: "/admin/customer-groups",
  operationId: "listCustomerGroups",
  tags: ["Admin: customers"],
  summary: "Every customer group, by name, with its rule and how many members it has",
  ...adminAccess("customers", "read"),
  responses: {
    200: {
      description: "The groups",
      content: { "application/json": { schema: z.object({ data: z.array(group) }) } },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const addGroupMembers = createRoute({
  method: "post",
  path: "/admin/customer-groups/{id}/members",
  operationId: "addCustomerGroupMembers",
  tags: ["Admin: customers"],
  summary: "Add customers to a group by e-mail, as the group page's Add customers form does",
  description:
    "Every e-mail must be a customer's, or nothing is added (the problem names them). A member the rule brought in becomes a member by hand.",
  ...adminAccess("customers", "write"),
  request: {
    params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              emails: z
                .array(z.email(GROUP_MESSAGES.emails).max(254, GROUP_MESSAGES.emails))
                .min(1, GROUP_MESSAGES.emails)
                .max(GROUP_LIMITS.emails, GROUP_MESSAGES.emails),
            })
            .strict()
            .openapi("GroupMembersToAdd"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Added (those already members are left as they were)",
      content: {
        "application/json": {
          schema: z.object({
            group: z.string(),
            added: z.number().int().openapi({ description: "customers who were not members before" }),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

export function registerAdminCustomers(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listCustomersRoute, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor ? decodeCursor(query.cursor, pageCursor) : { page: 1 };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const { db, settings } = c.get("services");
    const [page, shop] = await Promise.all([
      listCustomers(db, { search: query.search ?? "", page: position.page }),
      settings.current(),
    ]);
    return c.json(
      {
        data: page.customers.map(({ spentCents, ...row }) => ({
          ...row,
          spent: { amount: spentCents, currency: shop.currency },
        })),
        nextCursor: page.hasMore ? encodeCursor({ page: position.page + 1 }) : null,
      },
      200,
    );
  });

  api.openapi(getCustomerRoute, async (c) => {
    const { db, settings } = c.get("services");
    const found = await getCustomer(db, c.req.valid("param").id);
    if (!found) return problemOf(c, 404, "No customer has that id.");
    const [groups, shop] = await Promise.all([groupsOfCustomer(db, found.id), settings.current()]);
    return c.json(
      {
        id: found.id,
        name: found.name,
        email: found.email,
        createdAt: found.createdAt,
        disabled: found.disabled,
        orderCount: found.orderCount,
        spent: { amount: found.spentCents, currency: shop.currency },
        orders: found.orders.map((order) => ({
          number: order.number,
          createdAt: order.createdAt,
          status: order.status,
          total: { amount: order.totalCents, currency: order.currency },
        })),
        addresses: found.addresses,
        groups: groups.map((g) => ({ id: g.id, name: g.name, source: g.source })),
      },
      200,
    );
  });

  api.openapi(listGroupsRoute, async (c) => {
    const { db, settings } = c.get("services");
    const [groups, shop] = await Promise.all([listGroups(db), settings.current()]);
    return c.json(
      {
        data: groups.map((g) => ({
          id: g.id,
          name: g.name,
          description: g.description,
          rule: g.rule
            ? { type: g.rule.type, spent: { amount: g.rule.cents, currency: shop.currency } }
            : null,
          memberCount: g.memberCount,
        })),
      },
      200,
    );
  });

  api.openapi(addGroupMembers, async (c) => {
    const added = await addMembers(c.get("db"), {
      id: c.req.valid("param").id,
      emails: c.req.valid("json").emails,
      actor: keyActor(c.get("caller")),
    });
    if (added.ok) return c.json({ group: added.value.name, added: added.value.added }, 200);
    switch (added.error.code) {
      case "not-found":
        return problemOf(c, 404, GROUP_MESSAGES.notFound);
      case "unknown-emails":
        return problemOf(c, 400, GROUP_MESSAGES.unknownEmails(added.error.emails));
      default:
        return problemOf(c, 403, GROUP_MESSAGES.forbidden);
    }
  });
}
