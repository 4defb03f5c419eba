/** Review form bounds, shared by the server's validation and the form's attributes. */
export const REVIEW_LIMITS = {
  titleMax: 100,
  bodyMax: 2000,
} as const;

export const REVIEW_RATINGS = [5, 4, 3, 2, 1] as const;
