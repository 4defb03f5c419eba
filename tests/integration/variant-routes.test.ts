import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as toasts from "../../app/http/toast.server.ts";
import * as cart from "../../app/routes/cart.tsx";
import * as product from "../../app/routes/products.$productId.tsx";
import { ENGINES } from "../db-utils.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The product page's variant choice as the server answers it, on each engine: `?variant=` picks,
 * the picker's GET form without JavaScript (`?option1=…`) redirects to the variant's own URL,
 * anything odd falls back to the first variant in stock; and the cart refuses to guess a variant.
 */
describe.each(ENGINES)("variant routes on %s", (engine) => {
  let shop: TestShop;
  let tee: { productId: number; variantIds: number[]; slug: string };

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const slug = `route-tee-${engine}`;
    const made = await insertProductWithVariants(shop.db, {
      name: "Route Tee",
      slug,
      options: [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Black", "White"] },
      ],
      variants: [
        { values: ["S", "Black"], sku: `RT-${engine}-S-B`, priceCents: 2_000, stock: 0 },
        { values: ["M", "Black"], sku: `RT-${engine}-M-B`, priceCents: 2_400, stock: 4 },
        { values: ["M", "White"], sku: `RT-${engine}-M-W`, priceCents: 2_400, stock: 2 },
      ],
    });
    tee = { ...made, slug };
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const page = (query = "") =>
    callRoute(product, "loader", `${TEST_ORIGIN}/products/${tee.slug}${query}`, {
      params: { productId: tee.slug },
      context: shop.context(),
    });

  it("shows the named variant, else the first in stock; odd values fall back", async () => {
    const [sb, mb, mw] = tee.variantIds as [number, number, number];
    const selected = async (query: string) =>
      ((await page(query)) as { data: { selectedVariantId: number } }).data.selectedVariantId;
    expect(await selected("")).toBe(mb);
    expect(await selected(`?variant=${mw}`)).toBe(mw);
    expect(await selected(`?variant=${sb}`)).toBe(sb);
    for (const odd of ["?variant=abc", "?variant=0", "?variant=99999999999", `?variant=${"9".repeat(300)}`]) {
      expect(await selected(odd), odd).toBe(mb);
    }
    const { data } = (await page()) as {
      data: { product: { options: unknown[]; variants: { sku: string; stock: number }[] } };
    };
    expect(data.product.options).toHaveLength(2);
    expect(data.product.variants.map((v) => [v.sku, v.stock])).toEqual([
      [`RT-${engine}-S-B`, 0],
      [`RT-${engine}-M-B`, 4],
      [`RT-${engine}-M-W`, 2],
    ]);
  });

  it("answers the picker's form without JavaScript with a redirect to the chosen variant", async () => {
    const [, , mw] = tee.variantIds as [number, number, number];
    const chosen = await page("?option1=M&option2=White");
    expect(chosen.response?.status).toBe(302);
    expect(chosen.response?.headers.get("Location")).toBe(`/products/${tee.slug}?variant=${mw}`);
    // a combination that does not exist, or a value 5 000 characters long: the first in stock
    for (const query of ["?option1=S&option2=White", `?option1=${"x".repeat(5000)}`]) {
      const answer = await page(query);
      expect(answer.response?.status).toBe(302);
      expect(answer.response?.headers.get("Location")).toBe(
        `/products/${tee.slug}?variant=${tee.variantIds[1]}`,
      );
    }
  });

  it("the cart adds the chosen variant, and sends a shopper who chose none to the product page", async () => {
    const post = (fields: Record<string, string>) =>
      callRoute(cart, "action", `${TEST_ORIGIN}/cart`, { fields, context: shop.context() });
    const toastOf = async (response: Response) => {
      const line = response.headers.getSetCookie().find((l) => l.startsWith("cw_toast="))!;
      return (await toasts.getToast(new Request(TEST_ORIGIN, { headers: { Cookie: line.split(";")[0]! } })))
        .toast;
    };
    const unchosen = await post({ intent: "add", productId: String(tee.productId), redirectTo: "/" });
    expect(unchosen.response?.headers.get("Location")).toBe(`/products/${tee.slug}`);
    expect(await toastOf(unchosen.response!)).toMatchObject({
      type: "info",
      message: "Please choose the options of Route Tee first.",
    });
    // a variant of another product is no variant of this one
    const foreign = await post({ intent: "add", productId: "424242", variantId: String(tee.variantIds[1]) });
    expect(await toastOf(foreign.response!)).toMatchObject({
      type: "error",
      message: "This product is no longer available.",
    });
    const added = await post({
      intent: "add",
      productId: String(tee.productId),
      variantId: String(tee.variantIds[2]),
      quantity: "5",
    });
    expect(await toastOf(added.response!)).toMatchObject({
      type: "warning",
      message: "Only 2 of Route Tee available — your cart has the maximum.",
    });
    const sold = await post({
      intent: "add",
      productId: String(tee.productId),
      variantId: String(tee.variantIds[0]),
    });
    expect(await toastOf(sold.response!)).toMatchObject({
      type: "error",
      message: "Sorry, Route Tee is out of stock.",
    });
  });
});
