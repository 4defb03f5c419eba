import type { ReturnStatus } from "../../db/schema.ts";

export type { ReturnStatus } from "../../db/schema.ts";
export { RETURN_REASONS } from "../../lib/return-reasons.ts";

/** A return's states as a transition table: requested → approved | rejected; approved → received → refunded. */
export const RETURN_STATUSES: readonly ReturnStatus[] = [
  "requested",
  "approved",
  "rejected",
  "received",
  "refunded",
];

export const RETURN_TRANSITIONS: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  requested: ["approved", "rejected"],
  approved: ["received"],
  rejected: [],
  received: ["refunded"],
  refunded: [],
};

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested — awaiting approval",
  approved: "Approved — send the items back",
  rejected: "Rejected",
  received: "Received — refund on its way",
  refunded: "Refunded",
};

export function canMoveReturn(from: ReturnStatus, to: ReturnStatus): boolean {
  return RETURN_TRANSITIONS[from].includes(to);
}

/** Days after delivery within which delivered items may be returned (the home page's promise). */
export const RETURN_WINDOW_DAYS = 30;
