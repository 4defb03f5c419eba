import { describe, expect, it } from "vitest";
import { pagePath } from "./page-url.ts";

describe("pagePath", () => {
  it.each([
    ["http://shop.test/account/orders", "/account/orders"],
    ["http://shop.test/account/orders.data?_routes=routes%2Faccount", "/account/orders"],
    ["http://shop.test/account.data?redirectTo=%2Fcart&_routes=x", "/account?redirectTo=%2Fcart"],
    ["http://shop.test/_root.data", "/"],
    ["http://shop.test/products?page=2", "/products?page=2"],
  ])("%s → %s", (url, expected) => {
    expect(pagePath(new Request(url))).toBe(expected);
  });
});
