import { formatCount } from "../infra/format.ts";

/** Five stars filled to the rating (one element, no per-star SVG), with the number for screen readers. */
export function StarRating({ rating, reviewCount }: { rating: number; reviewCount?: number }) {
  const percent = Math.max(0, Math.min(100, (rating / 5) * 100));
  return (
    <div className="flex items-center gap-1">
      <span className="sr-only">{`Rated ${rating.toFixed(1)} out of 5`}</span>
      <span
        aria-hidden="true"
        className="relative inline-block text-sm leading-none tracking-tight text-gray-300"
      >
        ★★★★★
        <span className="absolute inset-0 overflow-hidden text-amber-500" style={{ width: `${percent}%` }}>
          ★★★★★
        </span>
      </span>
      {reviewCount !== undefined && (
        <span className="text-xs text-gray-600">
          ({formatCount(reviewCount)}
          <span className="sr-only"> reviews</span>)
        </span>
      )}
    </div>
  );
}
