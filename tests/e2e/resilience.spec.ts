import http from "node:http";
import { expect, test } from "./fixtures.ts";

/**
 * A shopper who closes the tab (or a client that drops the connection) while a page streams must
 * not take the shop down: an uncaught stream error used to end the server process.
 */
test("clients that go away mid-response leave the server serving", async ({ baseURL, request }) => {
  const url = new URL(baseURL!);
  const paths = ["/", "/products", "/products?search=wireless", "/products/kestrel-x12-smartphone"];
  for (let i = 0; i < 80; i++) {
    await new Promise<void>((resolve) => {
      const req = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: paths[i % paths.length],
          headers: i % 2 === 0 ? { "accept-encoding": "gzip" } : {},
        },
        (response) => {
          // gone after the first bytes, or after the headers
          response.once("data", () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", () => resolve());
      setTimeout(
        () => {
          req.destroy();
          resolve();
        },
        (i * 7) % 40,
      );
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect((await request.get("/products")).status()).toBe(200);
});
