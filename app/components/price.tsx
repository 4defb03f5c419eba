import { useMoney } from "./shop-settings.ts";

/** The one way a price is shown: current price, and the original struck through when higher. */
export function Price({
  cents,
  originalCents,
  size = "md",
  from = false,
  member = false,
}: {
  cents: number;
  originalCents?: number | null;
  size?: "md" | "lg";
  /** the lowest of several prices (a product's variants): "From $X" */
  from?: boolean;
  /** the price is the signed-in shopper's member price (a customer group's price list, decision 037) */
  member?: boolean;
}) {
  const money = useMoney();
  const hasSaving = originalCents != null && originalCents > cents;
  return (
    // wraps in a narrow card (two per row on a phone) rather than clipping the original price
    <p className="flex flex-wrap items-baseline gap-x-2">
      <span className={size === "lg" ? "text-3xl font-bold" : "text-lg font-bold"}>
        {from && <span className="text-sm font-semibold text-gray-700">From </span>}
        {member ? (
          <span className="mr-1 text-sm font-semibold text-brand-700">Member price </span>
        ) : (
          hasSaving && <span className="sr-only">Sale price </span>
        )}
        {money(cents)}
      </span>
      {hasSaving && (
        <s className="text-sm text-gray-600">
          <span className="sr-only">Original price </span>
          {money(originalCents)}
        </s>
      )}
    </p>
  );
}
