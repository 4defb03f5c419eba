import { isbot } from "isbot";
import { PRIVATE_PAGE, SHARED_PAGE_MAX_AGE_SECONDS } from "../lib/cache-control.ts";

/**
 * Pages shared between visitors without cookies (the routes mark them `public`, see
 * app/lib/cache-control.ts), kept rendered in memory — decision 010.
 *
 * - Only a GET without a Cookie (or Authorization) header is answered from here, and only a 200
 *   text/html page marked `public` that sets no cookie is kept: the same bytes every such visitor
 *   would get.
 * - Each page is kept with the data stamp read before it was rendered (`dataStamp`: on SQLite it
 *   moves with any write of this process and any commit of another) and is served only while the
 *   stamp is unchanged and it is younger than SHARED_PAGE_MAX_AGE_SECONDS (pages show dates too);
 *   a page whose data changed while it rendered is not kept. No stamp (PostgreSQL, where other
 *   instances write unseen) → no page is kept.
 * - The CSP nonce is per response: a kept page's nonce is replaced with the request's own.
 * - At most `maxBytes` of pages (UTF-16 length × 2), the least recently used dropped first.
 */
export interface PageCacheOptions {
  dataStamp: () => string | null;
  maxBytes?: number;
  maxAgeMs?: number;
  now?: () => number;
}

interface Page {
  stamp: string;
  storedAt: number;
  status: number;
  headers: [string, string][];
  body: string;
  nonce: string;
  bytes: number;
}

export type CacheOutcome = "HIT" | "MISS" | "BYPASS";

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class PageCache {
  readonly #dataStamp: () => string | null;
  readonly #maxBytes: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  /** insertion order is recency: a hit moves its page to the end */
  readonly #pages = new Map<string, Page>();
  #bytes = 0;

  constructor({ dataStamp, maxBytes = DEFAULT_MAX_BYTES, maxAgeMs, now = Date.now }: PageCacheOptions) {
    this.#dataStamp = dataStamp;
    this.#maxBytes = maxBytes;
    this.#maxAgeMs = maxAgeMs ?? SHARED_PAGE_MAX_AGE_SECONDS * 1000;
    this.#now = now;
  }

  get size(): number {
    return this.#pages.size;
  }

  /**
   * The response for `request`: a kept page (nonce replaced), or `render()`'s, kept on the way
   * out when it may be. `nonce` is the one this response's CSP header carries.
   */
  async serve(
    request: Request,
    nonce: string,
    render: () => Promise<Response>,
  ): Promise<{ response: Response; outcome: CacheOutcome }> {
    const stamp = nonce && isCacheableRequest(request) ? this.#dataStamp() : null;
    if (stamp === null) return { response: await render(), outcome: "BYPASS" };
    const key = cacheKey(request);
    const page = this.#pages.get(key);
    if (page) {
      if (page.stamp === stamp && this.#now() - page.storedAt < this.#maxAgeMs) {
        this.#pages.delete(key);
        this.#pages.set(key, page);
        return { response: responseOf(page, nonce), outcome: "HIT" };
      }
      this.#drop(key);
    }
    const response = await render();
    if (!isCacheableResponse(response) || !response.body) return { response, outcome: "BYPASS" };
    const [toClient, toCache] = response.body.tee();
    const storedAt = this.#now();
    const headers = [...response.headers];
    void new Response(toCache).text().then(
      (body) => {
        // kept only if nothing changed while it rendered
        if (this.#dataStamp() === stamp)
          this.#store(key, { stamp, storedAt, status: 200, headers, body, nonce });
      },
      () => {}, // the render failed or was aborted: nothing kept
    );
    const passed = new Response(toClient, { status: response.status, headers: response.headers });
    return { response: passed, outcome: "MISS" };
  }

  #store(key: string, page: Omit<Page, "bytes">): void {
    const bytes = page.body.length * 2;
    if (bytes > this.#maxBytes / 4) return;
    this.#drop(key);
    this.#pages.set(key, { ...page, bytes });
    this.#bytes += bytes;
    for (const [oldest] of this.#pages) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#bytes -= page.bytes;
  }
}

function responseOf(page: Page, nonce: string): Response {
  return new Response(page.body.replaceAll(page.nonce, nonce), {
    status: page.status,
    headers: page.headers,
  });
}

/**
 * A GET without cookies or credentials: what every such visitor is sent is the same (a shared
 * cache never answers a request with Authorization from a stored response, RFC 9111 § 3.5).
 */
export function isCacheableRequest(request: Request): boolean {
  return request.method === "GET" && !hasCredentials(request);
}

const hasCredentials = (request: Request) =>
  Boolean(request.headers.get("Cookie")) || request.headers.has("Authorization");

/** A 200 HTML page its route marked public, setting no cookie. */
export function isCacheableResponse(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    /(^|,)\s*public\s*(,|$)/.test(response.headers.get("Cache-Control") ?? "") &&
    !response.headers.has("Set-Cookie")
  );
}

/** The path and query; crawlers get their own pages (rendered whole before sending). */
function cacheKey(request: Request): string {
  const url = new URL(request.url);
  const userAgent = request.headers.get("User-Agent");
  return `${userAgent && isbot(userAgent) ? "bot " : ""}${url.pathname}${url.search}`;
}

/**
 * A page its route marked `public` stays public only for a request without cookies or credentials
 * and when it sets no cookie; otherwise it is the visitor's own. Either way shared caches must
 * tell apart requests with and without cookies (`Vary: Cookie`).
 */
export function withSharedCacheRules(request: Request, response: Response): Response {
  const cacheControl = response.headers.get("Cache-Control");
  if (!cacheControl || !/(^|,)\s*public\s*(,|$)/.test(cacheControl)) return response;
  response.headers.append("Vary", "Cookie");
  if (hasCredentials(request) || response.headers.has("Set-Cookie"))
    response.headers.set("Cache-Control", PRIVATE_PAGE);
  return response;
}
