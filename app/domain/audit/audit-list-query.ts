/**
 * The audit log's filters (shared by the server and the page): the actions the shop records
 * (`AuditAction`, audit-log.server.ts; audit-list.server.ts fails the type check when one is
 * missing here) and the two orders of time.
 */
export const AUDIT_ACTIONS = [
  "product.create",
  "product.update",
  "product.stock",
  "product.variant",
  "product.options",
  "product.images",
  "product.delete",
  "product.archive",
  "product.unarchive",
  "product.import",
  "order.transition",
  "order.refund",
  "order.dispute",
  "return.update",
  "coupon.create",
  "coupon.update",
  "coupon.disable",
  "coupon.enable",
  "promotion.create",
  "promotion.update",
  "promotion.disable",
  "promotion.enable",
  "promotion.codes",
  "campaign.create",
  "gift_card.issue",
  "gift_card.disable",
  "gift_card.enable",
  "customer_group.create",
  "customer_group.update",
  "customer_group.delete",
  "customer_group.add_members",
  "customer_group.remove_member",
  "customer_group.import",
  "customer_group.refresh",
  "customer_group.set_price",
  "customer_group.remove_price",
  "customer_group.import_prices",
  "review.keep",
  "review.remove",
  "staff.invite",
  "staff.role",
  "staff.remove",
  "customer.disable",
  "customer.enable",
  "settings.update",
  "api_key.create",
  "api_key.revoke",
] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SORTS = ["newest", "oldest"] as const;
export type AuditSort = (typeof AUDIT_SORTS)[number];
