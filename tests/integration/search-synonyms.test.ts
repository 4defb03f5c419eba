import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadListing } from "../../app/domain/catalog/listing-page.server.ts";
import { parseSynonyms, SYNONYM_MESSAGES } from "../../app/domain/catalog/search-synonyms.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as searchesRoute from "../../app/routes/admin.searches.tsx";
import { ENGINES } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const PRESET = { path: "/products", title: "All Products", description: "" };
const OWNER = { id: "owner-1", email: "owner@example.com", role: "owner" as const };

describe("synonyms as the owner types them", () => {
  it("are 2 to 10 different single words, trimmed and in lower case", () => {
    expect(parseSynonyms(" Tee, T-Shirt ,tshirt, tee ")).toEqual(["tee", "t-shirt", "tshirt"]);
    expect(parseSynonyms("tee")).toBeNull();
    expect(parseSynonyms("tee, ")).toBeNull();
    expect(parseSynonyms("running shoes, trainers")).toBeNull();
    expect(parseSynonyms(Array.from({ length: 11 }, (_, i) => `w${i}`).join(","))).toBeNull();
    expect(parseSynonyms(`tee, ${"x".repeat(41)}`)).toBeNull();
  });
});

/**
 * The owner's synonyms (issue 33), on both engines: added and removed in Admin → Searches (refused
 * beside the field, audited), and applied to the next search at once — no index rebuild.
 */
describe.each(ENGINES)("synonyms on %s", (engine) => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    await insertProduct(shop.db, { name: "Cotton T-Shirt", brand: "Loom" });
    await insertProduct(shop.db, { name: "Trail Sneakers", brand: "Stride" });
  });
  afterAll(async () => {
    await settleAfterResponseTasks();
    await shop?.destroy();
  });

  const found = async (search: string) =>
    (await loadListing(shop.db, new URLSearchParams({ search }), PRESET)).result.products.map((p) => p.name);
  const post = (fields: Record<string, string>) =>
    adminAction(
      searchesRoute.action,
      new Request(`${TEST_ORIGIN}/admin/searches`, {
        method: "POST",
        headers: { Cookie: ADMIN_COOKIE, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      }),
      adminContext({ db: shop.db, files: shop.services.files }, OWNER),
    );
  const groups = async () =>
    (
      (await searchesRoute.loader({
        request: new Request(`${TEST_ORIGIN}/admin/searches`, { headers: { Cookie: ADMIN_COOKIE } }),
        params: {},
        context: adminContext({ db: shop.db, files: shop.services.files }, OWNER),
      } as never)) as { synonyms: { id: number; words: string[] }[] }
    ).synonyms;

  it("finds what a synonym names from the moment it is added, and not after it is removed", async () => {
    expect(await found("tee")).toEqual([]);
    expect(await found("trainers")).toEqual([]);
    const refused = await post({ intent: "add-synonyms", words: "tee" });
    expect(refused).toMatchObject({ ok: false, status: 400, fieldErrors: { words: SYNONYM_MESSAGES.words } });
    expect(await groups()).toEqual([]);

    const added = await post({ intent: "add-synonyms", words: "Tee, T-Shirt" });
    expect(added).toMatchObject({ ok: true, message: "Synonyms added: tee, t-shirt" });
    await post({ intent: "add-synonyms", words: "trainers, sneakers" });
    expect(await found("tee")).toEqual(["Cotton T-Shirt"]);
    expect(await found("cotton tee")).toEqual(["Cotton T-Shirt"]);
    expect(await found("TRAINERS")).toEqual(["Trail Sneakers"]);
    // the other way round too, and a word not in a group is as before
    expect(await found("t-shirt")).toEqual(["Cotton T-Shirt"]);
    expect(await found("tee sneakers")).toEqual([]);

    const [tee] = (await groups()).filter((group) => group.words.includes("tee"));
    expect(tee?.words).toEqual(["tee", "t-shirt"]);
    const removed = await post({ intent: "remove-synonyms", id: String(tee?.id) });
    expect(removed).toMatchObject({ ok: true, message: "Synonyms removed" });
    expect(await found("tee")).toEqual([]);
    const again = await post({ intent: "remove-synonyms", id: String(tee?.id) });
    expect(again).toMatchObject({ ok: true, message: "Those synonyms were already removed." });

    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityType", "=", "search_synonyms")
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "search.synonyms.add", summary: "Synonyms added: tee, t-shirt" },
      { action: "search.synonyms.add", summary: "Synonyms added: trainers, sneakers" },
      { action: "search.synonyms.remove", summary: "Synonyms removed: tee, t-shirt" },
    ]);
  });
});
