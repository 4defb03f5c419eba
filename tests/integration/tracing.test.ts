import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { type SpawnedShop, spawnShop } from "../helpers/spawned-shop.ts";

/**
 * Tracing (decision 027): the production server with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a
 * collector this test runs (an HTTP server taking OTLP/HTTP JSON at /v1/traces). A request's span
 * continues the caller's traceparent and is named by its route pattern; the statements it ran and
 * the payment gateway's call are its children, on both engines.
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
const SERVER = 2;
const CLIENT = 3;

/** A stand-in collector: every span it receives, and a wait for spans matching a condition. */
class Collector {
  readonly spans: OtlpSpan[] = [];
  private waiters: { until: (spans: OtlpSpan[]) => boolean; resolve: () => void }[] = [];
  readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.headers["content-type"]?.startsWith("application/json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        this.waiters = this.waiters.filter((waiter) => {
          if (!waiter.until(this.spans)) return true;
          waiter.resolve();
          return false;
        });
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });

  async listen(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once the spans received so far satisfy `until`. */
  received(until: (spans: OtlpSpan[]) => boolean): Promise<void> {
    if (until(this.spans)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ until, resolve }));
  }
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

describe.each(ENGINES)("traces exported over OTLP/HTTP, on %s", (engine) => {
  let t: TestDatabase;
  let collector: Collector;
  let shop: SpawnedShop;
  let productId: number;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    productId = await insertProduct(t.db, { name: "Traced Teapot", stock: 5, priceCents: 2_500 });
    collector = new Collector();
    const endpoint = await collector.listen();
    shop = await spawnShop(
      { DATABASE_URL: t.url, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "50" },
      t.dir,
    );
    await shop.logged("Cartwheel is ready");
    await shop.logged("Cartwheel is listening");
  });
  afterAll(async () => {
    await shop?.stop();
    collector?.server.close();
    await t?.destroy();
  });

  it("a page's request span continues the caller's trace, with its statements as children", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const page = await fetch(`${shop.url}/products`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01`, cookie: "cw_trace_test=1" },
    });
    expect(page.status).toBe(200);
    const isRequest = (span: OtlpSpan) => span.traceId === traceId && span.name === "GET /products";
    await collector.received((spans) => {
      const request = spans.find(isRequest);
      return Boolean(request && spans.some((span) => span.parentSpanId === request.spanId));
    });
    const request = collector.spans.find(isRequest)!;
    expect(request.kind).toBe(SERVER);
    expect(request.parentSpanId).toBe(callerSpan);
    expect(attribute(request, "http.route")).toBe("/products");
    expect(Number(attribute(request, "http.response.status_code"))).toBe(200);
    const statements = collector.spans.filter((span) => span.parentSpanId === request.spanId);
    const select = statements.find((span) => span.name === "select");
    expect(select?.kind).toBe(CLIENT);
    expect(attribute(select!, "db.system.name")).toBe(engine === "postgres" ? "postgresql" : "sqlite");
    expect(String(attribute(select!, "db.query.text"))).toMatch(/^select /i);
  });

  it("a payment gateway call is a span of the request that made it", async () => {
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: shop.url };
    const added = await fetch(`${shop.url}/cart`, {
      method: "POST",
      headers,
      body: new URLSearchParams({ intent: "add", productId: String(productId), quantity: "1" }),
      redirect: "manual",
    });
    const cookie = added.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const step = (fields: Record<string, string>) =>
      fetch(`${shop.url}/checkout`, {
        method: "POST",
        headers: { ...headers, cookie },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
    const shipping = await step({
      intent: "shipping",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@trace.example",
      phone: "+1 555 0100",
      address: "1 Analytical Way",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
      shippingMethod: "standard",
    });
    expect(shipping.headers.get("location")).toBe("/checkout?step=payment");
    const payment = await step({
      intent: "payment",
      cardNumber: "4242 4242 4242 4242",
      cardName: "Ada Lovelace",
      expiryDate: "12/30",
      cvv: "123",
    });
    expect(payment.headers.get("location")).toBe("/checkout?step=review");
    await collector.received((spans) => {
      const call = spans.find((span) => span.name === "payment.tokenize");
      return Boolean(call && spans.some((span) => span.spanId === call.parentSpanId));
    });
    const call = collector.spans.find((span) => span.name === "payment.tokenize")!;
    expect(call.kind).toBe(CLIENT);
    expect(attribute(call, "payment.gateway")).toBe("test");
    const parent = collector.spans.find((span) => span.spanId === call.parentSpanId);
    expect(parent?.name).toBe("POST /checkout");
    expect(parent?.kind).toBe(SERVER);
  });
});
