/** Stock display rules (spec §4): > 10 in stock, 1–10 low, 0 out. */
export const LOW_STOCK_THRESHOLD = 10;

export type StockLevel = "in-stock" | "low" | "out";

export function stockLevel(stock: number): StockLevel {
  if (stock <= 0) return "out";
  return stock <= LOW_STOCK_THRESHOLD ? "low" : "in-stock";
}

export function stockMessage(stock: number): string {
  switch (stockLevel(stock)) {
    case "out":
      return "Out of Stock";
    case "low":
      return `Only ${stock} left in stock - order soon`;
    default:
      return "In Stock";
  }
}
