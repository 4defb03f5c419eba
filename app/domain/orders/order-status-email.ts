import type { MailMessage } from "../../adapters/mail/mail-message.ts";
import type { OrderStatus } from "../../db/schema.ts";
import type { Tracking } from "../../lib/carriers.ts";

/** The shop as the status e-mails name it, with where the shopper follows the order. */
export interface StatusMailShop {
  shopName: string;
  publicUrl: string;
}

interface StatusMailOrder {
  number: string;
  email: string;
  estimatedDelivery: string;
  tracking: Tracking | null;
  /** refunded with the cancellation, in cents (0: nothing was paid or all was refunded before) */
  refundedCents?: number;
}

/**
 * The e-mail a customer gets when staff move their order on (issue 20, fulfilment): shipped (with
 * the carrier, number and tracking link when known), delivered, cancelled. Other moves send none.
 */
export function renderStatusEmail(
  order: StatusMailOrder,
  to: OrderStatus,
  shop: StatusMailShop,
  formatMoney: (cents: number) => string,
): MailMessage | null {
  const track = `${shop.publicUrl}/orders/track`;
  const follow = `Follow your order at ${track} with its number (${order.number}) and this e-mail address.`;
  switch (to) {
    case "shipped": {
      const tracking = order.tracking;
      const lines = [
        `Good news: your order ${order.number} is on its way.`,
        tracking
          ? [
              `Carrier: ${tracking.carrier}`,
              tracking.number ? `Tracking number: ${tracking.number}` : "",
              tracking.url ? `Track the parcel: ${tracking.url}` : "",
            ]
              .filter(Boolean)
              .join("\n")
          : "",
        `Estimated delivery: ${order.estimatedDelivery}.`,
        follow,
      ];
      return {
        to: order.email,
        subject: `${shop.shopName}: your order ${order.number} has shipped`,
        text: lines.filter(Boolean).join("\n\n"),
      };
    }
    case "delivered":
      return {
        to: order.email,
        subject: `${shop.shopName}: your order ${order.number} was delivered`,
        text: [
          `Your order ${order.number} was delivered. We hope you enjoy it.`,
          `Something not right? You can return items within 30 days of delivery for a full refund: ${shop.publicUrl}/help/returns`,
        ].join("\n\n"),
      };
    case "cancelled":
      return {
        to: order.email,
        subject: `${shop.shopName}: your order ${order.number} was cancelled`,
        text: [
          `Your order ${order.number} was cancelled.`,
          order.refundedCents
            ? `We have refunded ${formatMoney(order.refundedCents)} to the card you paid with; it usually shows within 5–10 business days.`
            : "",
          follow,
        ]
          .filter(Boolean)
          .join("\n\n"),
      };
    default:
      return null;
  }
}
