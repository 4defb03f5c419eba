import { type Selectable, sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import type { AddressesTable } from "../../db/schema.ts";
import { addressSchema } from "../checkout/address-schema.server.ts";
import { ADDRESS_FIELDS, type AddressDetails, type AddressField } from "../checkout/shipping-form.ts";
import { lockUser } from "./user-lock.server.ts";

export type { AddressDetails };
export { ADDRESS_FIELDS, type AddressField };
export type Address = Selectable<AddressesTable>;

/** An address id as posted: a positive integer, anything else 0 (which no address has). */
export const toAddressId = (value: unknown) =>
  typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : 0;

const addressId = z.string().optional().transform(toAddressId);

/** POST /account/addresses, one form per intent: the address's fields for create and update, only the id otherwise. */
export const addressActionSchema = z.discriminatedUnion("intent", [
  addressSchema.extend({ intent: z.literal("create") }),
  addressSchema.extend({ intent: z.literal("update"), addressId }),
  z.object({ intent: z.literal("delete"), addressId }),
  z.object({ intent: z.literal("set-default"), addressId }),
]);

export const ADDRESS_MESSAGES = {
  added: "Address added.",
  updated: "Address updated.",
  deleted: "Address deleted.",
  defaultSet: "Default address updated.",
  invalid: "Please correct the highlighted fields.",
} as const;

/** The user's addresses, the default first, then oldest first. */
export async function listAddresses(db: Database, userId: string): Promise<Address[]> {
  return db
    .selectFrom("addresses")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("isDefault", "desc")
    .orderBy("id")
    .execute();
}

/** One of the user's addresses; null for an unknown id or another user's address. */
export async function getAddress(db: Database, userId: string, id: number): Promise<Address | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await db
    .selectFrom("addresses")
    .selectAll()
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Adds an address; the user's first address becomes the default. Returns its id. */
export async function addAddress(
  db: Database,
  userId: string,
  details: AddressDetails,
  now: Date = new Date(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockUser(trx, userId))) throw new Error("addAddress: unknown user");
    const existing = await trx
      .selectFrom("addresses")
      .select("id")
      .where("userId", "=", userId)
      .limit(1)
      .executeTakeFirst();
    const at = now.toISOString();
    const row = await trx
      .insertInto("addresses")
      .values({ userId, ...details, isDefault: existing ? 0 : 1, createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** Replaces the fields of one of the user's addresses; false when it is not theirs. */
export async function updateAddress(
  db: Database,
  userId: string,
  id: number,
  details: AddressDetails,
  now: Date = new Date(),
): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const result = await db
    .updateTable("addresses")
    .set({ ...details, updatedAt: now.toISOString() })
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes one of the user's addresses; when it was the default, the oldest remaining one takes over. */
export async function deleteAddress(db: Database, userId: string, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    const deleted = await trx
      .deleteFrom("addresses")
      .where("id", "=", id)
      .where("userId", "=", userId)
      .returning("isDefault")
      .executeTakeFirst();
    if (!deleted) return false;
    if (Number(deleted.isDefault) === 1) {
      const next = await trx
        .selectFrom("addresses")
        .select("id")
        .where("userId", "=", userId)
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      if (next) await trx.updateTable("addresses").set({ isDefault: 1 }).where("id", "=", next.id).execute();
    }
    return true;
  });
}

/** Makes one of the user's addresses the default (and no other); false when it is not theirs. */
export async function setDefaultAddress(db: Database, userId: string, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    const target = await trx
      .selectFrom("addresses")
      .select("id")
      .where("id", "=", id)
      .where("userId", "=", userId)
      .executeTakeFirst();
    if (!target) return false;
    await trx
      .updateTable("addresses")
      .set({ isDefault: sql<0 | 1>`case when id = ${id} then 1 else 0 end` })
      .where("userId", "=", userId)
      .execute();
    return true;
  });
}
