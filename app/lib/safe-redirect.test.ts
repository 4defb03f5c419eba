import { describe, expect, it } from "vitest";
import { MAX_REDIRECT_PATH_LENGTH, safeRedirectPath, signInPath } from "./safe-redirect.ts";

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

describe("signInPath", () => {
  it("comes back to a same-site page, query and all", () => {
    expect(signInPath("/account/orders?page=2")).toBe(
      `/account?redirectTo=${encodeURIComponent("/account/orders?page=2")}`,
    );
    expect(signInPath("/products/kestrel#reviews")).toBe(
      "/account?redirectTo=%2Fproducts%2Fkestrel%23reviews",
    );
  });

  it("drops a target that is not a safe same-site path", () => {
    for (const target of ["//evil.com", "https://evil.com/x", "/\\evil.com", "javascript:alert(1)", ""]) {
      expect(signInPath(target)).toBe("/account");
    }
  });

  it("keeps the Location short whatever the requested URL: the query goes first, then the path", () => {
    const longQuery = `/account/orders?q=${"a".repeat(8_000)}`;
    expect(signInPath(longQuery)).toBe("/account?redirectTo=%2Faccount%2Forders");
    const encodesLong = `/admin?q=${"ü".repeat(200)}`; // 402 characters, 1 800 once encoded
    expect(signInPath(encodesLong)).toBe("/account?redirectTo=%2Fadmin");
    expect(signInPath(`/${"x".repeat(8_000)}`)).toBe("/account");
    for (const target of [longQuery, encodesLong, `/${"ü".repeat(400)}`]) {
      expect(signInPath(target).length).toBeLessThanOrEqual(
        "/account?redirectTo=".length + MAX_REDIRECT_PATH_LENGTH,
      );
    }
  });

  it("does not send the sign-in page back to itself", () => {
    expect(signInPath("/account")).toBe("/account");
  });
});

describe("safeRedirectPath: length", () => {
  it("falls back for a path over the limit", () => {
    expect(safeRedirectPath(`/products?q=${"a".repeat(MAX_REDIRECT_PATH_LENGTH)}`, "/cart")).toBe("/cart");
    expect(safeRedirectPath(`/products?q=${"a".repeat(100)}`, "/cart")).toBe(
      `/products?q=${"a".repeat(100)}`,
    );
  });
});
