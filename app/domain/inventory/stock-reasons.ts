import type { StockReason } from "../../db/schema.ts";

/** What each reason of a stock movement (migration 2200) reads as in the admin's stock history. */
export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  opening_balance: "Opening balance",
  sale: "Sale",
  payment_failed: "Payment failed (released)",
  cancellation: "Order cancelled",
  refund_restock: "Refund, back in stock",
  return_received: "Return received",
  admin_set: "Set by staff",
  admin_adjust: "Changed by staff",
  bulk_set: "Bulk set by staff",
  csv_import: "CSV import",
  variant_removed: "Variant removed",
};
