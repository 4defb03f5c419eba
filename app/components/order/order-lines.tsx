import type { ReactNode } from "react";
import { Link } from "react-router";
import { type Totals, taxRows } from "../../lib/markets.ts";
import type { Currency } from "../../lib/money.ts";
import { useMoney } from "../shop-settings.ts";
import { TableScroll } from "../table-scroll.tsx";

/** One line of an order or a checkout: what, how many, and for how much. */
export interface OrderLine {
  productId: number | null;
  name: string;
  quantity: number;
  lineTotalCents: number;
  /** the table shows these when present */
  unitPriceCents?: number;
  brand?: string;
  /** the name links here (a live product) */
  href?: string | null;
  /** "Size: M · Colour: Black" ("" or absent for a product without options) */
  variantTitle?: string;
  sku?: string | null;
}

/** The variant and SKU under a line's name ("Size: M · Colour: Black · SKU: TEE-M-BLK"), or nothing. */
function VariantNote({ line, className }: { line: OrderLine; className: string }) {
  const parts = [line.variantTitle, line.sku ? `SKU: ${line.sku}` : ""].filter(Boolean);
  return parts.length > 0 ? <span className={className}>{parts.join(" · ")}</span> : null;
}

/** An order's items as lines of the table, each name linking where `linkOf` says (null: no link). */
export function orderItemLines<
  Item extends Omit<OrderLine, "href"> & { unitPriceCents: number; brand: string },
>(items: readonly Item[], linkOf: (item: Item) => string | null): OrderLine[] {
  return items.map((item) => ({
    productId: item.productId,
    name: item.name,
    variantTitle: item.variantTitle,
    sku: item.sku,
    brand: item.brand,
    href: linkOf(item),
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    lineTotalCents: item.lineTotalCents,
  }));
}

/**
 * An order's lines, as every page that shows them lays them out: `summary` ("2 x Lamp", the
 * checkout's Order Summary, the confirmation, tracking), `review` ("Lamp × 2", checkout's review)
 * or `table` (product, quantity, unit price, line total: the account's and the admin's order).
 */
export function OrderLines({
  lines,
  layout,
  label = "Items of this order",
  className = "",
  currency,
}: {
  lines: readonly OrderLine[];
  layout: "summary" | "review" | "table";
  /** the table's scroll region's name */
  label?: string;
  className?: string;
  /** a placed order's currency (else the shop's) */
  currency?: Currency;
}) {
  const money = useMoney(currency);
  if (layout === "table") {
    return (
      <TableScroll label={label} className={className}>
        <table className="w-full text-left text-sm">
          <thead className="border-b border-gray-300">
            <tr>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Product
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-semibold">
                Quantity
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-semibold">
                Unit price
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Line total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200">
            {lines.map((line, index) => (
              <tr key={`${line.productId}-${index}`}>
                <td className="py-2 pr-4">
                  {line.href ? (
                    <Link to={line.href} className="font-medium text-brand-700 hover:underline">
                      {line.name}
                    </Link>
                  ) : (
                    <span className="font-medium">{line.name}</span>
                  )}
                  {line.brand && <span className="block text-gray-600">{line.brand}</span>}
                  <VariantNote line={line} className="block text-gray-600" />
                </td>
                <td className="py-2 pr-4 text-right">{line.quantity}</td>
                <td className="py-2 pr-4 text-right">
                  {line.unitPriceCents === undefined ? "" : money(line.unitPriceCents)}
                </td>
                <td className="py-2 text-right">{money(line.lineTotalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  }
  return (
    <ul className={`${layout === "review" ? "divide-y divide-gray-200" : "space-y-2"} text-sm ${className}`}>
      {lines.map((line, index) => (
        <li
          key={`${line.productId}-${line.name}-${index}`}
          className={`flex justify-between gap-4 ${layout === "review" ? "py-2" : ""}`}
        >
          {layout === "review" ? (
            <span>
              {line.name} <span className="text-gray-700">× {line.quantity}</span>
              <VariantNote line={line} className="block text-xs text-gray-600" />
            </span>
          ) : (
            <span>
              {line.quantity} x {line.name}
              <VariantNote line={line} className="block text-xs text-gray-600" />
            </span>
          )}
          <span className={`shrink-0 ${layout === "review" ? "font-semibold" : ""}`}>
            {money(line.lineTotalCents)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Subtotal, discount (naming the coupon), shipping ("Free" at 0, naming the method when given),
 * tax (one row per rate when several bear it; "included" when inside the prices) and total.
 */
export function OrderTotals({
  totals,
  discountLabel,
  className = "mt-4",
  currency,
}: {
  totals: Totals;
  discountLabel: string | null;
  className?: string;
  /** a placed order's currency (else the shop's) */
  currency?: Currency;
}) {
  const money = useMoney(currency);
  const row = (label: ReactNode, value: string, testId: string, extra = "") => (
    <div key={testId} className={`flex justify-between gap-4 ${extra}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  return (
    <dl
      className={`space-y-2 border-t border-gray-300 pt-4 text-sm ${className}`}
      data-testid="checkout-totals"
    >
      {row("Subtotal", money(totals.subtotalCents), "checkout-subtotal")}
      {totals.discountCents > 0 &&
        row(
          `Discount${discountLabel ? ` (${discountLabel})` : ""}`,
          `−${money(totals.discountCents)}`,
          "checkout-discount",
          "text-green-800",
        )}
      {row(
        "Shipping",
        totals.shippingCents === 0 ? "Free" : money(totals.shippingCents),
        "checkout-shipping",
      )}
      {taxRows(totals).map((tax, index, rows) =>
        row(
          <TaxName label={tax.label} />,
          money(tax.taxCents),
          rows.length === 1 ? "checkout-tax" : `checkout-tax-${index}`,
        ),
      )}
      {row(
        "Total",
        money(totals.totalCents),
        "checkout-total",
        "border-t border-gray-300 pt-2 text-base font-bold",
      )}
    </dl>
  );
}

/** "Tax (Including VAT)" with the part in brackets quieter. */
export function TaxName({ label }: { label: string }) {
  const open = label.indexOf(" (");
  if (open < 0) return <>{label}</>;
  return (
    <>
      {label.slice(0, open)} <span className="text-gray-700">{label.slice(open + 1)}</span>
    </>
  );
}
