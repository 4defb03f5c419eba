/** The reported reviews list: its rating filter and sort orders (shared by the server and the page). */
export const REVIEW_RATINGS = ["1", "2", "3", "4", "5"] as const;
export type ReviewRatingFilter = (typeof REVIEW_RATINGS)[number];

/**
 * Most recently reported first (the default) or longest waiting first, most reports first, lowest
 * or highest rating first.
 */
export const REPORTED_REVIEW_SORTS = [
  "reported-newest",
  "reported-oldest",
  "reports-desc",
  "rating-asc",
  "rating-desc",
] as const;
export type ReportedReviewSort = (typeof REPORTED_REVIEW_SORTS)[number];
