import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, bodyLimitFor, formTypeOf, pagePathOf, requestGuard } from "./request-guard.ts";

/** The guard in front of a route that answers with the fields it read (as React Router would). */
function guarded() {
  const app = new Hono();
  app.use(requestGuard());
  app.all("*", async (c) => {
    if (c.req.method !== "POST") return c.text("page");
    const form = await c.req.raw.formData();
    return c.json(Object.fromEntries([...form].map(([k, v]) => [k, typeof v === "string" ? v : v.name])));
  });
  return app;
}

const post = (path: string, init: RequestInit = {}) =>
  guarded().request(`http://shop.test${path}`, { method: "POST", ...init });

/** A body that never ends: a server that waited to read it would never answer. */
function endlessBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode("x=".padEnd(1024, "y")));
      return new Promise(() => {}); // …and then nothing more, ever
    },
  });
}

/** A chunked body (no Content-Length) of `bytes` bytes in 8 KB pieces. */
function chunkedBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const size = Math.min(8192, bytes - sent);
      controller.enqueue(new TextEncoder().encode("a".repeat(size)));
      sent += size;
    },
  });
}

const multipart = (boundary: string, fields: Record<string, string>) =>
  `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("")}--${boundary}--\r\n`;

describe("request guard: methods", () => {
  it.each(["GET", "HEAD"])("lets %s through", async (method) => {
    const response = await guarded().request("http://shop.test/cart", { method });
    expect(response.status).toBe(200);
  });

  it.each(["DELETE", "PUT", "PATCH", "OPTIONS", "PROPFIND"])(
    "answers %s with 405 and Allow",
    async (method) => {
      const response = await guarded().request("http://shop.test/contact", {
        method,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: method === "OPTIONS" ? undefined : "name=x",
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
    },
  );
});

describe("request guard: only forms are posted", () => {
  it.each([
    ["JSON", "application/json", '{"email":"a@b.c"}'],
    ["XML", "application/xml", "<email>a@b.c</email>"],
    ["text/plain", "text/plain", "email=a@b.c"],
    ["multipart without a boundary", "multipart/form-data", multipart("b", { email: "a@b.c" })],
    ["multipart with an empty boundary", "multipart/form-data; boundary=", multipart("b", { email: "a" })],
    ["a made-up type", "application/x-www-form-urlencoded-evil", "email=a"],
  ])("refuses %s with 415", async (_, type, body) => {
    const response = await post("/newsletter", { headers: { "Content-Type": type }, body });
    expect(response.status).toBe(415);
  });

  it("refuses a body without any content type with 415", async () => {
    const response = await post("/contact", { body: "" });
    expect(response.status).toBe(415);
  });

  it("answers a multipart body that does not match its boundary with 400", async () => {
    const response = await post("/contact", {
      headers: { "Content-Type": "multipart/form-data; boundary=right" },
      body: multipart("wrong", { email: "a@b.c" }),
    });
    expect(response.status).toBe(400);
  });

  it("answers a truncated multipart body with 400", async () => {
    const response = await post("/contact", {
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
      body: multipart("b", { email: "a@b.c" }).slice(0, 30),
    });
    expect(response.status).toBe(400);
  });

  it("passes url-encoded and multipart forms through whole", async () => {
    const encoded = await post("/contact", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Ada&message=hello%20there",
    });
    expect(await encoded.json()).toEqual({ name: "Ada", message: "hello there" });

    const parts = await post("/contact", {
      headers: { "Content-Type": 'multipart/form-data; boundary="quoted-boundary"' },
      body: multipart("quoted-boundary", { name: "Ada", message: "multi" }),
    });
    expect(parts.status).toBe(200);
    expect(await parts.json()).toEqual({ name: "Ada", message: "multi" });
  });

  it("recognises form types with any case and parameters", () => {
    expect(formTypeOf("Application/X-WWW-Form-Urlencoded; charset=UTF-8")).toBe("urlencoded");
    expect(formTypeOf("multipart/form-data; charset=utf-8; boundary=----x")).toBe("multipart");
    expect(formTypeOf("multipart/form-data; boundary=".padEnd(120, "x"))).toBeNull();
    expect(formTypeOf(undefined)).toBeNull();
  });
});

describe("request guard: body limits per route family", () => {
  const families = [
    { path: "/cart", bytes: 16 * 1024 },
    { path: "/checkout", bytes: 16 * 1024 },
    { path: "/account", bytes: 16 * 1024 },
    { path: "/newsletter", bytes: 16 * 1024 },
    { path: "/contact", bytes: 64 * 1024 },
    { path: "/products/wireless-headphones", bytes: 64 * 1024 },
    { path: "/admin/coupons/new", bytes: 64 * 1024 },
    { path: "/admin/orders/CW-0000000000", bytes: 64 * 1024 },
  ];

  it.each(families)(
    "$path: a declared size over $bytes bytes is refused with 413 before the body is read",
    async ({ path, bytes }) => {
      const response = await post(path, {
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(bytes + 1) },
        body: endlessBody(),
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(await response.text()).toMatch(/^Request too large: .* at most \d+ KB\.$/);
    },
  );

  it.each(families)(
    "$path: a chunked body over $bytes bytes is cut off with 413",
    async ({ path, bytes }) => {
      const response = await post(path, {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: chunkedBody(bytes + 8192),
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
    },
  );

  it.each(families)("$path: a form of exactly $bytes bytes gets through", async ({ path, bytes }) => {
    const body = `f=${"a".repeat(bytes - 2)}`;
    const response = await post(path, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { f: string }).f).toHaveLength(bytes - 2);
  });

  it("uploads keep their own limit, and are refused by their declared size without being read", async () => {
    for (const path of ["/admin/products/new", "/admin/products/12", "/admin/products/import"]) {
      const rule = bodyLimitFor(path);
      expect(rule.streamed).toBe(true);
      const over = await post(path, {
        headers: {
          "Content-Type": "multipart/form-data; boundary=b",
          "Content-Length": String(rule.bytes + 1),
        },
        body: endlessBody(),
        duplex: "half",
      } as RequestInit);
      expect(over.status).toBe(413);
    }
    expect(bodyLimitFor("/admin/products/new").bytes).toBeGreaterThanOrEqual(100 * 1024 * 1024);
    expect(bodyLimitFor("/admin/products/import").bytes).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });

  it("applies a page's limit to its client-side submissions (React Router's .data requests)", async () => {
    expect(pagePathOf("/cart.data")).toBe("/cart");
    expect(pagePathOf("/_root.data")).toBe("/");
    expect(bodyLimitFor("/contact.data")).toBe(bodyLimitFor("/contact"));
    const response = await post("/cart.data", {
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(16 * 1024 + 1),
      },
      body: endlessBody(),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("has a catch-all rule last", () => {
    expect(BODY_LIMITS.at(-1)?.pattern.test("/anything/at/all")).toBe(true);
  });
});

describe("request guard: the payment provider's webhook", () => {
  /** The guard in front of a route that echoes the raw body it received. */
  function webhook() {
    const app = new Hono();
    app.use(requestGuard());
    app.post("*", async (c) => c.text(await c.req.text()));
    return app;
  }
  const send = (init: RequestInit) =>
    webhook().request("http://shop.test/webhooks/stripe", { method: "POST", ...init });

  it("takes JSON, and hands the raw body over untouched (its signature is checked on it)", async () => {
    const body = '{"id":"evt_1",  "type":"payment_intent.succeeded"}';
    const response = await send({ headers: { "Content-Type": "application/json; charset=utf-8" }, body });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it("refuses a form there with 415, and a declared or streamed body over 512 KB with 413", async () => {
    const form = await send({
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(form.status).toBe(415);
    const declared = await send({
      headers: { "Content-Type": "application/json", "Content-Length": String(600 * 1024) },
      body: endlessBody(),
      duplex: "half",
    } as RequestInit);
    expect(declared.status).toBe(413);
    const streamed = await send({
      headers: { "Content-Type": "application/json" },
      body: chunkedBody(600 * 1024),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("is the only route that takes JSON", async () => {
    const other = await post("/checkout", { headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(other.status).toBe(415);
    expect(BODY_LIMITS.filter((rule) => rule.json).map((rule) => rule.pattern.source)).toEqual([
      "^\\/webhooks\\/stripe$",
    ]);
  });
});
