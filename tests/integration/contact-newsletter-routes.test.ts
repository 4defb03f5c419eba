import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import * as contact from "../../app/routes/contact.tsx";
import * as newsletter from "../../app/routes/newsletter.tsx";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * POST /contact and POST /newsletter through the real route modules on a SQLite database of
 * their own: both are rate limited per visitor address, and a refused post stores nothing.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
});

afterAll(async () => {
  await shop?.destroy();
});

type DataResult<T> = { data: T; init: { status: number; headers: Record<string, string> } };
const statusOf = (result: unknown) =>
  result instanceof Response ? result.status : (result as DataResult<unknown>).init.status;

describe("POST /contact", () => {
  const message = (i: number) => ({
    name: "Grace Hopper",
    email: "grace@example.com",
    subject: `Question ${i}`,
    message: "Where is my parcel, please?",
  });
  const storedCount = async () =>
    Number(
      (
        await db
          .selectFrom("contactMessages")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("stores twenty messages an hour from one address, then answers 429 with the values kept and nothing stored", async () => {
    const jar = new Jar();
    const before = await storedCount();
    const statuses = [];
    for (let i = 0; i < 20; i++)
      statuses.push(
        statusOf(
          await postForm(contact, `${ORIGIN}/contact`, message(i), jar, shop.context("198.51.100.20")),
        ),
      );
    expect(statuses).toEqual(Array(20).fill(302));
    expect(await storedCount()).toBe(before + 20);

    const refused = (await postForm(
      contact,
      `${ORIGIN}/contact`,
      message(21),
      jar,
      shop.context("198.51.100.20"),
    )) as DataResult<{
      result: { error: Record<string, string[]>; initialValue: { subject: string } };
    }>;
    expect(refused.init.status).toBe(429);
    expect(Number(refused.init.headers["Retry-After"])).toBeGreaterThan(3_500);
    // the whole form's message, and no field's
    expect(refused.data.result.error).toEqual({
      "": ["Too many messages. Please wait 60 minutes and try again."],
    });
    expect(refused.data.result.initialValue.subject).toBe("Question 21");
    expect(await storedCount()).toBe(before + 20);

    // another address is not affected
    expect(
      statusOf(await postForm(contact, `${ORIGIN}/contact`, message(22), jar, shop.context("198.51.100.21"))),
    ).toBe(302);
  });

  it("does not count a form that needs correcting", async () => {
    const jar = new Jar();
    for (let i = 0; i < 8; i++) {
      const result = await postForm(
        contact,
        `${ORIGIN}/contact`,
        { ...message(i), email: "nope" },
        jar,
        shop.context("198.51.100.30"),
      );
      expect(statusOf(result)).toBe(400);
    }
    expect(
      statusOf(await postForm(contact, `${ORIGIN}/contact`, message(9), jar, shop.context("198.51.100.30"))),
    ).toBe(302);
  });
});

describe("POST /newsletter", () => {
  const subscribers = async () =>
    Number(
      (
        await db
          .selectFrom("newsletterSubscribers")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("takes thirty sign-ups an hour from one address, then answers 429 and stores nothing", async () => {
    const jar = new Jar();
    const before = await subscribers();
    for (let i = 0; i < 30; i++) {
      const result = await postForm(
        newsletter,
        `${ORIGIN}/newsletter`,
        { email: `reader${i}@example.com` },
        jar,
        shop.context("198.51.100.40"),
      );
      expect(statusOf(result)).toBe(302);
    }
    const refused = (await postForm(
      newsletter,
      `${ORIGIN}/newsletter`,
      { email: "reader30@example.com" },
      jar,
      shop.context("198.51.100.40"),
    )) as DataResult<{ result: SubmissionResult }>;
    expect(refused.init.status).toBe(429);
    expect(refused.data.result.error?.[""]).toEqual([
      "Too many sign-ups from your connection. Please wait 60 minutes and try again.",
    ]);
    expect(refused.data.result.initialValue?.email).toBe("reader30@example.com");
    expect(await subscribers()).toBe(before + 30);
    expect(
      statusOf(
        await postForm(
          newsletter,
          `${ORIGIN}/newsletter`,
          { email: "reader30@example.com" },
          jar,
          shop.context("198.51.100.41"),
        ),
      ),
    ).toBe(302);
  });
});
