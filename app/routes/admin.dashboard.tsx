import { Form, Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { OrderLineItem } from "../components/admin/order-line-item.tsx";
import { SalesChart } from "../components/admin/sales-chart.tsx";
import { StockBadge } from "../components/admin/stock-badge.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { servicesFrom } from "../context.ts";
import { listLowStockProducts } from "../domain/catalog/admin/product-list.server.ts";
import { listAdminOrders } from "../domain/orders/order-admin.server.ts";
import { getAdminDashboard } from "../domain/reports/dashboard.server.ts";
import {
  customPeriod,
  daysIn,
  MAX_PERIOD_DAYS,
  PERIOD_PRESETS,
  type PeriodPreset,
  presetPeriod,
  previousPeriod,
} from "../domain/reports/sales-period.ts";
import {
  type SalesFigures,
  salesByDay,
  salesFigures,
  topProducts,
} from "../domain/reports/sales-report.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.dashboard";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Dashboard", "/admin/dashboard");

const PRESET_LABELS: Record<PeriodPreset, string> = {
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
};

/**
 * Sales for a period (today, 7 or 30 days, or a custom range of whole UTC days) beside the period
 * before it, a daily chart, the best sellers, low stock and the latest orders.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "reports");
  const { db } = servicesFrom(context);
  const url = new URL(request.url);
  const asked = url.searchParams.get("period");
  const custom =
    asked === "custom" ? customPeriod(url.searchParams.get("from"), url.searchParams.get("to")) : null;
  const preset: PeriodPreset | "custom" = custom
    ? "custom"
    : PERIOD_PRESETS.includes(asked as PeriodPreset)
      ? (asked as PeriodPreset)
      : "30d";
  const period = custom ?? presetPeriod(preset === "custom" ? "30d" : preset);
  const before = previousPeriod(period);
  const [counts, current, previous, days, best, lowStock, recent] = await Promise.all([
    getAdminDashboard(db),
    salesFigures(db, period),
    salesFigures(db, before),
    salesByDay(db, period),
    topProducts(db, period),
    listLowStockProducts(db, 5),
    listAdminOrders(db, { page: 1 }),
  ]);
  return {
    counts,
    preset,
    period,
    previousPeriod: before,
    // the custom range asked for but refused: said beside the form
    rangeError:
      asked === "custom" && !custom
        ? `Choose a start and an end date, at most ${MAX_PERIOD_DAYS} days apart.`
        : null,
    current,
    previous,
    days,
    best,
    lowStock,
    recent: recent.orders.slice(0, 5),
  };
}

const FIGURES: { key: keyof SalesFigures; label: string; money: boolean }[] = [
  { key: "revenueCents", label: "Revenue (net of refunds)", money: true },
  { key: "orders", label: "Orders", money: false },
  { key: "averageOrderCents", label: "Average order value", money: true },
  { key: "refundsCents", label: "Refunds", money: true },
  { key: "units", label: "Units sold", money: false },
];

function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new";
  const percent = Math.round(((now - before) / before) * 100);
  return percent === 0 ? "no change" : `${percent > 0 ? "+" : "−"}${Math.abs(percent)} %`;
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const money = useMoney();
  const {
    counts,
    preset,
    period,
    previousPeriod: before,
    rangeError,
    current,
    previous,
    days,
    best,
    lowStock,
    recent,
  } = loaderData;
  const show = (value: number, isMoney: boolean) => (isMoney ? money(value) : value.toLocaleString("en-US"));
  const cards = [
    { to: "/admin", label: "Live products", value: counts.products },
    { to: "/admin/low-stock", label: "Low on stock (10 or fewer)", value: counts.lowStock },
    { to: "/admin/orders?status=paid", label: "Paid orders to ship", value: counts.ordersToShip },
  ];
  const periodText = period.from === period.to ? period.from : `${period.from} to ${period.to}`;
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="block rounded-xl border border-gray-200 p-5 hover:border-brand-600">
              <span className="block text-3xl font-bold">{card.value}</span>
              <span className="mt-1 block text-gray-800">{card.label}</span>
            </Link>
          </li>
        ))}
      </ul>

      <section aria-labelledby="sales-heading" className="space-y-4">
        <h2 id="sales-heading" className="text-2xl font-bold">
          Sales: {periodText}
        </h2>
        <nav aria-label="Sales period" className="flex flex-wrap gap-2">
          {PERIOD_PRESETS.map((p) => (
            <Link
              key={p}
              to={`/admin/dashboard?period=${p}`}
              aria-current={preset === p ? "page" : undefined}
              className={`rounded-lg border px-3 py-2 text-sm font-semibold ${
                preset === p
                  ? "border-brand-700 bg-brand-50 text-brand-800"
                  : "border-gray-300 hover:bg-gray-100"
              }`}
            >
              {PRESET_LABELS[p]}
            </Link>
          ))}
        </nav>
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="period" value="custom" />
          <div>
            <label htmlFor="sales-from" className="block text-sm font-semibold">
              From
            </label>
            <input
              id="sales-from"
              type="date"
              name="from"
              required
              defaultValue={preset === "custom" ? period.from : ""}
              aria-describedby={rangeError ? "sales-range-error" : undefined}
              className="mt-1 rounded-lg border border-gray-400 px-3 py-2"
            />
          </div>
          <div>
            <label htmlFor="sales-to" className="block text-sm font-semibold">
              To
            </label>
            <input
              id="sales-to"
              type="date"
              name="to"
              required
              defaultValue={preset === "custom" ? period.to : ""}
              aria-describedby={rangeError ? "sales-range-error" : undefined}
              className="mt-1 rounded-lg border border-gray-400 px-3 py-2"
            />
          </div>
          <button
            type="submit"
            className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
          >
            Show range
          </button>
          {rangeError && (
            <p id="sales-range-error" className="w-full text-sm text-red-700">
              {rangeError}
            </p>
          )}
        </Form>
        <p className="text-sm text-gray-700">
          Paid orders by the day they were placed (UTC), net of refunds, compared with {before.from} to{" "}
          {before.to}.
        </p>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3 lg:grid-cols-5">
          {FIGURES.map((figure) => (
            <div key={figure.key} className="rounded-xl border border-gray-200 p-4">
              <dt className="text-sm text-gray-800">{figure.label}</dt>
              <dd className="mt-1 text-2xl font-bold">{show(current[figure.key], figure.money)}</dd>
              <dd className="text-sm text-gray-700">
                {change(current[figure.key], previous[figure.key])}{" "}
                <span className="sr-only">compared with the period before, which had</span>
                <span aria-hidden="true">(before: </span>
                {show(previous[figure.key], figure.money)}
                <span aria-hidden="true">)</span>
              </dd>
            </div>
          ))}
        </dl>
        <SalesChart
          days={days}
          label={`Revenue per day, ${daysIn(period)} ${daysIn(period) === 1 ? "day" : "days"}`}
        />
      </section>

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
        <section aria-labelledby="top-heading">
          <h2 id="top-heading" className="text-xl font-bold">
            Top products
          </h2>
          {best.length === 0 ? (
            <p className="mt-2 text-gray-700">No sales in this period.</p>
          ) : (
            <ol className="mt-2 space-y-1 text-sm">
              {best.map((product) => (
                <li key={product.productId ?? product.name} className="break-words">
                  {product.productId ? (
                    <Link
                      to={`/admin/products/${product.productId}`}
                      className="font-semibold text-brand-700 hover:underline"
                    >
                      {product.name}
                    </Link>
                  ) : (
                    <span className="font-semibold">{product.name}</span>
                  )}{" "}
                  — {product.units} sold, {money(product.revenueCents)}
                </li>
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby="low-heading">
          <h2 id="low-heading" className="text-xl font-bold">
            Low stock
          </h2>
          {lowStock.length === 0 ? (
            <p className="mt-2 text-gray-700">Every product has more than 10 in stock.</p>
          ) : (
            <ul className="mt-2 space-y-2 text-sm">
              {lowStock.map((item) => (
                <li key={item.variantId} className="flex flex-wrap items-center justify-between gap-2">
                  <Link
                    to={`/admin/products/${item.id}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {item.name}
                    {item.variantTitle ? ` (${item.variantTitle})` : ""}
                  </Link>
                  <StockBadge stock={item.stock} />
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-sm">
            <Link to="/admin/low-stock" className="text-brand-700 hover:underline">
              All low stock
            </Link>
          </p>
        </section>
        <section aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="text-xl font-bold">
            Recent orders
          </h2>
          {recent.length === 0 ? (
            <p className="mt-2 text-gray-700">No orders yet.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm">
              {recent.map((order) => (
                <OrderLineItem key={order.number} order={order} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
