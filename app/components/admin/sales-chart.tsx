import type { SalesDay } from "../../domain/reports/sales-report.server.ts";
import { useMoney } from "../shop-settings.ts";
import { TableScroll } from "../table-scroll.tsx";

const WIDTH = 640;
const HEIGHT = 200;
const PAD_LEFT = 8;
const PAD_BOTTOM = 20;

/**
 * Daily revenue as bars, drawn on the server as SVG (an image with a name and a description for
 * screen readers; each bar's value in its <title>), with the same figures as a table beside it —
 * the chart is a picture of the table, not the only way to read it.
 */
export function SalesChart({ days, label }: { days: SalesDay[]; label: string }) {
  const money = useMoney();
  const max = Math.max(1, ...days.map((d) => d.revenueCents));
  const slot = (WIDTH - PAD_LEFT) / Math.max(1, days.length);
  const bar = Math.max(1, slot * 0.7);
  const total = days.reduce((sum, d) => sum + d.revenueCents, 0);
  const best = days.reduce<SalesDay | null>(
    (top, d) => (!top || d.revenueCents > top.revenueCents ? d : top),
    null,
  );
  return (
    <figure className="rounded-xl border border-gray-200 p-4">
      <figcaption className="font-semibold">{label}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-3 h-48 w-full"
        role="img"
        aria-label={`${label}: ${money(total)} over ${days.length} ${days.length === 1 ? "day" : "days"}${
          best && best.revenueCents > 0 ? `, the best day ${best.day} with ${money(best.revenueCents)}` : ""
        }. The table below has every day.`}
        preserveAspectRatio="none"
      >
        <line x1={PAD_LEFT} y1={HEIGHT - PAD_BOTTOM} x2={WIDTH} y2={HEIGHT - PAD_BOTTOM} stroke="#6b7280" />
        {days.map((d, i) => {
          const h = ((HEIGHT - PAD_BOTTOM - 8) * d.revenueCents) / max;
          return (
            <rect
              key={d.day}
              x={PAD_LEFT + i * slot + (slot - bar) / 2}
              y={HEIGHT - PAD_BOTTOM - h}
              width={bar}
              height={h}
              fill="#4338ca"
            >
              <title>{`${d.day}: ${money(d.revenueCents)}, ${d.orders} ${d.orders === 1 ? "order" : "orders"}`}</title>
            </rect>
          );
        })}
        <text x={PAD_LEFT} y={HEIGHT - 4} fontSize="12" fill="#374151">
          {days[0]?.day}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} fontSize="12" fill="#374151" textAnchor="end">
          {days.at(-1)?.day}
        </text>
      </svg>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">
          Show the figures as a table
        </summary>
        <TableScroll label="Daily sales figures" className="mt-2 max-h-72 overflow-y-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Revenue and orders per day</caption>
            <thead>
              <tr className="border-b border-gray-300">
                <th scope="col" className="py-1 pr-3">
                  Day
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Revenue
                </th>
                <th scope="col" className="py-1 text-right">
                  Orders
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} className="border-b border-gray-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {d.day}
                  </th>
                  <td className="py-1 pr-3 text-right">{money(d.revenueCents)}</td>
                  <td className="py-1 text-right">{d.orders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
