import { stockLevel } from "../../lib/stock.ts";

const STYLES = {
  "in-stock": "bg-green-100 text-green-900 ring-green-700",
  low: "bg-yellow-100 text-yellow-900 ring-yellow-700",
  out: "bg-red-100 text-red-900 ring-red-700",
} as const;

/** Admin stock badge (spec §4): over 10 green, 1 to 10 yellow, 0 red — with the number as text. */
export function StockBadge({ stock }: { stock: number }) {
  const level = stockLevel(stock);
  return (
    <span
      data-stock-level={level}
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLES[level]}`}
    >
      {stock === 0 ? "Out of stock" : `${stock} in stock`}
    </span>
  );
}
