import type { Auth } from "../../app/adapters/auth/auth.server.ts";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import type { OrderStatus } from "../../app/db/schema.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";

/** The `Cookie` header a browser would send back after these `Set-Cookie` lines. */
export function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.slice(0, line.indexOf(";")))
    .join("; ");
}

let orderSequence = 0;

/**
 * Inserts a paid order (two lines unless told otherwise) for a user and returns its number; its
 * payment is in the test gateway's ledger, captured, as Place Order leaves it (so it can be refunded).
 */
export async function insertOrder(
  db: Database,
  {
    userId,
    createdAt,
    status = "paid",
    items = [
      { name: "Desk Lamp", quantity: 2, unitPriceCents: 1_500 },
      { name: "Mug", quantity: 1, unitPriceCents: 800 },
    ],
  }: {
    userId: string | null;
    createdAt: string;
    status?: OrderStatus;
    items?: { name: string; quantity: number; unitPriceCents: number }[];
  },
): Promise<string> {
  orderSequence++;
  const number = `CW-TEST${String(orderSequence).padStart(5, "0")}`;
  const idempotencyKey = `account-test-${orderSequence}-${Math.random().toString(36).slice(2)}`;
  const paymentReference = `auth_test_${idempotencyKey}`;
  const subtotalCents = items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
  const { id } = await db
    .insertInto("orders")
    .values({
      number,
      idempotencyKey,
      userId,
      email: "buyer@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+1 555 0100",
      address: "1 Analytical Way",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
      shippingMethod: "standard",
      subtotalCents,
      discountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: subtotalCents,
      couponCode: null,
      status,
      paymentBrand: "Visa",
      paymentLast4: "4242",
      paymentReference,
      estimatedDelivery: createdAt.slice(0, 10),
      createdAt,
      updatedAt: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (status !== "pending_payment" && status !== "payment_failed") {
    await db
      .insertInto("testGatewayPayments")
      .values({
        idempotencyKey,
        authorizationId: paymentReference,
        amountCents: subtotalCents,
        status: "captured",
        createdAt,
      })
      .execute();
  }
  for (const item of items) {
    await db
      .insertInto("orderItems")
      .values({
        orderId: id,
        productId: null,
        productSlug: item.name.toLowerCase().replace(/\s+/g, "-"),
        name: item.name,
        brand: "Testbrand",
        imageKey: null,
        unitPriceCents: item.unitPriceCents,
        quantity: item.quantity,
        lineTotalCents: item.quantity * item.unitPriceCents,
      })
      .execute();
  }
  return number;
}

let userSequence = 0;

/**
 * A user row as Better Auth would create it, without a password (for domain tests that only need
 * a user id). Returns the id.
 */
export async function insertUser(
  db: Database,
  email: string,
  name = email.split("@")[0] ?? email,
): Promise<string> {
  userSequence++;
  const id = `test-user-${userSequence}-${Math.random().toString(36).slice(2, 10)}`;
  const now = new Date().toISOString();
  const postgres = engineOf(db) === "postgres";
  await db
    .insertInto("users")
    .values({
      id,
      name,
      email,
      emailVerified: postgres ? false : 0,
      image: null,
      createdAt: now,
      updatedAt: now,
      role: "customer",
    })
    .execute();
  return id;
}

/** A staff member of a test shop, made and signed in: the Cookie header their browser would send. */
export async function signedInStaff(
  shop: { services: { auth: Auth }; db: Database },
  email: string,
  role: "owner" | "admin" | "staff" = "owner",
): Promise<string> {
  const { auth } = shop.services;
  const created = await createOrUpdateUser({ auth, db: shop.db }, { email, password: "correct horse", role });
  if (!created.ok) throw new Error(`${email} not made`);
  const signedIn = await auth.api.signInEmail({
    body: { email, password: "correct horse" },
    returnHeaders: true,
  });
  return cookieHeader(signedIn.headers);
}
