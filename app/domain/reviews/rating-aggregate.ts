/**
 * A product's rating and review count move with each written review, by difference: the seeded
 * figures stand for reviews that were never written here (decision 006), so they are never
 * recomputed from the review rows. Rounded to 6 decimals, and snapped to a whole star when within
 * 1e-5 of one, so float noise cannot move a product across a whole star (the listing's rating
 * filter counts by floor(rating)). What is left is a drift of about a millionth per review,
 * far below the one decimal the shop shows.
 */
export interface RatingAggregate {
  rating: number;
  reviewCount: number;
}

export function ratingAfter(
  current: RatingAggregate,
  change: { add?: number; remove?: number },
): RatingAggregate {
  const { add, remove } = change;
  // A review being removed or edited is part of the count; if the stored figures say otherwise,
  // take it to be the only one.
  const base = remove !== undefined && current.reviewCount < 1 ? { rating: remove, reviewCount: 1 } : current;
  const count = base.reviewCount + (add !== undefined ? 1 : 0) - (remove !== undefined ? 1 : 0);
  if (count <= 0) return { rating: 0, reviewCount: 0 };
  const sum = base.rating * base.reviewCount - (remove ?? 0) + (add ?? 0);
  let rating = Math.round((sum / count) * 1e6) / 1e6;
  // The stored rating is itself rounded (and single precision on PostgreSQL), so each step may
  // be off by a millionth; never let that leave a product at 3.99999 instead of 4.
  const whole = Math.round(rating);
  if (Math.abs(rating - whole) < 1e-5) rating = whole;
  return { rating: Math.min(5, Math.max(0, rating)), reviewCount: count };
}
