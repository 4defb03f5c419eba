import { describe, expect, it } from "vitest";
import { signInToSaveUrl, takePendingWishlist } from "./pending-wishlist.ts";

describe("pending wishlist product", () => {
  it("rides in the redirect path to the sign-in page", () => {
    expect(signInToSaveUrl("/products/kestrel-x12", 7)).toBe(
      `/account?redirectTo=${encodeURIComponent("/products/kestrel-x12?addToWishlist=7")}`,
    );
    expect(signInToSaveUrl("/products?brand=kestrel&page=2", 12)).toBe(
      `/account?redirectTo=${encodeURIComponent("/products?brand=kestrel&page=2&addToWishlist=12")}`,
    );
    // an off-site "back to" is never carried
    expect(signInToSaveUrl("//evil.example/x", 3)).toBe(
      `/account?redirectTo=${encodeURIComponent("/?addToWishlist=3")}`,
    );
  });

  it("is taken out of the path again after signing in", () => {
    expect(takePendingWishlist("/products/kestrel-x12?addToWishlist=7")).toEqual({
      to: "/products/kestrel-x12",
      productId: 7,
    });
    expect(takePendingWishlist("/products?brand=kestrel&addToWishlist=12&page=2")).toEqual({
      to: "/products?brand=kestrel&page=2",
      productId: 12,
    });
    expect(takePendingWishlist("/account/orders")).toEqual({ to: "/account/orders", productId: null });
  });

  it("ignores garbage ids and unsafe paths", () => {
    for (const raw of ["abc", "0", "-1", "1.5", "99999999999999999999", ""]) {
      expect(takePendingWishlist(`/products/x?addToWishlist=${raw}`)).toEqual({
        to: "/products/x",
        productId: null,
      });
    }
    expect(takePendingWishlist("https://evil.example/?addToWishlist=1")).toEqual({
      to: "/",
      productId: null,
    });
  });
});
