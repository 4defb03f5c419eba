import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../lib/result.ts";
import { cartActionSchema, cartRefusalMessage } from "./cart-action.server.ts";
import { addToCartToast, CART_MESSAGES, updateCartItemToast } from "./messages.server.ts";

/** The cart form as POST /cart reads it (parseForm: Conform + the schema, the text as posted). */
function parseCartAction(form: FormData) {
  const submission = parseWithZod(form, { schema: cartActionSchema, disableAutoCoercion: true });
  return submission.status === "success"
    ? { ok: true as const, action: submission.value }
    : { ok: false as const, message: cartRefusalMessage(submission.error) };
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

/** What an add without a gift card's recipient reads as. */
const NO_RECIPIENT = { recipientEmail: null, recipientName: null, giftMessage: null };

describe("parseCartAction", () => {
  it("reads an add from a product card, quantity 1 by default", () => {
    expect(parseCartAction(form({ intent: "add", productId: "12" }))).toEqual({
      ok: true,
      action: { intent: "add", productId: 12, quantity: 1, ...NO_RECIPIENT },
    });
    expect(parseCartAction(form({ intent: "add", productId: "12", quantity: "3", redirectTo: "/" }))).toEqual(
      {
        ok: true,
        action: { intent: "add", productId: 12, quantity: 3, redirectTo: "/", ...NO_RECIPIENT },
      },
    );
  });

  it("never reads a price (or any other extra field) from the form", () => {
    const parsed = parseCartAction(
      form({
        intent: "add",
        productId: "12",
        quantity: "2",
        price: "0.01",
        priceCents: "1",
        unitPriceCents: "1",
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      action: { intent: "add", productId: 12, quantity: 2, ...NO_RECIPIENT },
    });
  });

  it("reads a gift card's recipient: the e-mail lower-cased, empty fields as none; a bad e-mail has its message", () => {
    expect(
      parseCartAction(
        form({
          intent: "add",
          productId: "7",
          recipientEmail: " Friend@Example.COM ",
          recipientName: " Friend ",
          giftMessage: "",
        }),
      ),
    ).toEqual({
      ok: true,
      action: {
        intent: "add",
        productId: 7,
        quantity: 1,
        recipientEmail: "friend@example.com",
        recipientName: "Friend",
        giftMessage: null,
      },
    });
    expect(
      parseCartAction(form({ intent: "buy-now", productId: "7", recipientEmail: "not an e-mail" })),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidRecipient,
    });
    expect(parseCartAction(form({ intent: "add", productId: "7", giftMessage: "x".repeat(501) }))).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidRequest,
    });
  });

  it.each(["0", "-1", "1000", "1.5", "1e2", "abc", "", " ", "0x10", "99999999999"])(
    "rejects the add quantity %j with the quantity message",
    (quantity) => {
      for (const intent of ["add", "buy-now"]) {
        expect(parseCartAction(form({ intent, productId: "12", quantity }))).toEqual({
          ok: false,
          message: "Please enter a quantity between 1 and 999.",
        });
      }
    },
  );

  it("accepts 1 and 999 as add quantities", () => {
    for (const quantity of ["1", "999", " 7 "]) {
      const parsed = parseCartAction(form({ intent: "add", productId: "1", quantity }));
      expect(parsed.ok).toBe(true);
    }
  });

  it("lets update carry 0 or a negative quantity (which removes), within ±999", () => {
    for (const [quantity, expected] of [
      ["0", 0],
      ["-3", -3],
      ["5", 5],
      ["999", 999],
    ] as const) {
      expect(parseCartAction(form({ intent: "update", productId: "4", quantity }))).toEqual({
        ok: true,
        action: { intent: "update", productId: 4, quantity: expected },
      });
    }
    for (const quantity of ["", "1000", "-1000", "2.5", "many"]) {
      expect(parseCartAction(form({ intent: "update", productId: "4", quantity }))).toEqual({
        ok: false,
        message: CART_MESSAGES.invalidQuantity,
      });
    }
    // update has no default quantity
    expect(parseCartAction(form({ intent: "update", productId: "4" }))).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidQuantity,
    });
  });

  it("reads remove, clear and apply-coupon", () => {
    expect(parseCartAction(form({ intent: "remove", productId: "9" }))).toEqual({
      ok: true,
      action: { intent: "remove", productId: 9 },
    });
    expect(parseCartAction(form({ intent: "clear" }))).toEqual({ ok: true, action: { intent: "clear" } });
    expect(parseCartAction(form({ intent: "apply-coupon", code: "SAVE10" }))).toEqual({
      ok: true,
      action: { intent: "apply-coupon", code: "SAVE10" },
    });
  });

  it.each<[Record<string, string>, string]>([
    [{}, "no intent"],
    [{ intent: "explode" }, "unknown intent"],
    [{ intent: "add" }, "no product"],
    [{ intent: "add", productId: "abc" }, "product id not a number"],
    [{ intent: "add", productId: "0" }, "product id 0"],
    [{ intent: "add", productId: "-4" }, "negative product id"],
    [{ intent: "remove", productId: "1.5" }, "fractional product id"],
    [{ intent: "update", productId: "99999999999", quantity: "1" }, "product id too large"],
  ])("rejects %j (%s) with the generic message", (fields) => {
    expect(parseCartAction(form(fields))).toEqual({
      ok: false,
      message: "Sorry, we could not update your cart. Please try again.",
    });
  });

  it("ignores files posted in place of fields", () => {
    const data = form({ intent: "add" });
    data.append("productId", new Blob(["12"]), "id.txt");
    expect(parseCartAction(data)).toEqual({ ok: false, message: CART_MESSAGES.invalidRequest });
  });

  it("is a discriminated union on intent", () => {
    expect(cartActionSchema.options.map((o) => o.shape.intent.value)).toEqual([
      "add",
      "buy-now",
      "update",
      "remove",
      "clear",
      "apply-coupon",
      "remove-coupon",
      "estimate",
    ]);
  });
});

