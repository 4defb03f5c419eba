import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import { ENGINES } from "../db-utils.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { stubShopEnvOn } from "../helpers/route-engines.ts";
import { callRoute, requestContext } from "../helpers/route-harness.ts";

/**
 * POST /forgot-password answers an existing and an unknown e-mail alike — the same bytes, after
 * the same work on the request path (the reset's token and e-mail happen after the answer, for
 * both), on each engine. No timing is measured: what the request did before answering is.
 */
const ORIGIN = "http://shop.test";

describe.each(ENGINES)("forgot password on %s", (engine) => {
  let dir: string;
  let destroy: () => Promise<void>;
  let db: Database;
  let closeServices: () => Promise<void>;
  let route: typeof import("../../app/routes/forgot-password.tsx");
  let tasks: typeof import("../../app/jobs/after-response.server.ts");
  let ip = 0;

  beforeAll(async () => {
    ({ dir, destroy } = await stubShopEnvOn(engine, "password-reset", ORIGIN));
    route = await import("../../app/routes/forgot-password.tsx");
    tasks = await import("../../app/jobs/after-response.server.ts");
    const client = await import("../../app/composition.server.ts");
    closeServices = client.closeServices;
    db = await client.getDb();
    expect(engineOf(db)).toBe(engine);
    const auth = await client.getAuth();
    await auth.api.signUpEmail({
      body: { name: "Ada", email: "ada@example.com", password: "correct horse" },
    });
  });

  afterAll(async () => {
    await closeServices?.();
    await destroy?.();
    vi.unstubAllEnvs();
  });

  const mailDir = () => join(dir, "mail");
  const mailCount = () =>
    existsSync(mailDir()) ? readdirSync(mailDir()).filter((f) => f.endsWith(".eml")).length : 0;
  const ask = (email: string) =>
    callRoute(route, "action", `${ORIGIN}/forgot-password`, {
      fields: { email },
      context: requestContext(`198.51.100.${++ip}`),
    });

  it("the answer comes before the reset's work, and is the same for an existing and an unknown e-mail", async () => {
    const tokens = async () => (await sql<{ id: string }>`select id from verifications`.execute(db)).rows;
    const tokensBefore = await tokens();

    const existing = await ask("ada@example.com");
    // answered: the e-mail is not sent yet (checked synchronously, before anything else can run)
    expect(mailCount()).toBe(0);
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
    const mail = await readOutbox(mailDir());
    expect(mail.map((m) => m.to)).toEqual([expect.stringContaining("ada@example.com")]);
    expect(mail[0]?.text).toMatch(/\/reset-password\?token=\S+/);
  });

  it("the rate limit still answers at once, the same for both", async () => {
    const from = requestContext("192.0.2.50");
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
    expect(answers[0]).toEqual({
      status: 429,
      data: { sent: false, message: "Too many requests. Please wait a few minutes and try again." },
    });
    expect(JSON.stringify(answers[0])).toBe(JSON.stringify(answers[1]));
    await tasks.settleAfterResponseTasks();
  });
});
