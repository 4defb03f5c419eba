import { once } from "node:events";
import { connect } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { LINGER_LIMITS } from "./lingering-close.ts";
import { BODY_LIMITS, bodyLimitFor, formTypeOf, pagePathOf, requestGuard } from "./request-guard.ts";

/** The guard in front of a route that answers with the fields it read (as React Router would). */
function guarded(guard = requestGuard()) {
  const app = new Hono();
  app.use(guard);
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
    for (const path of [
      "/admin/products/new",
      "/admin/products/12",
      "/admin/products/import",
      "/admin/customer-groups/3/import",
      "/admin/customer-groups/3/prices/import",
    ]) {
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
    // a customer group's page posts small forms: only its CSV import streams
    expect(bodyLimitFor("/admin/customer-groups/3").streamed).toBeUndefined();
    expect(bodyLimitFor("/admin/customer-groups/3/import.data").streamed).toBe(true);
    expect(bodyLimitFor("/admin/customer-groups/3/prices").streamed).toBeUndefined();
    expect(bodyLimitFor("/admin/customer-groups/3/prices/import.data").streamed).toBe(true);
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

  it("and the REST API are the only routes that take JSON", async () => {
    const other = await post("/checkout", { headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(other.status).toBe(415);
    expect(BODY_LIMITS.filter((rule) => rule.json).map((rule) => rule.pattern.source)).toEqual([
      "^\\/webhooks\\/stripe$",
      "^\\/api\\/v1\\/admin\\/products$",
      "^\\/api\\/v1\\/",
    ]);
  });

  it("lets JSON through to the REST API, and refuses a form there with 415", async () => {
    const app = new Hono();
    app.use(requestGuard());
    app.post("*", async (c) => c.text(await c.req.text()));
    const url = "http://shop.test/api/v1/admin/orders/CW-1/shipment";
    const json = await app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"carrier":"ups"}',
    });
    expect([json.status, await json.text()]).toEqual([200, '{"carrier":"ups"}']);
    const form = await app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "carrier=ups",
    });
    expect(form.status).toBe(415);
  });

  it("lets DELETE and a CORS preflight through to the REST API only, and without a body", async () => {
    const app = new Hono();
    app.use(requestGuard());
    app.all("*", (c) => c.text(`${c.req.method} passed`));
    const api = "http://shop.test/api/v1/store/carts/x/code";
    for (const method of ["DELETE", "OPTIONS"]) {
      const passed = await app.request(api, { method });
      expect([passed.status, await passed.text()]).toEqual([200, `${method} passed`]);
      const page = await app.request("http://shop.test/cart", { method });
      expect(page.status).toBe(405);
      expect(page.headers.get("Allow")).toBe("GET, HEAD, POST");
    }
    // as a client sends one: its length declared (or chunked)
    const withBody = await app.request(api, {
      method: "DELETE",
      headers: { "Content-Length": "100" },
      body: "x".repeat(100),
    });
    expect(withBody.status).toBe(400);
    const put = await app.request(api, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
  });
});

