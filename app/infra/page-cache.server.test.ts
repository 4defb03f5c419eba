import { describe, expect, it } from "vitest";
import { PRIVATE_PAGE, SHARED_PAGE } from "../lib/cache-control.ts";
import { isCacheableResponse, PageCache, withSharedCacheRules } from "./page-cache.server.ts";

const URL_BASE = "http://shop.test";
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${URL_BASE}${path}`, { headers: { "User-Agent": BROWSER, ...headers } });

/** A page as React Router renders it: the nonce in its scripts, streamed in two chunks. */
function page(nonce: string, text: string, init: { status?: number; headers?: Record<string, string> } = {}) {
  const html = `<!DOCTYPE html><html><body><p>${text}</p><script nonce="${nonce}">hydrate()</script></body></html>`;
  const half = Math.floor(html.length / 2);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(html.slice(0, half)));
      controller.enqueue(new TextEncoder().encode(html.slice(half)));
      controller.close();
    },
  });
  return new Response(body, {
    status: init.status ?? 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": SHARED_PAGE, ...init.headers },
  });
}

/** A cache over a fake data stamp and clock, and a renderer that counts its renders. */
function setup(options: { maxBytes?: number } = {}) {
  const state = { stamp: "1:0" as string | null, now: 1_000_000, renders: 0, text: "first" };
  const cache = new PageCache({ dataStamp: () => state.stamp, now: () => state.now, ...options });
  const serve = async (request: Request, nonce: string, render?: (nonce: string) => Response) => {
    const { response, outcome } = await cache.serve(request, nonce, async () => {
      state.renders++;
      return render ? render(nonce) : page(nonce, state.text);
    });
    const body = await response.text();
    await new Promise((resolve) => setImmediate(resolve)); // the cache's copy is read to its end
    return { response, outcome, body };
  };
  return { state, cache, serve };
}

describe("PageCache", () => {
  it("renders a page once, then answers from memory with the request's own nonce", async () => {
    const { state, serve } = setup();
    const first = await serve(get("/"), "nonce-one");
    expect(first.outcome).toBe("MISS");
    expect(first.body).toContain('<script nonce="nonce-one">');
    const second = await serve(get("/"), "nonce-two");
    expect(second.outcome).toBe("HIT");
    expect(state.renders).toBe(1);
    expect(second.body).toBe(first.body.replaceAll("nonce-one", "nonce-two"));
    expect(second.body).not.toContain("nonce-one");
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get("Cache-Control")).toBe(SHARED_PAGE);
  });

  it("keeps each path and query apart", async () => {
    const { state, serve } = setup();
    await serve(get("/products?sort=price-asc"), "n1");
    state.text = "second";
    expect((await serve(get("/products?sort=price-desc"), "n2")).body).toContain("second");
    expect((await serve(get("/products?sort=price-asc"), "n3")).body).toContain("first");
    expect(state.renders).toBe(2);
  });

  it("renders again once the data changed (the stamp moved), and keeps the new page", async () => {
    const { state, serve } = setup();
    await serve(get("/"), "n1");
    state.stamp = "1:1";
    state.text = "renamed";
    const after = await serve(get("/"), "n2");
    expect(after.outcome).toBe("MISS");
    expect(after.body).toContain("renamed");
    expect((await serve(get("/"), "n3")).outcome).toBe("HIT");
    expect(state.renders).toBe(2);
  });

  it("does not keep a page whose data changed while it rendered", async () => {
    const { state, serve } = setup();
    await serve(get("/"), "n1", (nonce) => {
      state.stamp = "2:0"; // another process committed meanwhile
      return page(nonce, "maybe stale");
    });
    expect((await serve(get("/"), "n2")).outcome).toBe("MISS");
    expect(state.renders).toBe(2);
  });

  it("renders again after SHARED_PAGE_MAX_AGE_SECONDS (60 s) even when nothing changed", async () => {
    const { state, serve } = setup();
    await serve(get("/"), "n1");
    state.now += 59_000;
    expect((await serve(get("/"), "n2")).outcome).toBe("HIT");
    state.now += 1_000;
    expect((await serve(get("/"), "n3")).outcome).toBe("MISS");
  });

  it("passes by without a data stamp (PostgreSQL, or before the database opened)", async () => {
    const { state, cache, serve } = setup();
    state.stamp = null;
    expect((await serve(get("/"), "n1")).outcome).toBe("BYPASS");
    expect((await serve(get("/"), "n2")).outcome).toBe("BYPASS");
    expect(state.renders).toBe(2);
    expect(cache.size).toBe(0);
  });

  it.each([
    ["a request with cookies", get("/", { Cookie: "cw_cart=abc" })],
    ["a request with credentials", get("/", { Authorization: "Bearer abc" })],
    ["a POST", new Request(`${URL_BASE}/`, { method: "POST", body: "x=1" })],
    ["a HEAD", new Request(`${URL_BASE}/`, { method: "HEAD" })],
  ])("neither answers nor keeps %s", async (_, request) => {
    const { state, cache, serve } = setup();
    await serve(get("/"), "n1");
    const { outcome } = await serve(request, "n2");
    expect(outcome).toBe("BYPASS");
    expect(state.renders).toBe(2);
    expect(cache.size).toBe(1);
  });

  it("passes by without a nonce to replace", async () => {
    const { state, serve } = setup();
    await serve(get("/"), "");
    expect((await serve(get("/"), "")).outcome).toBe("BYPASS");
    expect(state.renders).toBe(2);
  });

  it.each([
    ["a 404", { status: 404 }],
    ["a private page", { headers: { "Cache-Control": PRIVATE_PAGE } }],
    ["a page without Cache-Control", { headers: { "Cache-Control": "" } }],
    ["a page setting a cookie", { headers: { "Set-Cookie": "cw_toast=x; Path=/" } }],
    ["a data response", { headers: { "Content-Type": "text/x-script" } }],
  ])("does not keep %s", async (_, init) => {
    const { state, cache, serve } = setup();
    const render = (nonce: string) => page(nonce, "x", init);
    expect((await serve(get("/"), "n1", render)).outcome).toBe("BYPASS");
    expect((await serve(get("/"), "n2", render)).outcome).toBe("BYPASS");
    expect(state.renders).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("keeps crawlers' pages apart from browsers'", async () => {
    const { state, serve } = setup();
    await serve(get("/"), "n1");
    expect((await serve(get("/", { "User-Agent": CRAWLER }), "n2")).outcome).toBe("MISS");
    expect((await serve(get("/", { "User-Agent": CRAWLER }), "n3")).outcome).toBe("HIT");
    expect(state.renders).toBe(2);
  });

  it("drops the least recently used pages beyond its size", async () => {
    const pageBytes = 2 * (await page("n", "x").text()).length;
    const { state, cache, serve } = setup({ maxBytes: pageBytes * 4 });
    state.text = "x";
    for (const path of ["/a", "/b", "/c"]) await serve(get(path), "n");
    await serve(get("/a"), "n"); // /a is now the most recent
    await serve(get("/d"), "n");
    await serve(get("/e"), "n"); // over 4 pages: /b goes, then nothing else
    expect(cache.size).toBe(4);
    expect((await serve(get("/b"), "n")).outcome).toBe("MISS");
    expect((await serve(get("/a"), "n")).outcome).toBe("HIT");
  });

  it("keeps nothing of a render that fails", async () => {
    const { cache, serve } = setup();
    const broken = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.error(new Error("render aborted"));
          },
        }),
        { headers: { "Content-Type": "text/html", "Cache-Control": SHARED_PAGE } },
      );
    await expect(serve(get("/"), "n1", broken)).rejects.toThrow("render aborted");
    expect(cache.size).toBe(0);
  });
});

describe("isCacheableResponse", () => {
  it("wants public as a directive, not inside another word", () => {
    const html = (cacheControl: string) =>
      new Response("", { headers: { "Content-Type": "text/html", "Cache-Control": cacheControl } });
    expect(isCacheableResponse(html("public, max-age=0"))).toBe(true);
    expect(isCacheableResponse(html("max-age=0,public"))).toBe(true);
    expect(isCacheableResponse(html("private, max-age=0"))).toBe(false);
    expect(isCacheableResponse(html("x-notpublic"))).toBe(false);
  });
});

describe("withSharedCacheRules", () => {
  const shared = (headers: Record<string, string> = {}) =>
    new Response("page", { headers: { "Cache-Control": SHARED_PAGE, ...headers } });

  it("leaves a shared page public for a request without cookies, varying on Cookie", () => {
    const response = withSharedCacheRules(get("/"), shared());
    expect(response.headers.get("Cache-Control")).toBe(SHARED_PAGE);
    expect(response.headers.get("Vary")).toBe("Cookie");
  });

  it("makes it private for a request with cookies or credentials, or a response setting a cookie", () => {
    const withCookie = withSharedCacheRules(get("/", { Cookie: "cw_cart=1" }), shared());
    expect(withCookie.headers.get("Cache-Control")).toBe(PRIVATE_PAGE);
    expect(withCookie.headers.get("Vary")).toBe("Cookie");
    const withCredentials = withSharedCacheRules(get("/", { Authorization: "Bearer abc" }), shared());
    expect(withCredentials.headers.get("Cache-Control")).toBe(PRIVATE_PAGE);
    const setting = withSharedCacheRules(get("/"), shared({ "Set-Cookie": "cw_toast=1" }));
    expect(setting.headers.get("Cache-Control")).toBe(PRIVATE_PAGE);
  });

  it("leaves other pages alone", () => {
    const response = withSharedCacheRules(
      get("/"),
      new Response("cart", { headers: { "Cache-Control": "private, no-store" } }),
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Vary")).toBeNull();
  });
});
