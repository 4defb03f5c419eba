/**
 * Cache-Control of pages that are the same for every visitor without cookies — the catalogue and
 * the help pages. The server turns it into PRIVATE_PAGE for a request that carried cookies or a
 * response that sets one, adds `Vary: Cookie`, and keeps such pages in its own page cache
 * (server/page-cache.ts, decision 010); a CDN may keep them SHARED_PAGE_MAX_AGE_SECONDS.
 */
export const SHARED_PAGE_MAX_AGE_SECONDS = 60;
export const SHARED_PAGE = `public, max-age=0, s-maxage=${SHARED_PAGE_MAX_AGE_SECONDS}`;

/** Pages with a visitor's own parts (cart badge, toasts, their name): never kept by a shared cache. */
export const PRIVATE_PAGE = "private, max-age=0, must-revalidate";

/** The headers export of a page shared between visitors without cookies. */
export const sharedPageHeaders = () => ({ "Cache-Control": SHARED_PAGE });
