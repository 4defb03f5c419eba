import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSchema, subscribeToNewsletter } from "../../app/domain/newsletter/subscribe.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

describe("newsletterSchema", () => {
  it.each([
    ["", "empty"],
    ["a@", "no domain"],
    ["not-an-email", "no @"],
    ["@example.com", "no local part"],
    ["a b@example.com", "space inside"],
    [`${"a".repeat(288)}@example.com`, "300 characters"],
  ])("rejects %j (%s) with the shop's message", (email) => {
    const result = newsletterSchema.safeParse({ email });
    expect(result.success).toBe(false);
    // the shop's message, word for word
    expect(result.error!.issues.map((i) => i.message)).toContain("Please enter a valid e-mail address.");
  });

  it("rejects a missing or non-string value with the same message", () => {
    for (const input of [{}, { email: null }, { email: 42 }]) {
      const result = newsletterSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toBe("Please enter a valid e-mail address.");
    }
  });

  it("trims and lower-cases a valid address", () => {
    expect(newsletterSchema.parse({ email: "  Jane.Doe@Example.COM " })).toEqual({
      email: "jane.doe@example.com",
    });
  });
});

describe.each(ENGINES)("subscribeToNewsletter on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const rowsFor = (email: string) =>
    t.db.selectFrom("newsletterSubscribers").selectAll().where("email", "=", email).execute();

  it("subscribes a new address, then reports the same address in any case or spacing as already subscribed", async () => {
    const now = new Date(Date.UTC(2026, 10, 22, 12));
    expect(await subscribeToNewsletter(t.db, "reader@example.com", now)).toBe("subscribed");
    expect(await subscribeToNewsletter(t.db, "Reader@Example.com")).toBe("already-subscribed");
    expect(await subscribeToNewsletter(t.db, "  READER@EXAMPLE.COM  ")).toBe("already-subscribed");
    const rows = await rowsFor("reader@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.createdAt).toBe(now.toISOString());
  });

  it("stores addresses lower-cased", async () => {
    expect(await subscribeToNewsletter(t.db, " MiXeD@Example.org")).toBe("subscribed");
    expect(await rowsFor("mixed@example.org")).toHaveLength(1);
    expect(await rowsFor(" MiXeD@Example.org")).toHaveLength(0);
  });

  it("keeps exactly one row when 20 requests subscribe the same address at once", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        subscribeToNewsletter(t.db, i % 2 ? "race@example.com" : "RACE@example.com"),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const statuses = results.map((r) => (r as PromiseFulfilledResult<string>).value);
    expect(statuses.filter((s) => s === "subscribed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "already-subscribed")).toHaveLength(19);
    expect(await rowsFor("race@example.com")).toHaveLength(1);
  });
});
