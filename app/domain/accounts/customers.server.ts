import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";

export const CUSTOMERS_PAGE_SIZE = 25;

export interface CustomerRow {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  disabled: boolean;
  orderCount: number;
  /** what their placed orders came to, less refunds, in cents */
  spentCents: number;
}

const isCustomer = sql<boolean>`(role = 'customer' or role is null)`;
const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : value);

/**
 * Customers (accounts without a staff role), newest first, 25 a page; `search` matches the name or
 * the e-mail. Each with their placed orders' count and total less refunds — counted for the page's
 * customers only, so the list costs the same with a million orders.
 */
export async function listCustomers(
  db: Database,
  { search = "", page = 1 }: { search?: string; page?: number } = {},
): Promise<{ customers: CustomerRow[]; page: number; hasMore: boolean }> {
  let query = db
    .selectFrom("users")
    .select(["id", "name", "email", "createdAt", "disabledAt"])
    .where(isCustomer);
  const term = search.trim().toLowerCase().slice(0, 254);
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(email)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(CUSTOMERS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * CUSTOMERS_PAGE_SIZE)
    .execute();
  const shown = rows.slice(0, CUSTOMERS_PAGE_SIZE);
  const totals = shown.length
    ? await db
        .selectFrom("orders")
        .select((eb) => [
          "userId",
          eb.fn.countAll<number>().as("orders"),
          eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundedCents"))).as("spent"),
        ])
        .where(
          "userId",
          "in",
          shown.map((row) => row.id),
        )
        .where("status", "in", [...PLACED_STATUSES])
        .groupBy("userId")
        .execute()
    : [];
  const byUser = new Map(totals.map((t) => [t.userId, t]));
  return {
    customers: shown.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      createdAt: iso(row.createdAt),
      disabled: row.disabledAt !== null,
      orderCount: Number(byUser.get(row.id)?.orders ?? 0),
      spentCents: Number(byUser.get(row.id)?.spent ?? 0),
    })),
    page,
    hasMore: rows.length > CUSTOMERS_PAGE_SIZE,
  };
}

export interface CustomerDetail extends CustomerRow {
  /** `currency`: the order's code (`currencyOf` reads it) */
  orders: { number: string; createdAt: string; status: OrderStatus; totalCents: number; currency: string }[];
  addresses: { name: string; lines: string; isDefault: boolean }[];
  reviews: {
    id: number;
    productId: number;
    productName: string;
    rating: number;
    title: string;
    createdAt: string;
  }[];
}

/** One customer with their orders (newest 50), addresses and reviews; null when there is none. */
export async function getCustomer(db: Database, id: string): Promise<CustomerDetail | null> {
  const row = await db
    .selectFrom("users")
    .select(["id", "name", "email", "createdAt", "disabledAt"])
    .where("id", "=", id)
    .where(isCustomer)
    .executeTakeFirst();
  if (!row) return null;
  const [orders, addresses, reviews] = await Promise.all([
    db
      .selectFrom("orders")
      .select(["number", "createdAt", "status", "totalCents", "refundedCents", "currency"])
      .where("userId", "=", id)
      .where("status", "in", [...PLACED_STATUSES])
      .orderBy("createdAt", "desc")
      .limit(50)
      .execute(),
    db.selectFrom("addresses").selectAll().where("userId", "=", id).orderBy("id").execute(),
    db
      .selectFrom("reviews")
      .innerJoin("products", "products.id", "reviews.productId")
      .select([
        "reviews.id",
        "reviews.productId",
        "products.name as productName",
        "reviews.rating",
        "reviews.title",
        "reviews.createdAt",
      ])
      .where("reviews.userId", "=", id)
      .orderBy("reviews.createdAt", "desc")
      .limit(50)
      .execute(),
  ]);
  const stats = await db
    .selectFrom("orders")
    .select((eb) => [
      eb.fn.countAll<number>().as("orders"),
      eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundedCents"))).as("spent"),
    ])
    .where("userId", "=", id)
    .where("status", "in", [...PLACED_STATUSES])
    .executeTakeFirst();
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    createdAt: iso(row.createdAt),
    disabled: row.disabledAt !== null,
    orderCount: Number(stats?.orders ?? 0),
    spentCents: Number(stats?.spent ?? 0),
    orders: orders.map((o) => ({
      number: o.number,
      createdAt: o.createdAt,
      status: o.status,
      totalCents: o.totalCents - o.refundedCents,
      currency: o.currency,
    })),
    addresses: addresses.map((a) => ({
      name: `${a.firstName} ${a.lastName}`,
      lines: `${a.address}, ${a.city}, ${a.state} ${a.zipCode}, ${a.country}`,
      isDefault: Boolean(a.isDefault),
    })),
    reviews: reviews.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
  };
}

/** Disabling or enabling a customer's account (the detail page's form). */
export const customerActionSchema = z.object({
  intent: z.enum(["disable", "enable"]),
  confirm: z.string().optional(),
});

/**
 * Disables a customer's account (it cannot sign in; its sessions end at once) or enables it again.
 * Audited in the same transaction.
 */
export async function setCustomerDisabled(
  db: Database,
  { userId, disabled, actor }: { userId: string; disabled: boolean; actor: Actor },
): Promise<Result<{ email: string }, { code: "not-found" }>> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["email"])
      .where("id", "=", userId)
      .where(isCustomer)
      .executeTakeFirst();
    if (!user) return fail({ code: "not-found" as const });
    await trx
      .updateTable("users")
      .set({ disabledAt: disabled ? new Date().toISOString() : null })
      .where("id", "=", userId)
      .execute();
    if (disabled) await trx.deleteFrom("sessions").where("userId", "=", userId).execute();
    await recordAudit(trx, {
      actor,
      action: disabled ? "customer.disable" : "customer.enable",
      entityType: "user",
      entityId: userId,
      summary: `${user.email}: account ${disabled ? "disabled (signed out everywhere)" : "enabled"}`,
      after: { disabled },
    });
    return ok({ email: user.email });
  });
}

/** Whether this account may sign in (the sign-in step asks after the password was right). */
export async function isAccountDisabled(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("disabledAt").where("id", "=", userId).executeTakeFirst();
  return row?.disabledAt != null;
}
