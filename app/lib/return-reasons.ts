/** The reasons a shopper picks from when asking to return items (domain/returns). */
export const RETURN_REASONS = [
  "It doesn't fit",
  "Not as described",
  "Arrived damaged or faulty",
  "Wrong item sent",
  "Changed my mind",
] as const;
