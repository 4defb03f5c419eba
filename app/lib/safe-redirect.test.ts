import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect.ts";

describe("safeRedirectPath", () => {
  it.each([
    "/",
    "/products",
    "/products?category=home&search=a%20b",
    "/products/kestrel#reviews",
    "/a/b/../c",
  ])("keeps the same-site path %j", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    ["//evil.com", "protocol-relative"],
    ["https://evil.com", "absolute"],
    ["http:/evil.com", "scheme"],
    ["/\\evil.com", "backslash"],
    ["/\t/evil.com", "tab (browsers drop it, leaving //evil.com)"],
    ["/\n/evil.com", "newline"],
    ["/\r\n/evil.com", "CRLF"],
    ["\\\\evil.com", "double backslash"],
    ["javascript:alert(1)", "javascript:"],
    ["products", "relative"],
    ["", "empty"],
    [" /products", "leading space"],
  ])("falls back for %j (%s)", (to) => {
    expect(safeRedirectPath(to)).toBe("/");
    expect(safeRedirectPath(to, "/account")).toBe("/account");
  });

  it("falls back for null, undefined and uploaded files", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined, "/cart")).toBe("/cart");
    expect(safeRedirectPath(new File(["x"], "x.txt"))).toBe("/");
  });

  it("every accepted path resolves to the same origin", () => {
    const candidates = ["/ok", "/%2F%2Fevil.com", "/.//evil.com", "/\u00a0/evil.com"];
    for (const to of candidates) {
      const result = safeRedirectPath(to);
      expect(new URL(result, "https://shop.example").origin).toBe("https://shop.example");
    }
  });
});
