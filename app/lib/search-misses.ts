/** The periods Admin → Searches offers, in days (issue 33). */
export const SEARCH_MISS_PERIODS = [7, 30, 90] as const;
export type SearchMissPeriod = (typeof SEARCH_MISS_PERIODS)[number];
