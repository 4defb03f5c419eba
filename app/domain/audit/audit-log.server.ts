import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { Permission, Role } from "../../lib/staff-roles.ts";

/** Who acted: the signed-in admin (id and e-mail are both kept, the e-mail as it was then). */
export interface Actor {
  id: string;
  email: string;
}

/**
 * A staff member acting through a domain command that needs a permission (moving money, changing
 * roles): the command checks `actorCan(actor, …)` itself, so no caller can forget it (decision 025).
 */
export interface StaffActor extends Actor {
  role: Role;
  /**
   * An API key acting (decision 038): the permissions its scopes grant, which decide instead of the
   * role (a key's role is "customer", so a check that still asks the role refuses it)
   */
  grants?: readonly Permission[];
}

export type AuditAction =
  | "product.create"
  | "product.update"
  | "product.stock"
  | "product.variant"
  | "product.options"
  | "product.images"
  | "product.delete"
  | "product.archive"
  | "product.unarchive"
  | "product.import"
  | "order.transition"
  | "order.refund"
  | "order.dispute"
  | "return.update"
  | "coupon.create"
  | "coupon.update"
  | "coupon.disable"
  | "coupon.enable"
  | "promotion.create"
  | "promotion.update"
  | "promotion.disable"
  | "promotion.enable"
  | "promotion.codes"
  | "campaign.create"
  | "gift_card.issue"
  | "gift_card.disable"
  | "gift_card.enable"
  | "customer_group.create"
  | "customer_group.update"
  | "customer_group.delete"
  | "customer_group.add_members"
  | "customer_group.remove_member"
  | "customer_group.import"
  | "customer_group.refresh"
  | "customer_group.set_price"
  | "customer_group.remove_price"
  | "customer_group.import_prices"
  | "review.keep"
  | "review.remove"
  | "staff.invite"
  | "staff.role"
  | "staff.remove"
  | "customer.disable"
  | "customer.enable"
  | "settings.update"
  | "api_key.create"
  | "api_key.revoke"
  | "search.synonyms.add"
  | "search.synonyms.remove"
  | "webhook.create"
  | "webhook.rotate"
  | "webhook.resend"
  | "webhook.test"
  | "webhook.enable"
  | "webhook.disable";

export interface AuditEntryInput {
  actor: Actor;
  action: AuditAction;
  entityType:
    | "product"
    | "order"
    | "coupon"
    | "promotion"
    | "campaign"
    | "gift_card"
    | "customer_group"
    | "review"
    | "return"
    | "user"
    | "settings"
    | "api_key"
    | "webhook"
    | "search_synonyms";
  entityId: string | number;
  summary: string;
  before?: unknown;
  after?: unknown;
  now?: Date;
}

/**
 * Appends one entry. Call it inside the transaction that makes the change, so a change and its
 * record are written together or not at all.
 */
export async function recordAudit(db: Kysely<DB>, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({
      actorId: entry.actor.id,
      actorEmail: entry.actor.email,
      action: entry.action,
      entityType: entry.entityType,
      entityId: String(entry.entityId),
      summary: entry.summary.slice(0, 500),
      beforeJson: entry.before === undefined ? null : JSON.stringify(entry.before),
      afterJson: entry.after === undefined ? null : JSON.stringify(entry.after),
      createdAt: (entry.now ?? new Date()).toISOString(),
    })
    .execute();
}

export const AUDIT_PAGE_SIZE = 50;

export interface AuditEntry {
  id: number;
  actorEmail: string;
  action: string;
  entityType: string;
  entityId: string;
  summary: string;
  before: string | null;
  after: string | null;
  createdAt: string;
}
