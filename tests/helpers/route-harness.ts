import { RouterContextProvider } from "react-router";
import { requestInfoContext } from "../../app/lib/request-context.ts";

/**
 * Calling route modules' actions as the HTTP server would, without a server: a cookie jar, the
 * per-request context (with the visitor's address, for rate limits) and a form post.
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

/** POSTs a form to a route module's action; cookies it sets go into the jar. */
export async function postForm(
  module: { action: (args: never) => unknown },
  url: string,
  fields: Record<string, string>,
  jar: Jar,
  clientIp?: string,
): Promise<unknown> {
  const request = new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
    body: new URLSearchParams(fields).toString(),
  });
  const result = await module.action({ request, params: {}, context: requestContext(clientIp) } as never);
  if (result instanceof Response) jar.store(result);
  return result;
}
