/**
 * The page a request is for. With JavaScript, React Router fetches loader and action data from
 * `<path>.data` (and `/_root.data` for "/") with a `_routes` parameter; redirects that send the
 * shopper "back here" must use the page's own path, not that one.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname === "/_root.data") url.pathname = "/";
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  return url;
}

/** Path + query of the page a request is for, e.g. "/account/orders?page=2". */
export function pagePath(request: Request): string {
  const url = pageUrl(request);
  return url.pathname + url.search;
}
