import { existsSync, readdirSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import * as tasks from "../../app/jobs/after-response.server.ts";
import * as route from "../../app/routes/forgot-password.tsx";
import * as reset from "../../app/routes/reset-password.tsx";
import { ENGINES } from "../db-utils.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * POST /forgot-password answers an existing and an unknown e-mail alike — the same bytes, after
 * the same work on the request path (the reset's token and e-mail happen after the answer, for
 * both), on each engine. No timing is measured: what the request did before answering is.
 */
const ORIGIN = TEST_ORIGIN;

describe.each(ENGINES)("forgot password on %s", (engine) => {
  let shop: TestShop;
  let db: Database;
  let ip = 0;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    db = shop.db;
    expect(engineOf(db)).toBe(engine);
    const auth = shop.services.auth;
    await auth.api.signUpEmail({
      body: { name: "Ada", email: "ada@example.com", password: "correct horse" },
    });
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const mailDir = () => shop.mailDir;
  const mailCount = () =>
    existsSync(mailDir()) ? readdirSync(mailDir()).filter((f) => f.endsWith(".eml")).length : 0;
  const ask = (email: string) =>
    callRoute(route, "action", `${ORIGIN}/forgot-password`, {
      fields: { email },
      context: shop.context(`198.51.100.${++ip}`),
    });

  it("the answer comes before the reset's work, and is the same for an existing and an unknown e-mail", async () => {
    const tokens = async () => (await sql<{ id: string }>`select id from verifications`.execute(db)).rows;
    const tokensBefore = await tokens();
    // whatever other tests of this file sent before (their order is not fixed)
    const mailsBefore = mailCount();
    const filesBefore = new Set((await readOutbox(mailDir())).map((m) => m.file));

    const existing = await ask("ada@example.com");
    // answered: the e-mail is not sent yet (checked synchronously, before anything else can run)
    expect(mailCount()).toBe(mailsBefore);
    expect(tasks.pendingAfterResponseTasks()).toBe(1);
    const unknown = await ask("nobody@example.com");
    expect(tasks.pendingAfterResponseTasks()).toBe(2);

    expect(JSON.stringify(existing)).toBe(JSON.stringify(unknown));
    expect(existing).toEqual({
      status: 200,
      data: {
        sent: true,
        message:
          "If an account exists for that e-mail address, we have sent it a link to reset the password.",
      },
    });
    // nothing was written for the reset on the request path either
    expect(await tokens()).toEqual(tokensBefore);

    await tasks.settleAfterResponseTasks();
    expect((await tokens()).length).toBe(tokensBefore.length + 1);
    const mail = (await readOutbox(mailDir())).filter((m) => !filesBefore.has(m.file));
    expect(mail.map((m) => m.to)).toEqual([expect.stringContaining("ada@example.com")]);
    expect(mail[0]?.text).toMatch(/\/reset-password\?token=\S+/);
  });

  it("the rate limit still answers at once, the same for both", async () => {
    const from = shop.context("192.0.2.50");
    const answers = [];
    for (const email of [
      "ada@example.com",
      "nobody@example.com",
      "ada@example.com",
      "x@example.com",
      "y@example.com",
    ])
      await callRoute(route, "action", `${ORIGIN}/forgot-password`, { fields: { email }, context: from });
    for (const email of ["ada@example.com", "nobody@example.com"]) {
      answers.push(
        await callRoute(route, "action", `${ORIGIN}/forgot-password`, { fields: { email }, context: from }),
      );
    }
    expect(answers[0]).toMatchObject({
      status: 429,
      data: {
        sent: false,
        result: { error: { "": ["Too many requests. Please wait a few minutes and try again."] } },
      },
    });
    // the address typed is not sent back: the answer is the same bytes for any
    expect(JSON.stringify(answers[0])).not.toContain("example.com");
    expect(JSON.stringify(answers[0])).toBe(JSON.stringify(answers[1]));
    await tasks.settleAfterResponseTasks();
  });

  it("reset password: one message at a time (a bad link alone, else the password's, else the confirmation's), never the passwords", async () => {
    const post = (fields: Record<string, string>) =>
      callRoute(reset, "action", `${ORIGIN}/reset-password`, { fields, context: shop.context() });
    const badLink = await post({ token: "", password: "short", confirmPassword: "other" });
    expect(badLink).toMatchObject({
      status: 400,
      data: {
        result: { error: { "": ["This reset link is invalid or has expired. Please ask for a new one."] } },
      },
    });
    expect(Object.keys((badLink.data as unknown as { result: { error: object } }).result.error)).toEqual([
      "",
    ]);
    const short = await post({ token: "some-token", password: "short", confirmPassword: "other" });
    expect(short).toMatchObject({
      status: 400,
      data: { result: { error: { password: ["Password must be at least 8 characters."] } } },
    });
    expect(Object.keys((short.data as unknown as { result: { error: object } }).result.error)).toEqual([
      "password",
    ]);
    const mismatch = await post({
      token: "some-token",
      password: "long enough",
      confirmPassword: "long enougH",
    });
    expect(mismatch).toMatchObject({
      status: 400,
      data: { result: { error: { confirmPassword: ["The two passwords do not match."] } } },
    });
    const unknownToken = await post({
      token: "some-token",
      password: "long enough",
      confirmPassword: "long enough",
    });
    expect(unknownToken).toMatchObject({
      status: 400,
      data: {
        result: { error: { "": ["This reset link is invalid or has expired. Please ask for a new one."] } },
      },
    });
    for (const answer of [badLink, short, mismatch, unknownToken])
      expect(JSON.stringify(answer)).not.toMatch(/short|enough/);
    const invalidEmail = await ask("not an address");
    expect(invalidEmail).toMatchObject({
      status: 400,
      data: { sent: false, result: { error: { "": ["Please enter a valid e-mail address."] } } },
    });
  });
});
