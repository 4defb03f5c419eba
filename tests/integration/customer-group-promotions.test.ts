import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { createGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { addMembers } from "../../app/domain/customer-groups/group-members.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { createPromotion, getAdminPromotion } from "../../app/domain/promotions/promotion-admin.server.ts";
import { promotionFormValues } from "../../app/domain/promotions/promotion-form.ts";
import { checkPromotionForm } from "../../app/domain/promotions/promotion-schema.server.ts";
import { simulatePromotions } from "../../app/domain/promotions/promotion-simulator.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * A promotion for a customer group (issue 31, decision 034), on each engine: made through the
 * promotion form's rules (the groups ticked), shown back ticked; it applies in a signed-in member's
 * cart and not in a non-member's or a guest's — the same e-mail as a guest gets nothing — and the
 * simulator reads the customer's groups from their e-mail.
 */
const OWNER: StaffActor = { id: "owner-1", email: "owner@group-promos.example", role: "owner" };

describe.each(ENGINES)("customer-group promotions on %s", (engine) => {
  let t: TestDatabase;
  let product = 0;
  let sku = "";
  let member = "";
  let outsider = "";
  let groupId = 0;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    product = await insertProduct(t.db, { priceCents: 2_000, stock: 1_000 });
    const variant = await t.db
      .selectFrom("productVariants")
      .select("sku")
      .where("productId", "=", product)
      .executeTakeFirstOrThrow();
    sku = variant.sku;
    member = await insertUser(t.db, "member@group-promos.example");
    outsider = await insertUser(t.db, "outsider@group-promos.example");
    const group = await createGroup(t.db, { input: { name: "Insiders", description: "" }, actor: OWNER });
    if (!group.ok) throw new Error(group.error.code);
    groupId = group.value.id;
    await addMembers(t.db, { id: groupId, emails: ["member@group-promos.example"], actor: OWNER });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("the form's ticked groups become the condition, and show ticked again", async () => {
    const checked = checkPromotionForm(
      { name: "Insiders 25%", percent: "25", active: "on", combines: "on", groups: [String(groupId)] },
      "order-percent",
      "UTC",
    );
    if (!checked.ok) throw new Error(JSON.stringify(checked.refusals));
    expect(checked.value.conditions).toEqual([{ type: "customer-group", groupIds: [groupId] }]);
    expect(
      checkPromotionForm({ name: "Bad", percent: "25", groups: ["x"] }, "order-percent", "UTC"),
    ).toMatchObject({ ok: false, refusals: [[["groups"], "Choose customer groups from the list."]] });
    const created = await createPromotion(t.db, { input: checked.value, actor: OWNER });
    if (!created.ok) throw new Error(created.error.code);
    const found = await getAdminPromotion(t.db, created.value.id);
    expect(promotionFormValues(found!.promotion, found!.refs, "UTC").groups).toEqual([String(groupId)]);
  });

  async function cartFor(shopper: { userId?: string | null; email?: string | null }) {
    const cartId = randomUUID();
    await addToCart(t.db, { cartId, productId: product, quantity: 2 });
    return getCart(t.db, cartId, SPEC_SHOP, shopper);
  }

  it("applies in a signed-in member's cart only: not a non-member's, not a guest's", async () => {
    const mine = await cartFor({ userId: member, email: "member@group-promos.example" });
    expect(mine.promotions.map((p) => [p.name, p.amountCents])).toEqual([["Insiders 25%", 1_000]]);
    expect(mine.totals.discountCents).toBe(1_000);
    const theirs = await cartFor({ userId: outsider, email: "outsider@group-promos.example" });
    expect(theirs.promotions).toEqual([]);
    expect(theirs.totals.discountCents).toBe(0);
    // the member's own e-mail, as a guest: groups follow the account only
    const guest = await cartFor({ email: "member@group-promos.example" });
    expect(guest.totals.discountCents).toBe(0);
    expect((await cartFor({})).totals.discountCents).toBe(0);
  });

  it("Place Order charges a member the group's price, and a non-member the full one", async () => {
    const secret = "customer-group-promotions-secret-0123";
    const place = async (userId: string, email: string) => {
      const cartId = randomUUID();
      await addToCart(t.db, { cartId, productId: product, quantity: 2 });
      const cart = await getCart(t.db, cartId, SPEC_SHOP, { userId, email });
      const placed = await placeOrder(t.db, createTestGateway({ processingDelayMs: 0, secret, db: t.db }), {
        cartId,
        userId,
        idempotencyKey: randomUUID(),
        shipping: {
          firstName: "Ada",
          lastName: "Lovelace",
          email,
          phone: "+1 555 0100",
          address: "1 Analytical Way",
          city: "Springfield",
          state: "IL",
          zipCode: "62701",
          country: "US",
        },
        method: "standard",
        shop: SPEC_SHOP,
        payment: { token: mintTestToken("approve", { secret }), brand: "Visa", last4: "4242" },
        expectedTotalCents: cart.totals.totalCents,
      });
      if (!placed.ok) throw new Error(placed.error.code);
      return t.db
        .selectFrom("orders")
        .select(["discountCents", "subtotalCents"])
        .where("number", "=", placed.value.order.number)
        .executeTakeFirstOrThrow();
    };
    expect(await place(member, "member@group-promos.example")).toEqual({
      discountCents: 1_000,
      subtotalCents: 4_000,
    });
    expect(await place(outsider, "outsider@group-promos.example")).toEqual({
      discountCents: 0,
      subtotalCents: 4_000,
    });
  });

  it("the simulator reads the customer's groups from their e-mail", async () => {
    const simulate = (email: string | null) =>
      simulatePromotions(t.db, SPEC_SHOP.markets, {
        lines: [{ sku, quantity: 2 }],
        email,
        destination: { country: "US", region: "IL" },
        methodCode: null,
        codes: [],
        at: new Date(),
      });
    const asMember = await simulate("Member@group-promos.example");
    if (!asMember.ok) throw new Error(asMember.error.code);
    // (they ordered in the test before)
    expect(asMember.value.customer).toEqual({ signedIn: true, firstOrder: false, groups: ["Insiders"] });
    expect(asMember.value.applied.map((a) => [a.promotion.name, a.amountCents])).toEqual([
      ["Insiders 25%", 1_000],
    ]);
    const asOutsider = await simulate("outsider@group-promos.example");
    if (!asOutsider.ok) throw new Error(asOutsider.error.code);
    expect(asOutsider.value.customer.groups).toEqual([]);
    expect(asOutsider.value.applied).toEqual([]);
    expect(asOutsider.value.refused.map((r) => r.refusal)).toMatchObject([
      { reason: "condition", condition: { type: "customer-group", groupIds: [groupId] } },
    ]);
    const asGuest = await simulate(null);
    if (!asGuest.ok) throw new Error(asGuest.error.code);
    expect(asGuest.value.applied).toEqual([]);
  });
});
