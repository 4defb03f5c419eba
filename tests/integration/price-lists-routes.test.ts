import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { createGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { addMembers } from "../../app/domain/customer-groups/group-members.server.ts";
import { withSharedCacheRules } from "../../app/infra/page-cache.server.ts";
import { sharedPageHeaders } from "../../app/lib/cache-control.ts";
import * as pricesRoute from "../../app/routes/admin.customer-groups.$id_.prices.tsx";
import * as importRoute from "../../app/routes/admin.customer-groups.$id_.prices_.import.tsx";
import * as productRoute from "../../app/routes/products.$productId.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * A group's price list through its pages (decision 037), on each engine: a price set by SKU (an
 * unknown SKU and a bad price refused beside their fields), removed; a CSV with a bad line refused
 * whole with its lines listed, a good one set; a role without the customers permission refused with
 * 403 on the page and the import, nothing written; a signed-in member's product page at their price,
 * and that page private.
 */
describe.each(ENGINES)("price list pages on %s", (engine) => {
  let shop: TestShop;
  const cookies: Record<string, string> = {};
  let groupId = 0;
  let productId = 0;
  let slug = "";
  let sku = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    for (const [email, role] of [
      ["boss@price-pages.example", "owner"],
      ["clerk@price-pages.example", "staff"],
      ["member@price-pages.example", "customer"],
    ] as const) {
      const created = await createOrUpdateUser(
        { auth, db: shop.db },
        { email, password: "correct horse", role },
      );
      if (!created.ok) throw new Error(email);
      const { headers } = await auth.api.signInEmail({
        body: { email, password: "correct horse" },
        returnHeaders: true,
      });
      cookies[role] = cookieHeader(headers);
    }
    const owner = { id: "owner", email: "boss@price-pages.example", role: "owner" as const };
    const group = await createGroup(shop.db, { input: { name: "Trade", description: "" }, actor: owner });
    if (!group.ok) throw new Error(group.error.code);
    groupId = group.value.id;
    await addMembers(shop.db, { id: groupId, emails: ["member@price-pages.example"], actor: owner });
    productId = await insertProduct(shop.db, { priceCents: 4_000, stock: 10 });
    const variant = await shop.db
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select(["productVariants.sku", "products.slug"])
      .where("productVariants.productId", "=", productId)
      .executeTakeFirstOrThrow();
    sku = variant.sku;
    slug = variant.slug;
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const here = () => `/admin/customer-groups/${groupId}/prices`;
  const post = (role: string, fields: Record<string, string>) =>
    callRoute(pricesRoute, "action", `${TEST_ORIGIN}${here()}`, {
      cookie: cookies[role],
      fields,
      params: { id: String(groupId) },
      context: shop.context(),
    });
  const page = async () => {
    const answer = await callRoute(pricesRoute, "loader", `${TEST_ORIGIN}${here()}`, {
      cookie: cookies.owner,
      params: { id: String(groupId) },
      context: shop.context(),
    });
    return answer.data as unknown as Awaited<ReturnType<typeof pricesRoute.loader>>;
  };
  const errorsOf = (answer: { data?: unknown }) =>
    (answer.data as { result: { error: Record<string, string[]> } }).result.error;
  const upload = (role: string, text: string) => {
    const body = new FormData();
    body.set("file", new File([text], "prices.csv", { type: "text/csv" }));
    const request = new Request(`${TEST_ORIGIN}${here()}/import`, {
      method: "POST",
      headers: { Cookie: cookies[role] ?? "" },
      body,
    });
    return importRoute
      .action({ request, params: { id: String(groupId) }, context: shop.context() } as never)
      .catch((thrown: unknown) => thrown);
  };

  it("sets a price by SKU with messages beside the fields, lists it, removes it", async () => {
    const blank = await post("owner", { intent: "set", sku: "", price: "abc" });
    expect(blank.status).toBe(400);
    expect(errorsOf(blank)).toMatchObject({
      sku: ["Enter the variant's SKU, as on its product page in the admin."],
      price: ["Enter a price above 0, like 19 or 18.50."],
    });
    const unknown = await post("owner", { intent: "set", sku: "NOPE-123", price: "10" });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown).sku).toEqual(["No variant has the SKU NOPE-123."]);
    const set = await post("owner", { intent: "set", sku, price: "$32.50" });
    expect(set.response?.status).toBe(302);
    expect(set.response?.headers.get("Location")).toBe(here());
    expect((await page()).prices.map((p) => [p.sku, p.priceCents, p.regularCents])).toEqual([
      [sku, 3_250, 4_000],
    ]);

    // the member's product page: their price, the regular one struck through; the page private
    const request = new Request(`${TEST_ORIGIN}/products/${slug}`, {
      headers: { Cookie: cookies.customer! },
    });
    const loaded = await productRoute.loader({
      request,
      params: { productId: slug },
      context: shop.context(),
    } as never);
    expect((loaded as { product: { priceCents: number; originalPriceCents: number } }).product).toMatchObject(
      {
        priceCents: 3_250,
        originalPriceCents: 4_000,
        memberPrice: true,
      },
    );
    const answered = withSharedCacheRules(request, new Response("", { headers: sharedPageHeaders() }));
    expect(answered.headers.get("Cache-Control")).toBe("private, max-age=0, must-revalidate");
    const anonymous = await productRoute.loader({
      request: new Request(`${TEST_ORIGIN}/products/${slug}`),
      params: { productId: slug },
      context: shop.context(),
    } as never);
    expect((anonymous as { product: { priceCents: number } }).product.priceCents).toBe(4_000);

    const variantId = (await page()).prices[0]!.variantId;
    const removed = await post("owner", { intent: "remove", variantId: String(variantId) });
    expect(removed.response?.status).toBe(302);
    expect((await page()).prices).toEqual([]);
  });

  it("imports a CSV whole, or refuses it whole with its bad lines listed", async () => {
    const refused = (await upload("owner", `sku,price\n${sku},30\nGHOST-1,20\n${sku},oops\n`)) as {
      type: string;
      data: { problems: { line: number; message: string }[] };
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.problems).toEqual([
      { line: 3, message: "no variant has the SKU GHOST-1" },
      { line: 4, message: "“oops” is not a price above 0 (like 19 or 18.50)" },
    ]);
    expect((await page()).prices).toEqual([]);
    const done = (await upload("owner", `${sku},31\n`)) as Response;
    expect(done.status).toBe(302);
    expect((await page()).prices.map((p) => [p.sku, p.priceCents])).toEqual([[sku, 3_100]]);
  });

  it("a role without the customers permission gets 403 and changes nothing", async () => {
    const loader = await callRoute(pricesRoute, "loader", `${TEST_ORIGIN}${here()}`, {
      cookie: cookies.staff,
      params: { id: String(groupId) },
      context: shop.context(),
    });
    expect(loader.thrown).toBe(403);
    const set = await post("staff", { intent: "set", sku, price: "1" });
    expect(set.thrown).toBe(403);
    const imported = (await upload("staff", `${sku},1\n`)) as { init?: { status?: number } };
    expect(imported.init?.status).toBe(403);
    expect((await page()).prices.map((p) => p.priceCents)).toEqual([3_100]);
  });
});