describe("request guard: a 413 on a real connection is read by a client still sending", () => {
  const MB = 1024 * 1024;
  const servers: ServerType[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      if ("closeAllConnections" in server) server.closeAllConnections();
      server.close();
    }
  });

  /** The guarded app served as server/main.ts serves the shop (@hono/node-server on Node's http). */
  async function listen(guard = requestGuard()): Promise<number> {
    const server = serve({ fetch: guarded(guard).fetch, port: 0, hostname: "127.0.0.1" });
    servers.push(server);
    await once(server, "listening");
    return (server.address() as { port: number }).port;
  }

  interface Exchange {
    /** everything read from the connection, up to its end */
    received: string;
    /** body bytes handed to the socket */
    written: number;
    /** how the connection failed for the client (EPIPE, ECONNRESET), if it did */
    error: string | null;
  }

  const requestHead = (path: string, body: { chunked: true } | { length: number }) =>
    `POST ${path} HTTP/1.1\r\nHost: shop.test\r\nContent-Type: ${
      path.startsWith("/admin/products/")
        ? "multipart/form-data; boundary=b"
        : "application/x-www-form-urlencoded"
    }\r\n${"chunked" in body ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`}\r\n\r\n`;
  const piece = Buffer.alloc(64 * 1024, "a");
  const framed = (chunked: boolean) =>
    chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      : piece;

  /**
   * A client that writes its whole request (`size` bytes of body, chunked or with a Content-Length)
   * and reads nothing before all of it is written, then reads the answer to the end of the
   * connection — as scripts and slow uploads do. `pauseMs` between 64 KB pieces makes it a slow one.
   */
  function sendAllThenRead(
    port: number,
    path: string,
    size: number,
    { chunked, pauseMs = 0 }: { chunked: boolean; pauseMs?: number },
  ): Promise<Exchange> {
    return new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      const exchange: Exchange = { received: "", written: 0, error: null };
      socket.pause();
      socket.on("data", (data) => {
        exchange.received += data.toString("latin1");
      });
      socket.on("error", (error: NodeJS.ErrnoException) => {
        exchange.error = error.code ?? error.message;
      });
      socket.on("close", () => resolve(exchange));
      socket.write(requestHead(path, chunked ? { chunked: true } : { length: size }));
      const pump = () => {
        while (exchange.written < size && !exchange.error) {
          exchange.written += piece.length;
          const more = socket.write(framed(chunked));
          if (pauseMs > 0) return void setTimeout(pump, pauseMs);
          if (!more) return void socket.once("drain", pump);
        }
        socket.write(chunked ? "0\r\n\r\n" : "", () => socket.resume());
      };
      pump();
    });
  }

  /**
   * A client that never stops sending — not even once the server has answered and ended its side
   * (half-open) — and reads what comes meanwhile; resolves once the connection is closed.
   */
  function sendForever(
    port: number,
    path: string,
    body: { chunked: true } | { length: number },
    pace?: { bytes: number; everyMs: number },
  ): Promise<Exchange> {
    return new Promise((resolve) => {
      const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
      const exchange: Exchange = { received: "", written: 0, error: null };
      let timer: NodeJS.Timeout | undefined;
      socket.on("data", (data) => {
        exchange.received += data.toString("latin1");
      });
      socket.on("error", (error: NodeJS.ErrnoException) => {
        exchange.error = error.code ?? error.message;
      });
      socket.on("close", () => {
        clearInterval(timer);
        resolve(exchange);
      });
      const chunked = "chunked" in body;
      socket.write(requestHead(path, body));
      if (pace) {
        timer = setInterval(() => {
          if (socket.destroyed) return;
          const bytes = Buffer.alloc(pace.bytes, "a");
          exchange.written += bytes.length;
          socket.write(
            chunked
              ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
              : bytes,
          );
        }, pace.everyMs);
        return;
      }
      const pump = () => {
        while (!socket.destroyed) {
          exchange.written += piece.length;
          if (!socket.write(framed(chunked))) return void socket.once("drain", pump);
        }
      };
      pump();
    });
  }

  /** The status, headers and body of the first answer on the connection. */
  function answerOf(received: string) {
    const headEnd = received.indexOf("\r\n\r\n");
    const [statusLine = "", ...lines] = received.slice(0, Math.max(headEnd, 0)).split("\r\n");
    const headers = new Map(
      lines.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    );
    const length = Number(headers.get("content-length") ?? 0);
    return {
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: headEnd < 0 ? "" : received.slice(headEnd + 4, headEnd + 4 + length),
    };
  }

  it.each([
    { path: "/contact", chunked: false, pauseMs: 0, what: "this form is at most 64 KB" },
    { path: "/contact", chunked: true, pauseMs: 0, what: "this form is at most 64 KB" },
    { path: "/cart", chunked: true, pauseMs: 0, what: "this form is at most 16 KB" },
    // an upload route (refused by its declared size), sent slowly: 16 MB in about 1.5 s
    {
      path: "/admin/products/import",
      chunked: false,
      pauseMs: 5,
      what: "a CSV import: at most 5 MB is at most 5 MB",
    },
  ])(
    "$path, 16 MB (chunked: $chunked, $pauseMs ms between 64 KB): the whole body is sent, then the 413 is read, and the connection ends cleanly",
    async ({ path, chunked, pauseMs, what }) => {
      const port = await listen();
      const exchange = await sendAllThenRead(port, path, 16 * MB, { chunked, pauseMs });
      expect(exchange.error).toBeNull();
      expect(exchange.written).toBe(16 * MB);
      const answer = answerOf(exchange.received);
      expect(answer.status).toBe(413);
      expect(answer.body).toBe(`Request too large: ${what}.`);
      expect(answer.headers.get("connection")).toBe("close");
    },
  );

  it("an upload refused by its declared size: the 413 is read while sending; an endless sender is cut off after the bound", async () => {
    const port = await listen();
    const rule = bodyLimitFor("/admin/products/new");
    const exchange = await sendForever(port, "/admin/products/new", { length: rule.bytes + 1 });
    const answer = answerOf(exchange.received);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe(
      "Request too large: a product form: at most 10 images of 10 MB each is at most 102 MB.",
    );
    // closed once about 32 MB more were read (what the kernels' buffers held besides), far
    // short of the declared 102 MB
    expect(exchange.written).toBeGreaterThan(LINGER_LIMITS.bytes);
    expect(exchange.written).toBeLessThan(LINGER_LIMITS.bytes + 24 * MB);
  });

  it("a chunked body that never ends is cut off after the bound (the bytes read)", async () => {
    const port = await listen();
    const exchange = await sendForever(port, "/contact", { chunked: true });
    expect(answerOf(exchange.received).status).toBe(413);
    expect(exchange.written).toBeLessThan(LINGER_LIMITS.bytes + 24 * MB);
  });

  it("a slow sender that never ends is cut off after the bound (the time)", async () => {
    // the time bound made short for the test (the byte bound is never reached: 50 KB a second)
    const port = await listen(requestGuard({ linger: { ms: 300, bytes: LINGER_LIMITS.bytes } }));
    // declares 1 GB (refused at once), then sends 1 KB every 20 ms for ever
    const exchange = await sendForever(port, "/contact", { length: 1024 * MB }, { bytes: 1024, everyMs: 20 });
    expect(answerOf(exchange.received).status).toBe(413);
    expect(answerOf(exchange.received).body).toBe("Request too large: this form is at most 64 KB.");
    expect(exchange.written).toBeGreaterThan(0);
  });

  it("keeps reading for at most 5 s and 32 MB by default", () => {
    expect(LINGER_LIMITS).toEqual({ ms: 5_000, bytes: 32 * MB });
  });
});
