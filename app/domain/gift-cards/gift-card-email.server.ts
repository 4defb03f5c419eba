import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import { formatMoney } from "../../lib/money.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import { formatDateTimeIn } from "../../lib/time-zones.ts";
import type { GiftCardView } from "./gift-cards.server.ts";

/**
 * The e-mail that hands a gift card to its recipient: the amount, the code (the only place besides
 * the issuing page it is ever written), the last day, the sender's message. A failure is logged:
 * the card exists, and staff still see the code on the page that issued it.
 */
export async function sendGiftCardEmail(
  mail: Mailer,
  shop: MailShop & { timeZone: string },
  { card, code, message }: { card: GiftCardView; code: string; message: string | null },
): Promise<boolean> {
  if (!card.recipientEmail) return false;
  const amount = formatMoney(card.initialCents, card.currency);
  const greeting = card.recipientName ? `Hello ${card.recipientName},` : "Hello,";
  const lines = [
    greeting,
    `You have received a ${shop.shopName} gift card worth ${amount}.`,
    ...(message ? [`Their message: “${message}”`] : []),
    `Your gift card code: ${code}`,
    `Enter it at the payment step of checkout at ${shop.publicUrl} to pay for part or all of an order.`,
    card.expiresAt
      ? `It can be used until ${formatDateTimeIn(card.expiresAt, shop.timeZone)}.`
      : "It does not expire.",
    `See what is left on it at any time: ${new URL("/gift-cards/balance", shop.publicUrl)}`,
    "Keep this code safe: anyone who has it can spend the card.",
    `— ${shop.shopName}`,
  ];
  try {
    await mail.send({
      to: card.recipientEmail,
      subject: `Your ${amount} gift card from ${shop.shopName}`,
      text: lines.join("\n\n"),
    });
    return true;
  } catch (error) {
    logger.warn({ err: error, giftCard: card.id }, "gift card e-mail failed");
    return false;
  }
}
