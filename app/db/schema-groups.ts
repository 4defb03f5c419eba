import type { Generated } from "kysely";
import type { Timestamp } from "./schema-types.ts";

/** Customer groups (migration 2026-11-28T0710, decision 034); part of `DB` in schema.ts. */

export interface CustomerGroupsTable {
  id: Generated<number>;
  /** unique */
  name: string;
  description: Generated<string>;
  /** JSON: GroupRule (domain/customer-groups/group-form.ts), e.g. {"type":"spent-over","cents":50000}; null: none */
  rule: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type GroupMemberSource = "hand" | "csv" | "rule";

export interface CustomerGroupMembersTable {
  groupId: number;
  /** users.id */
  userId: string;
  /** how the member came in: only 'rule' members are recomputed by the group's rule */
  source: GroupMemberSource;
  addedAt: Timestamp;
}

/** A customer group's own price for a variant (migration 2026-11-28T0750, decision 037). */
export interface CustomerGroupPricesTable {
  groupId: number;
  variantId: number;
  /** > 0; applies to the group's signed-in members when below the variant's price */
  priceCents: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
