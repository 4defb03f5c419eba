/**
 * Destructive admin actions (cancel an order, remove a review, disable a coupon) are confirmed
 * first. The confirm step's "Yes, …" button posts this field and the server refuses the action
 * without it, so a one-click post (an old page, a replayed request) changes nothing.
 */
export const CONFIRM_FIELD = "confirm";
export const CONFIRM_VALUE = "yes";
