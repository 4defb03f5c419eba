import { renderToStaticMarkup } from "react-dom/server";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import { formatCents } from "../../lib/money.ts";
import { SHIPPING_METHODS, TAX_LABEL } from "../../lib/pricing.ts";
import { countryName } from "../checkout/shipping-form.ts";
import type { OrderDetails } from "./orders.server.ts";

interface ShopInfo {
  shopName: string;
  publicUrl: string;
}

/**
 * The order confirmation e-mail: a plain-text part and an HTML part. The HTML is rendered by
 * React, so everything the shopper typed (names, address) is escaped.
 */
export function renderOrderConfirmation(order: OrderDetails, shop: ShopInfo) {
  const subject = `Your ${shop.shopName} order ${order.number} is confirmed`;
  const rows = summaryRows(order);
  const delivery = formatDeliveryDate(order.estimatedDelivery);
  const trackUrl = new URL("/orders/track", shop.publicUrl).toString();
  const text = [
    `Thank you for your order, ${order.shipTo.name}!`,
    "",
    `Order number: ${order.number}`,
    `Estimated delivery: ${delivery} (${SHIPPING_METHODS[order.shippingMethod].label})`,
    "",
    ...order.items.map(
      (item) => `${item.quantity} x ${item.name}${variantNote(item)} — ${formatCents(item.lineTotalCents)}`,
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
          Estimated delivery: {delivery} ({SHIPPING_METHODS[order.shippingMethod].label})
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
                <td style={{ textAlign: "right" }}>{formatCents(item.lineTotalCents)}</td>
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
  const { subtotalCents, discountCents, shippingCents, taxCents, totalCents } = order.totals;
  return [
    ["Subtotal", formatCents(subtotalCents)],
    ...(discountCents > 0
      ? [[`Discount (${order.couponCode})`, `−${formatCents(discountCents)}`] as [string, string]]
      : []),
    ["Shipping", shippingCents === 0 ? "Free" : formatCents(shippingCents)],
    [`Tax (${TAX_LABEL})`, formatCents(taxCents)],
    ["Total", formatCents(totalCents)],
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
