import { renderToStaticMarkup } from "react-dom/server";
import { countryName } from "../../lib/countries.ts";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import { taxRows } from "../../lib/markets.ts";
import { formatMoney } from "../../lib/money.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import type { OrderDetails } from "./orders.server.ts";

/**
 * The order confirmation e-mail: a plain-text part and an HTML part. The HTML is rendered by
 * React, so everything the shopper typed (names, address) is escaped.
 */
export function renderOrderConfirmation(order: OrderDetails, shop: MailShop) {
  const subject = `Your ${shop.shopName} order ${order.number} is confirmed`;
  const rows = summaryRows(order);
  const money = (cents: number) => formatMoney(cents, order.currency);
  const methodLabel = order.shippingMethodName;
  const delivery = formatDeliveryDate(order.estimatedDelivery);
  const trackUrl = new URL("/orders/track", shop.publicUrl).toString();
  const text = [
    `Thank you for your order, ${order.shipTo.name}!`,
    "",
    `Order number: ${order.number}`,
    `Estimated delivery: ${delivery} (${methodLabel})`,
    "",
    ...order.items.map(
      (item) => `${item.quantity} x ${item.name}${variantNote(item)} — ${money(item.lineTotalCents)}`,
    ),
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    "Shipping to:",
    ...addressLines(order),
    "",
    `Paid with ${order.payment.brand} ending in ${order.payment.last4}.`,
    "",
    `Track your order at ${trackUrl} with your order number and this e-mail address.`,
    "",
    `— ${shop.shopName}`,
  ].join("\n");
  const html = `<!doctype html>${renderToStaticMarkup(
    <html lang="en">
      <body style={{ fontFamily: "Arial, sans-serif", color: "#111827" }}>
        <h1 style={{ fontSize: "20px" }}>Thank you for your order, {order.shipTo.name}!</h1>
        <p>
          Order number: <strong>{order.number}</strong>
          <br />
          Estimated delivery: {delivery} ({methodLabel})
        </p>
        <table cellPadding={6} style={{ borderCollapse: "collapse" }}>
          <tbody>
            {order.items.map((item) => (
              <tr key={`${item.productSlug}-${item.name}`}>
                <td>{item.quantity} x</td>
                <td>
                  {item.name}
                  {variantNote(item)}
                </td>
                <td style={{ textAlign: "right" }}>{money(item.lineTotalCents)}</td>
              </tr>
            ))}
            {rows.map(([label, value]) => (
              <tr key={label}>
                <td />
                <td>{label}</td>
                <td style={{ textAlign: "right" }}>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          Shipping to:
          <br />
          {addressLines(order).map((line) => (
            <span key={line}>
              {line}
              <br />
            </span>
          ))}
        </p>
        <p>
          Paid with {order.payment.brand} ending in {order.payment.last4}.
        </p>
        <p>
          <a href={trackUrl}>Track your order</a> with your order number and this e-mail address.
        </p>
        <p>— {shop.shopName}</p>
      </body>
    </html>,
  )}`;
  return { subject, text, html };
}

function summaryRows(order: OrderDetails): [string, string][] {
  const { subtotalCents, discountCents, shippingCents, totalCents } = order.totals;
  const money = (cents: number) => formatMoney(cents, order.currency);
  return [
    ["Subtotal", money(subtotalCents)],
    ...(discountCents > 0
      ? [[`Discount (${order.couponCode})`, `−${money(discountCents)}`] as [string, string]]
      : []),
    ["Shipping", shippingCents === 0 ? "Free" : money(shippingCents)],
    ...taxRows(order.totals).map((tax): [string, string] => [tax.label, money(tax.taxCents)]),
    ["Total", money(totalCents)],
  ];
}

function addressLines(order: OrderDetails): string[] {
  const { shipTo } = order;
  return [
    shipTo.name,
    shipTo.address,
    `${shipTo.city}, ${shipTo.state} ${shipTo.zipCode}`,
    countryName(shipTo.country),
  ];
}

/** The line's variant and SKU after its name: " (Size: M · Colour: Black, SKU TEE-M-BLK)", or "". */
function variantNote(item: { variantTitle: string; sku: string | null }): string {
  const parts = [item.variantTitle, item.sku ? `SKU ${item.sku}` : ""].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}
