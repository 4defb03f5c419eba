import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import {
  defaultVariantOf,
  insertImage,
  insertProduct,
  setVariantFields,
} from "../../../tests/helpers/catalog.ts";
import { SPEC_SHOP } from "../../../tests/helpers/spec-pricing.ts";
import type { NewProduct } from "../../db/schema.ts";
import { isCartId } from "../../lib/cart-owner.ts";
import { addToCart } from "./add-item.server.ts";
import { claimGuestCart, ensureAccountCart, findCartId, openCart } from "./cart-owner.server.ts";
import { newCartId } from "./cart-store.server.ts";
import { emptyCart, getCart, getCartQuantity } from "./get-cart.server.ts";
import { mergeCarts } from "./merge-carts.server.ts";
import { clearCart, removeCartItem, updateCartItem } from "./update-item.server.ts";

describe.each(ENGINES)("server-side cart on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const product = (overrides: Partial<NewProduct> = {}) => insertProduct(t.db, overrides);
  const lineQuantity = async (cartId: string, productId: number) =>
    (
      await t.db
        .selectFrom("cartItems")
        .select("quantity")
        .where("cartId", "=", cartId)
        .where("productId", "=", productId)
        .executeTakeFirst()
    )?.quantity ?? null;
  const cartExists = async (cartId: string) =>
    (await t.db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()) !== undefined;

  describe("addToCart", () => {
    it("creates the cart on the first add, then increments the same line", async () => {
      const id = await product({ name: "Aurora", stock: 10 });
      const cartId = newCartId();
      expect(isCartId(cartId)).toBe(true);
      expect(await cartExists(cartId)).toBe(false);

      expect(await addToCart(t.db, { cartId, productId: id, quantity: 1 })).toEqual({
        ok: true,
        value: { outcome: "added", name: "Aurora", quantity: 1 },
      });
      expect(await cartExists(cartId)).toBe(true);
      expect(await addToCart(t.db, { cartId, productId: id, quantity: 2 })).toEqual({
        ok: true,
        value: { outcome: "added", name: "Aurora", quantity: 3 },
      });
      expect(await lineQuantity(cartId, id)).toBe(3);
      const lines = await t.db.selectFrom("cartItems").selectAll().where("cartId", "=", cartId).execute();
      expect(lines).toHaveLength(1);
    });

    it("caps the line at the stock and says so", async () => {
      const id = await product({ name: "Chair", stock: 5 });
      const cartId = newCartId();
      expect(await addToCart(t.db, { cartId, productId: id, quantity: 4 })).toMatchObject({
        ok: true,
        value: { outcome: "added", quantity: 4 },
      });
      expect(await addToCart(t.db, { cartId, productId: id, quantity: 3 })).toEqual({
        ok: true,
        value: { outcome: "capped", name: "Chair", quantity: 5, stock: 5 },
      });
      expect(await addToCart(t.db, { cartId, productId: id, quantity: 1 })).toMatchObject({
        ok: true,
        value: { outcome: "capped", quantity: 5 },
      });
      expect(await lineQuantity(cartId, id)).toBe(5);

      const fresh = newCartId();
      expect(await addToCart(t.db, { cartId: fresh, productId: id, quantity: 999 })).toMatchObject({
        ok: true,
        value: { outcome: "capped", quantity: 5 },
      });
      expect(await lineQuantity(fresh, id)).toBe(5);
    });

    it("rejects unknown, archived and sold-out products without creating a cart", async () => {
      const archived = await product({ name: "Old", archivedAt: "2026-01-02T00:00:00.000Z" });
      const soldOut = await product({ name: "Mixer", stock: 0 });
      const cartId = newCartId();
      expect(await addToCart(t.db, { cartId, productId: 987_654_321, quantity: 1 })).toEqual({
        ok: false,
        error: { code: "unavailable" },
      });
      expect(await addToCart(t.db, { cartId, productId: archived, quantity: 1 })).toEqual({
        ok: false,
        error: { code: "unavailable" },
      });
      expect(await addToCart(t.db, { cartId, productId: soldOut, quantity: 1 })).toEqual({
        ok: false,
        error: { code: "out-of-stock", name: "Mixer" },
      });
      expect(await cartExists(cartId)).toBe(false);
      expect(
        await t.db.selectFrom("cartItems").select("productId").where("cartId", "=", cartId).execute(),
      ).toEqual([]);
    });

    it("refuses a quantity that is not a positive integer (the route validates first)", async () => {
      const id = await product();
      for (const quantity of [0, -1, 1.5, Number.NaN]) {
        await expect(addToCart(t.db, { cartId: newCartId(), productId: id, quantity })).rejects.toThrow(
          RangeError,
        );
      }
    });

    it("loses no update when 20 adds of the same product race into a new cart", async () => {
      const id = await product({ stock: 100 });
      const cartId = newCartId();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => addToCart(t.db, { cartId, productId: id, quantity: 1 })),
      );
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      expect(await lineQuantity(cartId, id)).toBe(20);
      const quantities = results.map((r) => {
        const added = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof addToCart>>>).value;
        return added.ok ? added.value.quantity : 0;
      });
      expect(quantities.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it("keeps to the stock when 20 adds race past it", async () => {
      const id = await product({ stock: 7 });
      const cartId = newCartId();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => addToCart(t.db, { cartId, productId: id, quantity: 1 })),
      );
      expect(await lineQuantity(cartId, id)).toBe(7);
      expect(results.filter((r) => r.ok && r.value.outcome === "added")).toHaveLength(7);
      expect(results.filter((r) => r.ok && r.value.outcome === "capped")).toHaveLength(13);
    });

    it("adds different products to one new cart at the same time", async () => {
      const ids = await Promise.all(Array.from({ length: 8 }, () => product({ stock: 3 })));
      const cartId = newCartId();
      const results = await Promise.allSettled(
        ids.flatMap((productId) => [1, 2].map(() => addToCart(t.db, { cartId, productId, quantity: 1 }))),
      );
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.lines.map((l) => l.quantity)).toEqual(ids.map(() => 2));
      expect(cart.totalQuantity).toBe(16);
    });
  });

  describe("updateCartItem, removeCartItem, clearCart", () => {
    it("sets the quantity, caps it at the stock, and removes at 0 or less", async () => {
      const id = await product({ name: "Lamp", stock: 6 });
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: id, quantity: 1 });

      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: 4 })).toEqual({
        ok: true,
        value: { outcome: "updated", name: "Lamp", quantity: 4 },
      });
      expect(await lineQuantity(cartId, id)).toBe(4);
      // absolute, so repeating it changes nothing
      await updateCartItem(t.db, { cartId, productId: id, quantity: 4 });
      expect(await lineQuantity(cartId, id)).toBe(4);

      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: 50 })).toEqual({
        ok: true,
        value: { outcome: "capped", name: "Lamp", quantity: 6, stock: 6 },
      });
      expect(await lineQuantity(cartId, id)).toBe(6);

      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: 0 })).toEqual({
        ok: true,
        value: { outcome: "removed" },
      });
      expect(await lineQuantity(cartId, id)).toBeNull();

      await addToCart(t.db, { cartId, productId: id, quantity: 2 });
      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: -3 })).toEqual({
        ok: true,
        value: { outcome: "removed" },
      });
      expect(await lineQuantity(cartId, id)).toBeNull();
    });

    it("answers not-in-cart for a missing line or cart, and never creates one", async () => {
      const id = await product();
      const cartId = newCartId();
      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: 2 })).toEqual({
        ok: false,
        error: { code: "not-in-cart" },
      });
      expect(await cartExists(cartId)).toBe(false);
      const other = await product();
      await addToCart(t.db, { cartId, productId: other, quantity: 1 });
      expect(await updateCartItem(t.db, { cartId, productId: id, quantity: 2 })).toEqual({
        ok: false,
        error: { code: "not-in-cart" },
      });
      expect(await lineQuantity(cartId, id)).toBeNull();
    });

    it("refuses to raise the quantity of an archived or sold-out product, but still removes it", async () => {
      const archived = await product({ name: "Gone", stock: 5 });
      const soldOut = await product({ name: "Popular", stock: 5 });
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: archived, quantity: 1 });
      await addToCart(t.db, { cartId, productId: soldOut, quantity: 1 });
      await t.db
        .updateTable("products")
        .set({ archivedAt: "2026-02-01T00:00:00.000Z" })
        .where("id", "=", archived)
        .execute();
      await setVariantFields(t.db, soldOut, { stock: 0 });

      expect(await updateCartItem(t.db, { cartId, productId: archived, quantity: 2 })).toEqual({
        ok: false,
        error: { code: "unavailable" },
      });
      expect(await updateCartItem(t.db, { cartId, productId: soldOut, quantity: 2 })).toEqual({
        ok: false,
        error: { code: "out-of-stock", name: "Popular" },
      });
      expect(await lineQuantity(cartId, archived)).toBe(1);
      expect(await updateCartItem(t.db, { cartId, productId: archived, quantity: 0 })).toEqual({
        ok: true,
        value: { outcome: "removed" },
      });
      await removeCartItem(t.db, { cartId, productId: soldOut });
      expect((await getCart(t.db, cartId, SPEC_SHOP)).lines).toEqual([]);
    });

    it("removes one line and leaves the others; removing twice is fine", async () => {
      const a = await product();
      const b = await product();
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: a, quantity: 2 });
      await addToCart(t.db, { cartId, productId: b, quantity: 1 });
      await removeCartItem(t.db, { cartId, productId: a });
      await removeCartItem(t.db, { cartId, productId: a });
      expect(await lineQuantity(cartId, a)).toBeNull();
      expect(await lineQuantity(cartId, b)).toBe(1);
      // a cart that does not exist is not created
      const none = newCartId();
      await removeCartItem(t.db, { cartId: none, productId: a });
      expect(await cartExists(none)).toBe(false);
    });

    it("clears every line but keeps the cart, and only that cart", async () => {
      const a = await product();
      const b = await product();
      const cartId = newCartId();
      const other = newCartId();
      await addToCart(t.db, { cartId, productId: a, quantity: 2 });
      await addToCart(t.db, { cartId, productId: b, quantity: 3 });
      await addToCart(t.db, { cartId: other, productId: a, quantity: 1 });
      await clearCart(t.db, cartId);
      expect(await getCart(t.db, cartId, SPEC_SHOP)).toEqual(emptyCart(SPEC_SHOP));
      expect(await cartExists(cartId)).toBe(true);
      expect(await lineQuantity(other, a)).toBe(1);
      await clearCart(t.db, newCartId());
    });
  });

  describe("getCart and getCartQuantity", () => {
    it("prices lines from the database at read time, so a changed price is what counts", async () => {
      const id = await product({ name: "Watch", priceCents: 18_999, originalPriceCents: 22_999 });
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: id, quantity: 2 });
      let cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.lines[0]).toMatchObject({
        unitPriceCents: 18_999,
        originalPriceCents: 22_999,
        lineTotalCents: 37_998,
      });
      expect(cart.totals.subtotalCents).toBe(37_998);

      await setVariantFields(t.db, id, { priceCents: 1_000 });
      cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.lines[0]).toMatchObject({ unitPriceCents: 1_000, lineTotalCents: 2_000 });
      expect(cart.totals).toMatchObject({
        taxLabel: "Including VAT",
        taxIncluded: false,
        subtotalCents: 2_000,
        discountCents: 0,
        shippingCents: 499,
        taxCents: 140,
        totalCents: 2_639,
      });
    });

    it.each([
      [4_999, 1, { subtotalCents: 4_999, shippingCents: 499, taxCents: 350, totalCents: 5_848 }],
      [5_000, 1, { subtotalCents: 5_000, shippingCents: 0, taxCents: 350, totalCents: 5_350 }],
      [2_500, 2, { subtotalCents: 5_000, shippingCents: 0, taxCents: 350, totalCents: 5_350 }],
      [2_499, 2, { subtotalCents: 4_998, shippingCents: 499, taxCents: 350, totalCents: 5_847 }],
      [5_001, 1, { subtotalCents: 5_001, shippingCents: 0, taxCents: 350, totalCents: 5_351 }],
    ])("price %i × %i → %j (free shipping from 5000 cents)", async (priceCents, quantity, expected) => {
      const id = await product({ priceCents, stock: 10 });
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: id, quantity });
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.totals).toMatchObject({ ...expected, discountCents: 0 });
      expect(cart.totalQuantity).toBe(quantity);
    });

    it("lists lines in the order added, with brand, slug and first image", async () => {
      const first = await product({ name: "First", brand: "Kestrel", slug: `first-${Date.now()}` });
      const second = await product({ name: "Second" });
      await insertImage(t.db, first, 1);
      await insertImage(t.db, first, 0);
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: first, quantity: 1 }, new Date(Date.UTC(2026, 5, 1)));
      await addToCart(t.db, { cartId, productId: second, quantity: 1 }, new Date(Date.UTC(2026, 5, 2)));
      await addToCart(t.db, { cartId, productId: first, quantity: 1 }, new Date(Date.UTC(2026, 5, 3)));
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.lines.map((l) => l.name)).toEqual(["First", "Second"]);
      expect(cart.lines[0]).toMatchObject({
        productId: first,
        brand: "Kestrel",
        slug: expect.stringMatching(/^first-/),
        quantity: 2,
        requestedQuantity: 2,
        status: "ok",
        image: {
          key: `products/p${first}-0`,
          alt: `image 0 of ${first}`,
          width: 960,
          height: 960,
          widths: [320, 640, 960],
        },
      });
      expect(cart.lines[1]!.image).toBeNull();
    });

    it("counts what can be bought: capped at today's stock, nothing for archived or sold-out lines", async () => {
      const ok = await product({ priceCents: 1_000, stock: 10 });
      const reduced = await product({ priceCents: 2_000, stock: 10 });
      const soldOut = await product({ priceCents: 3_000, stock: 10 });
      const archived = await product({ priceCents: 4_000, stock: 10 });
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: ok, quantity: 2 });
      await addToCart(t.db, { cartId, productId: reduced, quantity: 5 });
      await addToCart(t.db, { cartId, productId: soldOut, quantity: 1 });
      await addToCart(t.db, { cartId, productId: archived, quantity: 3 });
      expect(await getCartQuantity(t.db, cartId)).toBe(11);

      await setVariantFields(t.db, reduced, { stock: 3 });
      await setVariantFields(t.db, soldOut, { stock: 0 });
      await t.db
        .updateTable("products")
        .set({ archivedAt: "2026-03-01T00:00:00.000Z" })
        .where("id", "=", archived)
        .execute();

      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.lines.map((l) => [l.status, l.quantity, l.requestedQuantity, l.lineTotalCents])).toEqual([
        ["ok", 2, 2, 2_000],
        ["reduced", 3, 5, 6_000],
        ["out-of-stock", 0, 1, 0],
        ["unavailable", 0, 3, 0],
      ]);
      expect(cart.totalQuantity).toBe(5);
      expect(cart.totals.subtotalCents).toBe(8_000);
      expect(await getCartQuantity(t.db, cartId)).toBe(5);
    });

    it("is empty (quantity 0) for an unknown cart", async () => {
      const cartId = newCartId();
      expect(await getCart(t.db, cartId, SPEC_SHOP)).toEqual(emptyCart(SPEC_SHOP));
      expect(await getCartQuantity(t.db, cartId)).toBe(0);
      expect(emptyCart(SPEC_SHOP).totals).toMatchObject({
        subtotalCents: 0,
        discountCents: 0,
        shippingCents: 0,
        taxCents: 0,
        totalCents: 0,
      });
    });
  });

  describe("mergeCarts", () => {
    it("adds quantities into the target, capped at stock, drops what cannot be bought, deletes the source", async () => {
      const shared = await product({ name: "Shared", stock: 5 });
      const onlyGuest = await product({ name: "Guest only", stock: 9 });
      const onlyUser = await product({ name: "User only", stock: 9 });
      const gone = await product({ name: "Gone", stock: 9 });
      const guest = newCartId();
      const user = newCartId();
      await addToCart(t.db, { cartId: guest, productId: shared, quantity: 3 });
      await addToCart(t.db, { cartId: guest, productId: onlyGuest, quantity: 2 });
      await addToCart(t.db, { cartId: guest, productId: gone, quantity: 1 });
      await addToCart(t.db, { cartId: user, productId: shared, quantity: 4 });
      await addToCart(t.db, { cartId: user, productId: onlyUser, quantity: 1 });
      await t.db
        .updateTable("products")
        .set({ archivedAt: "2026-03-01T00:00:00.000Z" })
        .where("id", "=", gone)
        .execute();

      expect(await mergeCarts(t.db, guest, user)).toEqual({
        merged: 2,
        capped: [
          { productId: shared, variantId: await defaultVariantOf(t.db, shared), name: "Shared", stock: 5 },
        ],
        dropped: 1,
      });
      expect(await lineQuantity(user, shared)).toBe(5);
      expect(await lineQuantity(user, onlyGuest)).toBe(2);
      expect(await lineQuantity(user, onlyUser)).toBe(1);
      expect(await lineQuantity(user, gone)).toBeNull();
      expect(await cartExists(guest)).toBe(false);
      expect(
        await t.db.selectFrom("cartItems").select("productId").where("cartId", "=", guest).execute(),
      ).toEqual([]);
    });

    it("caps a guest line that alone exceeds today's stock", async () => {
      const id = await product({ stock: 8 });
      const guest = newCartId();
      const user = newCartId();
      await addToCart(t.db, { cartId: guest, productId: id, quantity: 6 });
      await setVariantFields(t.db, id, { stock: 4 });
      const result = await mergeCarts(t.db, guest, user);
      expect(result.capped).toHaveLength(1);
      expect(await lineQuantity(user, id)).toBe(4);
      expect(await cartExists(user)).toBe(true);
    });

    it("does nothing for the same cart, and creates no target for an empty source", async () => {
      const id = await product();
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: id, quantity: 2 });
      expect(await mergeCarts(t.db, cartId, cartId)).toEqual({ merged: 0, capped: [], dropped: 0 });
      expect(await lineQuantity(cartId, id)).toBe(2);

      const target = newCartId();
      expect(await mergeCarts(t.db, newCartId(), target)).toEqual({ merged: 0, capped: [], dropped: 0 });
      expect(await cartExists(target)).toBe(false);
    });
  });

  describe("whose cart (cart-owner)", () => {
    const userCart = async (userId: string) =>
      t.db.selectFrom("carts").select(["id", "userId"]).where("userId", "=", userId).execute();

    it("a signed-in shopper's add creates the account's cart, and every later request finds it", async () => {
      const id = await product({ stock: 5 });
      const userId = `user-${newCartId()}`;
      expect(await findCartId(t.db, { userId })).toBeNull();
      // two first adds at once (two tabs, two devices) end in one cart
      const [a, b] = await Promise.all([openCart(t.db, { userId }), openCart(t.db, { userId })]);
      expect(a).toBe(b);
      await addToCart(t.db, { cartId: a, productId: id, quantity: 2 });
      expect(await userCart(userId)).toEqual([{ id: a, userId }]);
      expect(await findCartId(t.db, { userId })).toBe(a);
      // the same account's cart from a browser with another guest cookie
      expect(await findCartId(t.db, { userId })).toBe(a);
      expect(await openCart(t.db, { userId })).toBe(a);
    });

    it("one cart per account: a second cart for the same user is refused by the database", async () => {
      const userId = `user-${newCartId()}`;
      await ensureAccountCart(t.db, userId);
      const now = new Date().toISOString();
      await expect(
        t.db
          .insertInto("carts")
          .values({ id: newCartId(), userId, createdAt: now, updatedAt: now })
          .execute(),
      ).rejects.toThrow(/unique/i);
    });

    it("a guest cookie reaches only a guest cart, never an account's", async () => {
      const id = await product();
      const userId = `user-${newCartId()}`;
      const accountCart = await openCart(t.db, { userId });
      await addToCart(t.db, { cartId: accountCart, productId: id, quantity: 1 });
      const stale = { userId: null, guestCartId: accountCart };
      expect(await findCartId(t.db, stale)).toBeNull();
      const fresh = await openCart(t.db, stale);
      expect(fresh).not.toBe(accountCart);

      const guest = newCartId();
      expect(await findCartId(t.db, { userId: null, guestCartId: guest })).toBeNull();
      expect(await openCart(t.db, { userId: null, guestCartId: guest })).toBe(guest);
      await addToCart(t.db, { cartId: guest, productId: id, quantity: 1 });
      expect(await findCartId(t.db, { userId: null, guestCartId: guest })).toBe(guest);
      expect(await findCartId(t.db, { userId: null, guestCartId: null })).toBeNull();
    });

    it("at sign-in without an account cart, the guest cart becomes the account's (coupon kept)", async () => {
      const id = await product();
      const userId = `user-${newCartId()}`;
      const guest = newCartId();
      await addToCart(t.db, { cartId: guest, productId: id, quantity: 2 });
      await t.db.updateTable("carts").set({ couponCode: "WELCOME10" }).where("id", "=", guest).execute();
      expect(await claimGuestCart(t.db, { userId, guestCartId: guest })).toBe(guest);
      expect(await userCart(userId)).toEqual([{ id: guest, userId }]);
      const row = await t.db
        .selectFrom("carts")
        .select("couponCode")
        .where("id", "=", guest)
        .executeTakeFirst();
      expect(row?.couponCode).toBe("WELCOME10");
      // signing in again with no guest cart finds it; with none at all there is nothing
      expect(await claimGuestCart(t.db, { userId, guestCartId: null })).toBe(guest);
      expect(await claimGuestCart(t.db, { userId: `user-${newCartId()}`, guestCartId: null })).toBeNull();
    });

    it("at sign-in with an account cart, the guest cart is merged in (capped at stock) and deleted", async () => {
      const shared = await product({ name: "Shared", stock: 4 });
      const gone = await product({ name: "Gone", stock: 0 });
      const userId = `user-${newCartId()}`;
      const accountCart = await openCart(t.db, { userId });
      await addToCart(t.db, { cartId: accountCart, productId: shared, quantity: 3 });
      const guest = newCartId();
      await addToCart(t.db, { cartId: guest, productId: shared, quantity: 2 });
      await t.db
        .insertInto("cartItems")
        .values({
          cartId: guest,
          productId: gone,
          variantId: await defaultVariantOf(t.db, gone),
          quantity: 1,
          addedAt: new Date().toISOString(),
        })
        .execute();
      expect(await claimGuestCart(t.db, { userId, guestCartId: guest })).toBe(accountCart);
      expect(await lineQuantity(accountCart, shared)).toBe(4);
      expect(await lineQuantity(accountCart, gone)).toBeNull();
      expect(await cartExists(guest)).toBe(false);
    });

    it("another account's cart in this browser is left alone at sign-in", async () => {
      const id = await product();
      const owner = `user-${newCartId()}`;
      const ownersCart = await openCart(t.db, { userId: owner });
      await addToCart(t.db, { cartId: ownersCart, productId: id, quantity: 1 });
      const other = `user-${newCartId()}`;
      expect(await claimGuestCart(t.db, { userId: other, guestCartId: ownersCart })).toBeNull();
      expect(await userCart(owner)).toEqual([{ id: ownersCart, userId: owner }]);
      expect(await lineQuantity(ownersCart, id)).toBe(1);
    });
  });
});
