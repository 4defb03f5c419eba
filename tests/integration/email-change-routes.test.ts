import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import * as tasks from "../../app/jobs/after-response.server.ts";
import * as settings from "../../app/routes/account.settings.tsx";
import * as confirm from "../../app/routes/account_.confirm-email.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Changing the e-mail in account settings is confirmed by a link sent to the new address: the
 * settings form answers a taken and a free address alike, nothing changes until the link is
 * opened, the link works once, and an address taken meanwhile is refused by the link. Through the
 * real routes and the outbox, on each engine.
 */
const ORIGIN = TEST_ORIGIN;
const PASSWORD = "correct horse";

describe.each(ENGINES)("changing the e-mail on %s", (engine) => {
  let shop: TestShop;
  let db: Database;
  let signUp: (name: string, email: string) => Promise<{ id: string; cookie: string }>;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    db = shop.db;
    expect(engineOf(db)).toBe(engine);
    const auth = shop.services.auth;
    signUp = async (name, email) => {
      const { headers, response } = await auth.api.signUpEmail({
        body: { name, email, password: PASSWORD },
        returnHeaders: true,
      });
      return { id: response.user.id, cookie: cookieHeader(headers) };
    };
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const askToChange = (cookie: string, newEmail: string) =>
    callRoute(settings, "action", `${ORIGIN}/account/settings`, {
      cookie,
      fields: { intent: "email", newEmail, currentPassword: PASSWORD },
      context: shop.context(),
    });
  const emailOf = async (id: string) =>
    (await db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow()).email;
  /** The link in the newest message to `to`, as a path, once the queued e-mails went out. */
  async function linkSentTo(to: string) {
    await tasks.settleAfterResponseTasks();
    const mail = (await readOutbox(shop.mailDir)).filter((m) => m.to.includes(to));
    const link = mail.at(-1)?.text.match(/https?:\/\/\S+\/account\/confirm-email\?token=\S+/)?.[0];
    return link ? new URL(link) : null;
  }
  const open = async (link: URL, cookie = "") => {
    const page = await callRoute(confirm, "loader", link.toString(), { cookie, context: shop.context() });
    const token = (page.data as unknown as { token: string }).token;
    return callRoute(confirm, "action", `${ORIGIN}/account/confirm-email`, {
      cookie,
      fields: { token },
      context: shop.context(),
    });
  };

  it("a taken and a free address get the same answer beside the form; nothing changes before the link", async () => {
    const ada = await signUp("Ada Lovelace", `ada-${engine}@example.com`);
    await signUp("Bob Babbage", `bob-${engine}@example.com`);

    const taken = await askToChange(ada.cookie, `bob-${engine}@example.com`);
    const free = await askToChange(ada.cookie, `ada.new-${engine}@example.com`);
    const shape = (answer: unknown, email: string) =>
      JSON.stringify(answer).replaceAll(email, "<new address>");
    expect(shape(taken, `bob-${engine}@example.com`)).toBe(shape(free, `ada.new-${engine}@example.com`));
    expect(free).toEqual({
      status: 200,
      data: {
        form: "email",
        notice: `Check your inbox at ada.new-${engine}@example.com and open the link we sent within an hour to confirm the change. Until then, your e-mail address stays as it is.`,
        // nothing to show in the form again: it starts empty
        result: { initialValue: null },
      },
    });
    expect(JSON.stringify(taken)).not.toContain("already exists");
    expect(await emailOf(ada.id)).toBe(`ada-${engine}@example.com`);

    // the free address got a link; the taken one nothing
    expect(await linkSentTo(`bob-${engine}@example.com`)).toBeNull();
    const link = await linkSentTo(`ada.new-${engine}@example.com`);
    expect(link?.pathname).toBe("/account/confirm-email");
    expect(await emailOf(ada.id)).toBe(`ada-${engine}@example.com`);

    // opened (in a browser signed in or not): the address changes, once
    const opened = await open(link as URL);
    expect(opened.response?.status).toBe(302);
    expect(opened.response?.headers.get("Location")).toBe("/account");
    expect(await emailOf(ada.id)).toBe(`ada.new-${engine}@example.com`);
    const again = await open(link as URL);
    expect(again).toMatchObject({
      status: 400,
      data: { message: expect.stringMatching(/invalid or has expired/) },
    });
  });

  it("an address taken between the request and the link is refused by the link, and nothing changes", async () => {
    const cy = await signUp("Cy Clone", `cy-${engine}@example.com`);
    await askToChange(cy.cookie, `dee-${engine}@example.com`);
    const link = await linkSentTo(`dee-${engine}@example.com`);
    await signUp("Dee Quick", `dee-${engine}@example.com`);
    const opened = await open(link as URL, cy.cookie);
    expect(opened).toEqual({
      status: 409,
      data: {
        message:
          "This e-mail address now belongs to another account, so it can't be used. Please choose another one in your account settings.",
      },
    });
    expect(await emailOf(cy.id)).toBe(`cy-${engine}@example.com`);
  });

  it("a forged or cut link changes nothing", async () => {
    const eve = await signUp("Eve", `eve-${engine}@example.com`);
    await askToChange(eve.cookie, `eve.new-${engine}@example.com`);
    const link = (await linkSentTo(`eve.new-${engine}@example.com`)) as URL;
    const token = link.searchParams.get("token") ?? "";
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    for (const bad of [forged, token.slice(0, -5), "nonsense"]) {
      const answer = await callRoute(confirm, "action", `${ORIGIN}/account/confirm-email`, {
        fields: { token: bad },
        context: shop.context(),
      });
      expect(answer.status).toBe(400);
    }
    expect(await emailOf(eve.id)).toBe(`eve-${engine}@example.com`);
  });

  it("asking is limited per account (each ask is an e-mail to any address)", async () => {
    const fay = await signUp("Fay", `fay-${engine}@example.com`);
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await askToChange(fay.cookie, `fay${i}-${engine}@example.com`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    await tasks.settleAfterResponseTasks();
  });
});
