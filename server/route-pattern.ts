import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * The route pattern a path is answered by (`/products/:productId`, `/*` for the splat route), from
 * the build's route table — the metrics' and traces' name for a request, never its raw path, so
 * their labels stay bounded (decision 027). A data request (`/products/7.data`, `/_root.data`) is
 * named by the page it loads. Answers are kept for the last 2 000 paths seen.
 */
export function routePatterns(build: Pick<ServerBuild, "routes">): (pathname: string) => string {
  const manifest = Object.values(build.routes).filter((route) => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    manifest
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
          : {
              id: route.id,
              path: route.path,
              caseSensitive: route.caseSensitive,
              children: childrenOf(route.id),
            },
      );
  const routes = childrenOf(undefined);
  const known = new Map<string, string>();
  return (pathname) => {
    let path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
    if (path === "/_root") path = "/";
    const seen = known.get(path);
    if (seen) return seen;
    const matches = matchRoutes(routes, path);
    const pattern = matches
      ? `/${matches
          .map((match) => match.route.path ?? "")
          .filter(Boolean)
          .join("/")}`.replace(/\/+/g, "/")
      : "unmatched";
    if (known.size >= 2_000) known.clear();
    known.set(path, pattern);
    return pattern;
  };
}
