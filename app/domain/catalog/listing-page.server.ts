import type { Database } from "../../db/database.server.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { type ListingQuery, PAGE_SIZE, parseListingQuery } from "../../lib/listing-query.ts";
import { searchProducts } from "./listing.server.ts";
import { isSearchMiss, recordSearchMiss } from "./search-misses.server.ts";

export interface ListingPreset {
  /** the path this listing lives at (/products, /products/deals, …) */
  path: string;
  title: string;
  description: string;
  fixed?: Partial<ListingQuery>;
}

/**
 * Shared loader body of /products, /products/new-arrivals and /products/deals (and the Store
 * API's catalogue).
 */
export async function loadListing(
  db: Database,
  searchParams: URLSearchParams,
  preset: ListingPreset,
  /** the signed-in shopper: the cards show their member prices (decision 037) */
  userId: string | null = null,
) {
  const query = parseListingQuery(searchParams, preset.fixed);
  let result = await searchProducts(db, query, new Date(), userId);
  const lastPage = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  if (query.page > lastPage) {
    // A page past the end (an old link after products went away) shows the last page.
    query.page = lastPage;
    result = await searchProducts(db, query, new Date(), userId);
  }
  // a search that found nothing is counted for Admin → Searches, after the answer
  const search = query.search;
  if (search !== null && isSearchMiss(query, result.total)) {
    runAfterResponse("search-miss", () => recordSearchMiss(db, search));
  }
  // only the option filters the catalogue knows are the listing's (a `fbclid=` is not one)
  const known = new Set(result.facets.options.map((facet) => facet.key));
  query.options = Object.fromEntries(Object.entries(query.options).filter(([key]) => known.has(key)));
  return { query, result, preset: { ...preset, fixed: preset.fixed ?? {} } };
}