describe("cart toasts", () => {
  it("say '{name} added to cart!' for one and '{quantity} x {name} added to cart!' for more", () => {
    expect(addToCartToast(ok({ outcome: "added", name: "Aurora", quantity: 1 }), 1)).toEqual({
      type: "success",
      message: "Aurora added to cart!",
    });
    // the prefix is the quantity added, not the line's new quantity
    expect(addToCartToast(ok({ outcome: "added", name: "Aurora", quantity: 4 }), 1)).toEqual({
      type: "success",
      message: "Aurora added to cart!",
    });
    expect(addToCartToast(ok({ outcome: "added", name: "Aurora", quantity: 5 }), 3)).toEqual({
      type: "success",
      message: "3 x Aurora added to cart!",
    });
  });

  it("warn when the line was capped at the stock, and err when the product cannot be bought", () => {
    expect(addToCartToast(ok({ outcome: "capped", name: "Chair", quantity: 3, stock: 3 }), 5)).toEqual({
      type: "warning",
      message: "Only 3 of Chair available — your cart has the maximum.",
    });
    expect(addToCartToast(fail({ code: "out-of-stock", name: "Mixer" }), 1)).toEqual({
      type: "error",
      message: "Sorry, Mixer is out of stock.",
    });
    expect(addToCartToast(fail({ code: "unavailable" }), 1)).toEqual({
      type: "error",
      message: "This product is no longer available.",
    });
  });

  it("use the spec's words for removal", () => {
    expect(updateCartItemToast(ok({ outcome: "removed" }))).toEqual({
      type: "success",
      message: "Item removed from cart",
    });
    expect(CART_MESSAGES.removed).toBe("Item removed from cart");
    expect(CART_MESSAGES.cleared).toBe("Cart cleared");
    expect(updateCartItemToast(ok({ outcome: "updated", name: "Chair", quantity: 2 })).type).toBe("success");
    expect(updateCartItemToast(ok({ outcome: "capped", name: "Chair", quantity: 3, stock: 3 }))).toEqual({
      type: "warning",
      message: "Only 3 of Chair available — your cart has the maximum.",
    });
    expect(updateCartItemToast(fail({ code: "not-in-cart" })).type).toBe("error");
  });
});
