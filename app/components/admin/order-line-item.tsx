import { Link } from "react-router";
import type { OrderStatus } from "../../db/schema.ts";
import { ORDER_STATUS_LABELS } from "../../domain/orders/order-status.ts";
import { currencyOf, formatMoney } from "../../lib/money.ts";
import { OrderDate } from "../account/order-details.tsx";

/**
 * One order in a short admin list (the dashboard's recent orders, a customer's orders): its number
 * linking to the order, date, status and total in the order's own currency.
 */
export function OrderLineItem({
  order,
}: {
  order: { number: string; createdAt: string; status: OrderStatus; totalCents: number; currency: string };
}) {
  return (
    <li>
      <Link to={`/admin/orders/${order.number}`} className="font-semibold text-brand-700 hover:underline">
        {order.number}
      </Link>{" "}
      · <OrderDate iso={order.createdAt} /> · {ORDER_STATUS_LABELS[order.status]} ·{" "}
      {formatMoney(order.totalCents, currencyOf(order.currency))}
    </li>
  );
}
