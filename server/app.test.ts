import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Kysely } from "kysely";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "../app/db/schema.ts";
import { ensureBuild } from "../tests/helpers/build.ts";
import { createServerApp } from "./app.ts";
import type { AppEntry } from "./app-entry.ts";

/**
 * The real production build behind the real Hono app, driven in-process with app.request().
 * The build keeps its services (database, file store) in module state, so this is one file.
 */

const ENV_KEYS = [
  "DATABASE_URL",
  "FILE_STORE_URL",
  "MAIL_URL",
  "DATA_DIR",
  "SESSION_SECRET",
  "PUBLIC_URL",
  "NODE_ENV",
  "SEED_ON_EMPTY",
];

let dir: string;
let clientDir: string;
let savedEnv: Record<string, string | undefined>;
let entry: AppEntry;
let app: ReturnType<typeof createServerApp>;
let db: Kysely<DB>;

beforeAll(async () => {
  const buildDir = ensureBuild();
  clientDir = join(buildDir, "client");
  savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  dir = mkdtempSync(join(tmpdir(), "cartwheel-server-"));
  Object.assign(process.env, {
    NODE_ENV: "test",
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, "cartwheel.db")}`,
    FILE_STORE_URL: `file:${join(dir, "uploads")}`,
    MAIL_URL: `file:${join(dir, "mail")}`,
    SEED_ON_EMPTY: "true",
  });
  delete process.env.SESSION_SECRET;
  delete process.env.PUBLIC_URL;

  const build = (await import(pathToFileURL(join(buildDir, "server", "index.js")).href)) as ServerBuild;
  entry = build.entry.module as unknown as AppEntry;
  const services = (await entry.getServices()) as unknown as { db: Kysely<DB> };
  db = services.db;
  app = createServerApp({
    build,
    entry,
    logger: pino({ level: "silent" }),
    clientDir: join(buildDir, "client"),
  });
});

afterAll(async () => {
  await entry?.closeServices();
  for (const [key, value] of Object.entries(savedEnv ?? {})) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The "name=value" part of each Set-Cookie, ready to send back as a Cookie header. */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

describe("GET / (home page)", () => {
  let response: Response;
  let html: string;
  beforeAll(async () => {
    response = await app.request("/");
    html = await response.text();
  });

  it("renders the home page as HTML", () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    for (const text of ["Featured Products", "New Arrivals", "Best Sellers", "Up to 50% off"]) {
      expect(html).toContain(text);
    }
    // the seeded products are on it
    expect(html).toContain("Solace Radiance Skincare Set");
  });

  it("has a canonical link and a meta description", () => {
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:3000\/"\s*\/?>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(html).toMatch(/<title>Cartwheel<\/title>/);
  });

  it("sends a CSP whose script-src needs this response's nonce, and the scripts carry it", () => {
    const csp = response.headers.get("content-security-policy");
    expect(csp).toBeTruthy();
    const policy = directives(csp!);
    const scriptSrc = policy.get("script-src")!;
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    const nonceToken = scriptSrc.find((v) => v.startsWith("'nonce-"));
    expect(nonceToken).toMatch(/^'nonce-[A-Za-z0-9+/=_-]{16,}'$/);
    const nonce = nonceToken!.slice("'nonce-".length, -1);

    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
  });

  it("uses a fresh nonce per response", async () => {
    const nonceOf = (r: Response) =>
      /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")?.[1];
    const other = await app.request("/");
    await other.text();
    expect(nonceOf(other)).toBeTruthy();
    expect(nonceOf(other)).not.toBe(nonceOf(response));
  });

  it("sends the other security headers and a request id", () => {
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("strict-transport-security")).toContain("max-age=31536000");
    expect(response.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
  });

  it("lets a route's stricter header win over the global one (the reset link's token stays out of Referer to other sites)", async () => {
    const r = await app.request("/reset-password?token=secret-token");
    await r.text();
    // same-origin, not no-referrer: a form posted without JavaScript must carry its Origin
    expect(r.headers.get("referrer-policy")).toBe("same-origin");
    // the other global headers are still there
    expect(r.headers.get("content-security-policy")).toContain("script-src");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("keeps a request id the caller sends", async () => {
    const r = await app.request("/healthz", { headers: { "X-Request-Id": "trace-abc-123" } });
    expect(r.headers.get("x-request-id")).toBe("trace-abc-123");
  });

  it("compresses for clients that accept gzip", async () => {
    const r = await app.request("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-encoding")).toBe("gzip");
    const body = gunzipSync(Buffer.from(await r.arrayBuffer())).toString("utf8");
    expect(body).toContain("Featured Products");
  });
});

describe("contract with React Router's document format (decision 008)", () => {
  // app/infra/deferred-hydration only recognises <link rel="modulepreload"> tags and one module
  // script of `import * as routeN from "…"` lines. When a React Router release changes that
  // format, the rewrite passes the page through untouched (the shop still works, hydrating
  // early) — this fails loudly instead. The rewrite runs in production only.
  let html: string;
  beforeAll(async () => {
    vi.stubEnv("NODE_ENV", "production");
    try {
      html = await (await app.request("/", { headers: { Cookie: "cw_contract=1" } })).text();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("defers hydration on React Router's real document: no modulepreload left, the routes imported inside boot", () => {
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    const script = /<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(script).toContain("const boot = async () => {");
    expect(script).toMatch(/await Promise\.all\(\[import\("\/assets\/root-[^"]+\.js"\)/);
    expect(script).not.toMatch(/^\s*import \* as route\d+ from/m);
    expect(script).toContain("window.__reactRouterRouteModules");
    expect(script).toMatch(/import\("\/assets\/entry\.client-[^"]+\.js"\)/);
  });
});

describe("page cache (decision 010)", () => {
  const nonceOf = (r: Response) =>
    /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  const PRODUCT = "/products/kestrel-x12-smartphone";

  it("answers a second visitor without cookies from memory, with that response's own nonce", async () => {
    const first = await app.request(PRODUCT);
    const firstHtml = await first.text();
    await new Promise((resolve) => setImmediate(resolve));
    const second = await app.request(PRODUCT);
    const secondHtml = await second.text();
    expect(first.headers.get("x-cache")).toMatch(/^(MISS|HIT)$/);
    expect(second.headers.get("x-cache")).toBe("HIT");
    const nonce = nonceOf(second);
    expect(nonce).not.toBe(nonceOf(first));
    const scripts = secondHtml.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(secondHtml).toBe(firstHtml.replaceAll(nonceOf(first), nonce));
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60");
    expect(second.headers.get("vary")).toContain("Cookie");
  });

  it("renders afresh once the data changed, with the change", async () => {
    await (await app.request(PRODUCT)).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await app.request(PRODUCT)).headers.get("x-cache")).toBe("HIT");
    const product = await db
      .selectFrom("products")
      .select(["id", "name"])
      .where("slug", "=", "kestrel-x12-smartphone")
      .executeTakeFirstOrThrow();
    try {
      await db
        .updateTable("products")
        .set({ name: "Kestrel X12 Renamed" })
        .where("id", "=", product.id)
        .execute();
      const after = await app.request(PRODUCT);
      expect(after.headers.get("x-cache")).toBe("MISS");
      expect(await after.text()).toContain("Kestrel X12 Renamed");
    } finally {
      await db.updateTable("products").set({ name: product.name }).where("id", "=", product.id).execute();
    }
  });

  it("renders for a visitor with cookies, privately, and never answers them from memory", async () => {
    await (await app.request(PRODUCT)).text();
    const r = await app.request(PRODUCT, { headers: { Cookie: "cw_cart=anything" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-cache")).toBeNull();
    expect(r.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    expect(r.headers.get("vary")).toContain("Cookie");
  });

  it("keeps no page of a visitor's own (cart, checkout) and no error page", async () => {
    for (const path of ["/cart", "/nope"]) {
      await (await app.request(path)).text();
      const again = await app.request(path);
      expect(again.headers.get("x-cache")).toBeNull();
      expect(again.headers.get("cache-control") ?? "").not.toContain("public");
    }
  });
});

describe("health, errors and static files", () => {
  it("GET /healthz answers ok with the database up, uncached", async () => {
    const r = await app.request("/healthz");
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, database: "up" });
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("GET of an unknown page is a 404 page", async () => {
    const r = await app.request("/nope");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await r.text()).toContain("Page Not Found");
  });

  it("serves hashed assets with a one-year immutable cache", async () => {
    const asset = readdirSync(join(clientDir, "assets")).find((f) => f.endsWith(".js"));
    expect(asset).toBeDefined();
    const r = await app.request(`/assets/${asset}`);
    expect(r.status).toBe(200);
    const cache = r.headers.get("cache-control") ?? "";
    expect(cache).toContain("immutable");
    expect(cache).toContain("max-age=31536000");
    expect(r.headers.get("content-type")).toMatch(/javascript/);
  });

  it("serves other public files with a one-hour cache", async () => {
    const r = await app.request("/favicon.svg");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("pages keep their own cache policy and a request id", async () => {
    const r = await app.request("/nope");
    expect(r.headers.get("cache-control") ?? "").not.toContain("max-age=3600");
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });

  it("a missing asset is a 404, not a cached page", async () => {
    const r = await app.request("/assets/does-not-exist-abc123.js");
    expect(r.status).toBe(404);
    expect(r.headers.get("cache-control") ?? "").not.toContain("immutable");
  });

  it("serves a seeded product image as immutable WebP", async () => {
    const image = await db.selectFrom("productImages").select("key").orderBy("id").executeTakeFirstOrThrow();
    const r = await app.request(`/images/${image.key}-320.webp`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/webp");
    const cache = r.headers.get("cache-control") ?? "";
    expect(cache).toContain("immutable");
    expect(cache).toContain("max-age=31536000");
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
  });

  it("a missing image is a 404", async () => {
    const r = await app.request("/images/products/nothing-here-320.webp");
    expect(r.status).toBe(404);
  });

  it.each([
    "/images/../../etc/passwd",
    "/images/..%2F..%2Fetc%2Fpasswd",
    "/images/products/..%2F..%2F..%2F..%2Fetc%2Fpasswd.webp",
    "/images/%2e%2e/%2e%2e/etc/passwd.webp",
    "/assets/..%2F..%2F..%2Fpackage.json",
  ])("does not escape its directories: %s", async (path) => {
    const r = await app.request(path);
    expect(r.status).toBe(404);
    const body = await r.text();
    expect(body).not.toContain("root:");
    expect(body).not.toContain('"devDependencies"');
  });
});

describe("POST /newsletter (without JavaScript)", () => {
  const post = (email: string, extra: Record<string, string> = {}) =>
    app.request("/newsletter", { method: "POST", body: new URLSearchParams({ email, ...extra }) });

  it("answers an invalid address with a 400 page showing the message", async () => {
    const r = await post("not-an-email");
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("Please enter a valid e-mail address.");
    expect(r.headers.getSetCookie().join()).not.toContain("cw_toast");
  });

  it("subscribes a valid address and redirects back with a toast cookie that shows once", async () => {
    const r = await post("Visitor@Example.com", { redirectTo: "/" });
    expect([302, 303]).toContain(r.status);
    expect(r.headers.get("location")).toBe("/");
    const cookie = cookieHeader(r);
    expect(cookie).toMatch(/^cw_toast=/);
    expect(r.headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    expect(r.headers.getSetCookie()[0]).toMatch(/SameSite=Lax/i);

    const rows = await db.selectFrom("newsletterSubscribers").select("email").execute();
    expect(rows.map((row) => row.email)).toContain("visitor@example.com");

    const page = await app.request("/", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Thanks for subscribing! Watch your inbox for our best deals.");
    // the flash is consumed: the page clears the cookie
    expect(page.headers.getSetCookie().join()).toMatch(
      /cw_toast=;|cw_toast=[^;]*;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/i,
    );
  });

  it("tells a returning subscriber they are already subscribed", async () => {
    await post("repeat@example.com");
    const r = await post("  REPEAT@example.com ");
    expect([302, 303]).toContain(r.status);
    const page = await app.request("/", { headers: { Cookie: cookieHeader(r) } });
    const html = await page.text();
    expect(html).toContain("already subscribed");
    expect(html).not.toContain("Thanks for subscribing!");
  });

  it("never redirects off-site", async () => {
    for (const redirectTo of ["//evil.com", "https://evil.com/x", "/\\evil.com", "/\t/evil.com"]) {
      const r = await post(`offsite-${Math.random().toString(36).slice(2)}@example.com`, { redirectTo });
      expect(r.headers.get("location"), redirectTo).toBe("/");
    }
  });

  it("ignores a forged toast cookie", async () => {
    const page = await app.request("/", {
      headers: { Cookie: "cw_toast=eyJ0b2FzdCI6eyJtZXNzYWdlIjoiaGFja2VkIn19" },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("hacked");
  });
});
