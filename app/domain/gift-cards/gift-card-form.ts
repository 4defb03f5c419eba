/**
 * The admin's gift card forms (Admin → Gift cards): limits, labels and messages, client-safe; the
 * rules are gift-card-schema.server.ts's, the balances gift-cards.server.ts's.
 */
export const GIFT_CARD_LIMITS = {
  /** $1.00 to $10 000.00 (in the shop's currency) */
  minCents: 100,
  maxCents: 1_000_000,
  name: 100,
  message: 500,
} as const;

export const GIFT_CARD_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  amount: "Enter an amount from 1.00 to 10000.00.",
  expiresAt: "Enter a date after today, or leave it empty for a card that never expires.",
  recipientEmail: "Enter a valid e-mail address, or leave it empty to hand the code over yourself.",
  recipientName: `Enter the recipient's name in at most ${GIFT_CARD_LIMITS.name} characters, or leave it empty.`,
  message: `Enter a message of at most ${GIFT_CARD_LIMITS.message} characters, or leave it empty.`,
  issued: (last4: string) => `Gift card ending ${last4} issued`,
  disabled: (last4: string) => `Gift card ending ${last4} disabled`,
  enabled: (last4: string) => `Gift card ending ${last4} enabled`,
  notFound: "That gift card no longer exists.",
} as const;

export const GIFT_CARD_LABELS = {
  amount: "Amount",
  expiresAt: "Expires on",
  recipientEmail: "Recipient's e-mail",
  recipientName: "Recipient's name",
  message: "Message",
} as const;

/** What a shopper is told of a code that cannot pay. */
export const GIFT_CARD_REFUSALS = {
  unknown: "We don't know that gift card code. Please check it and try again.",
  disabled: "This gift card can no longer be used.",
  expired: "This gift card has expired.",
  empty: "This gift card has no balance left.",
} as const;

export const MOVEMENT_LABELS = {
  issued: "Issued",
  redeemed: "Paid for an order",
  released: "Given back (order not paid)",
  refunded: "Refunded to the card",
} as const;

/** Balance checks per visitor address per 15 minutes (shared by every process through the database). */
export const GIFT_CARD_CHECK_LIMIT = { limit: 10, windowMs: 15 * 60_000 };

export const GIFT_CARD_CHECK_MESSAGES = {
  required: "Enter the code printed on your gift card or in its e-mail.",
  tooMany: (minutes: number) =>
    `Too many checks. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
} as const;
