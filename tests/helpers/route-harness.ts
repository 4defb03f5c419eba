import { RouterContextProvider } from "react-router";
import { requestInfoContext } from "../../app/lib/request-context.ts";

/**
 * Calling route modules' actions as the HTTP server would, without a server: a cookie jar, the
 * per-request context (the shop's services, tests/helpers/test-shop.ts, and the visitor's address,
 * for rate limits) and a form post.
 */

/** A browser's cookie jar, reduced to what the routes set. */
export class Jar {
  cookies = new Map<string, string>();
  header() {
    return [...this.cookies.entries()].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.slice(0, line.indexOf(";"));
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** The context the server hands to loaders and actions, for a visitor at `clientIp`. */
export function requestContext(clientIp = "203.0.113.7") {
  const provider = new RouterContextProvider();
  provider.set(requestInfoContext, { nonce: "", requestId: "test", clientIp });
  return provider;
}

/** POSTs a form to a route module's action in `context` (`shop.context()`); cookies it sets go into the jar. */
export async function postForm(
  module: { action: (args: never) => unknown },
  url: string,
  fields: Record<string, string>,
  jar: Jar,
  context: RouterContextProvider,
): Promise<unknown> {
  const request = new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
    body: new URLSearchParams(fields).toString(),
  });
  const result = await module.action({ request, params: {}, context } as never);
  if (result instanceof Response) jar.store(result);
  return result;
}

export type RouteModule = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

/**
 * Calls a route module's loader or action (a POST of `fields` when given) and tells what it
 * answered: `{ response }` for a Response (a redirect, say), `{ status, data }` for data, or
 * `{ thrown }` with the status of thrown data (a 404, say).
 */
export async function callRoute(
  module: RouteModule,
  kind: "loader" | "action",
  url: string,
  {
    cookie = "",
    fields,
    params = {},
    context,
  }: {
    cookie?: string;
    fields?: Record<string, string>;
    params?: Record<string, string>;
    /** the request's context, with the shop's services (`shop.context()`) */
    context: RouterContextProvider;
  },
) {
  const request = new Request(url, {
    method: fields ? "POST" : "GET",
    headers: fields
      ? { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie }
      : { Cookie: cookie },
    body: fields ? new URLSearchParams(fields).toString() : undefined,
  });
  const fn = module[kind] as (args: unknown) => Promise<unknown>;
  try {
    const result = await fn({ request, params, context });
    if (result instanceof Response) return { response: result };
    const value = result as { type?: string; data?: unknown; init?: { status?: number } };
    if (value?.type === "DataWithResponseInit")
      return { status: value.init?.status ?? 200, data: value.data as never };
    return { status: 200, data: result as never };
  } catch (thrown) {
    if (thrown instanceof Response) return { response: thrown };
    const value = thrown as { type?: string; init?: { status?: number } };
    if (value?.type === "DataWithResponseInit") return { thrown: value.init?.status };
    throw thrown;
  }
}

/** callRoute reduced to what access checks compare: the status, and where a redirect goes. */
export async function routeStatus(
  module: RouteModule,
  kind: "loader" | "action",
  url: string,
  options: Parameters<typeof callRoute>[3],
): Promise<{ status: number | undefined; location?: string | null; data?: true; thrown?: true } | null> {
  if (!module[kind]) return null;
  const answer = await callRoute(module, kind, url, options);
  if (answer.response)
    return { status: answer.response.status, location: answer.response.headers.get("Location") };
  if (answer.status === undefined) return { status: answer.thrown, thrown: true };
  return { status: answer.status, data: true };
}
