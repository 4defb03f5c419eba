/**
 * The e2e suite's `test`: import { test, expect, visit } from "./fixtures.ts" instead of
 * @playwright/test.
 *
 * - Every test fails if a page logged a console error, threw an uncaught exception or violated the
 *   CSP (hydration errors included). `browserErrors.allow(/pattern/)` tolerates an expected one,
 *   e.g. Chromium's "Failed to load resource: … 404" for a page that is meant to 404.
 * - axe (WCAG 2.2 AA tags) runs on the page a test ends on, unless it already passed on exactly
 *   that state; call `visit(page, path)` to navigate + wait for hydration + axe, and
 *   `expectNoA11yViolations(page)` after opening menus, showing toasts and the like.
 * - `noJsPage` is a page with JavaScript disabled; `visit(noJsPage, path, { javaScript: false })`.
 */
import { createHash } from "node:crypto";
import { createWriteStream, rmSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { createDatabase } from "../../app/db/database.server.ts";
import { startShop } from "../../bench/lib/shop.ts";
import { E2E_BUILD_DIR, ROOT, WORKER_DATA_DIR_ENV, workerDataDir } from "./shop-env.ts";

/** WCAG 2.2 AA as axe-core tags it. */
export const A11Y_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe on the page as it is now and fails with every violation's rule id, impact and the
 * CSS targets of the offending nodes, so a failure says what to fix where.
 */
export async function expectNoA11yViolations(page: Page, label = "") {
  const state = await pageState(page);
  if (passedStates.has(state)) return;
  // axe judges the sticky header as if it were in normal flow, so at some scroll positions it
  // counts the header as covering the buttons under it (target-size "partially obscured"; axe-core
  // issue #3720). Check at the top of the page, then put the scroll position back.
  const scroll = await page.evaluate(() => {
    const position = { left: scrollX, top: scrollY };
    scrollTo({ left: 0, top: 0, behavior: "instant" });
    return position;
  });
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  try {
    // options() replaces the whole option object, so it comes before withTags (which sets runOnly);
    // resultTypes: axe builds selectors only for violations, not for every passing node.
    results = await new AxeBuilder({ page })
      .options({ resultTypes: ["violations"] })
      .withTags(A11Y_TAGS)
      .analyze();
  } finally {
    await page.evaluate((position) => scrollTo({ ...position, behavior: "instant" }), scroll);
  }
  const where = `${label ? `${label} — ` : ""}${page.url()}`;
  const details = results.violations
    .map((v) =>
      [
        `• ${v.id} (${v.impact ?? "n/a"}): ${v.help} — ${v.helpUrl}`,
        ...v.nodes.map(
          (n) => `    ${n.target.join(" ")}\n      ${(n.failureSummary ?? "").replace(/\n/g, "\n      ")}`,
        ),
      ].join("\n"),
    )
    .join("\n");
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    `axe found accessibility violations on ${where}:\n${details}`,
  ).toEqual([]);
  passedStates.add(state);
}

/**
 * The page states axe passed on in this worker. axe's verdict depends on nothing but the state
 * (the same URL, viewport, scroll position, focus and DOM, with the same stylesheets), so a state
 * it passed on once is not checked again: by a later call, the end-of-test check or another test.
 */
const passedStates = new Set<string>();

/** URL, viewport, scroll position, focus and a hash of the DOM: what axe's verdict depends on. */
async function pageState(page: Page): Promise<string> {
  return page.evaluate(() => {
    const html = document.documentElement.outerHTML;
    let hash = 0;
    for (let i = 0; i < html.length; i++) hash = (Math.imul(31, hash) + html.charCodeAt(i)) | 0;
    const active = document.activeElement;
    const focus = active ? `${active.tagName}#${active.id}.${active.textContent?.slice(0, 40)}` : "";
    return [location.href, innerWidth, innerHeight, scrollX, scrollY, focus, html.length, hash].join("|");
  });
}

/**
 * axe needs JavaScript, which a no-JS page cannot run: the page's HTML (what the server sent,
 * untouched by scripts) is served again at the same URL to a scratch page whose own scripts are
 * blocked by CSP, with the same stylesheets and viewport, and axe checks that.
 */
export async function expectNoA11yViolationsWithoutJs(page: Page, label = "") {
  const url = page.url();
  const html = await page.content();
  const state = `${url}|${createHash("sha1").update(html).digest("hex")}`;
  if (passedStates.has(state)) return;
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser for the no-JS axe check");
  const context = await browser.newContext({ viewport: page.viewportSize() });
  try {
    const scratch = await context.newPage();
    await scratch.route(
      (u) => u.href === url,
      (route) =>
        route.fulfill({
          body: html,
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": "script-src 'none'" },
        }),
    );
    await scratch.goto(url);
    await expectNoA11yViolations(scratch, `${label ? `${label}, ` : ""}without JavaScript`);
    passedStates.add(state);
  } finally {
    await context.close();
  }
}

/**
 * Waits until React has hydrated the document (React Router hydrates `document` inside a
 * transition) and its passive effects have run, so client-side behaviour is in place.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((k) => k.startsWith("__reactContainer$"));
    if (!key) return false;
    // biome-ignore lint/suspicious/noExplicitAny: React internals, read only
    const hostRoot = (document as any)[key];
    const state = hostRoot?.stateNode?.current?.memoizedState;
    return Boolean(state) && state.isDehydrated === false;
  });
  // Passive effects of the hydration commit are flushed in a scheduler task; let it run.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/**
 * Navigates, checks the HTTP status, waits for hydration (unless the page runs without
 * JavaScript) and runs axe on the page.
 */
export async function visit(
  page: Page,
  path: string,
  { status = 200, javaScript = true }: { status?: number; javaScript?: boolean } = {},
) {
  const response = await page.goto(path);
  expect(response, `no response for ${path}`).not.toBeNull();
  expect(response?.status(), `HTTP status of ${path}`).toBe(status);
  if (javaScript) {
    await waitForHydration(page);
    await expectNoA11yViolations(page, `after visiting ${path}`);
  } else {
    await expectNoA11yViolationsWithoutJs(page, `after visiting ${path}`);
  }
  return response!;
}

/** Problems the browser reported while a test ran: console errors, uncaught exceptions, CSP. */
export class BrowserErrors {
  readonly messages: string[] = [];
  private readonly allowed: RegExp[] = [];

  /** Tolerates console errors matching the pattern (e.g. the 404 a test asked for). */
  allow(pattern: RegExp) {
    this.allowed.push(pattern);
  }

  watch(page: Page) {
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const text = msg.text();
      const { url } = msg.location();
      const line = `console.error on ${page.url()}: ${text}${url ? ` (${url})` : ""}`;
      if (!this.allowed.some((re) => re.test(line))) this.messages.push(line);
    });
    page.on("pageerror", (error) => {
      this.messages.push(`uncaught exception on ${page.url()}: ${error.stack ?? error.message}`);
    });
  }

  watchContext(context: BrowserContext) {
    for (const page of context.pages()) this.watch(page);
    context.on("page", (page) => this.watch(page));
  }
}

/** Reports CSP violations as console errors even where Chromium would only warn. */
const CSP_REPORTER = () => {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(
      `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
    );
  });
};

async function finish(page: Page, errors: BrowserErrors, testInfo: TestInfo, javaScript = true) {
  const passed = testInfo.status === testInfo.expectedStatus;
  if (passed && !page.isClosed() && page.url().startsWith("http")) {
    // each skips a state axe already passed on
    if (javaScript) {
      await expectNoA11yViolations(page, "final page of the test");
    } else {
      await expectNoA11yViolationsWithoutJs(page, "final page of the test");
    }
  }
  expect(errors.messages, "the browser reported errors").toEqual([]);
}

/** The shop this worker's tests talk to (baseURL), with its own data directory. */
export interface WorkerShop {
  url: string;
  dataDir: string;
}

interface WorkerFixtures {
  shop: WorkerShop;
}

interface Fixtures {
  /** Automatic: the rate-limited attempts counted so far in this worker's shop are forgotten. */
  freshRateLimits: undefined;
  browserErrors: BrowserErrors;
  /** A page in a fresh context with JavaScript disabled: the no-JS (progressive enhancement) path. */
  noJsPage: Page;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // One shop per worker: the production build on a fresh data directory (migrations, demo seed,
  // the demo admin), so tests in other workers never touch its products, carts, orders or mail.
  // Its log (info level, JSON lines) goes to server.log in that directory.
  shop: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here
    async ({}, use, workerInfo) => {
      const dataDir = workerDataDir(workerInfo.workerIndex);
      rmSync(dataDir, { recursive: true, force: true });
      const shop = await startShop(ROOT, E2E_BUILD_DIR, dataDir, [], {
        LOG_LEVEL: "info",
        // short but visible: the checkout e2e sees Place Order's pending state
        PAYMENT_DELAY_MS: "300",
        // the demo catalogue and owner, without the 90 days of demo orders, customers and returns:
        // the specs count the orders, returns and mail they make on a fresh shop
        // (demo-history.spec.ts starts a shop with them)
        SEED_DEMO_HISTORY: "false",
      });
      const log = createWriteStream(join(dataDir, "server.log"), { flags: "a" });
      shop.proc.child.stdout?.pipe(log);
      shop.proc.child.stderr?.pipe(log);
      process.env[WORKER_DATA_DIR_ENV] = dataDir;
      try {
        await use({ url: shop.url, dataDir });
      } finally {
        await shop.stop();
        log.end();
      }
    },
    { scope: "worker", auto: true, timeout: 120_000 },
  ],

  baseURL: async ({ shop }, use) => {
    await use(shop.url);
  },

  // Sign-ins, order look-ups (tracking, guest returns), contact messages, password resets and gift
  // card checks are limited per client address (e.g. 10 look-ups per 15 minutes), and every test of
  // a worker comes from 127.0.0.1: each test starts with none counted, so no test depends on how
  // many the tests before it in its worker made (each limit itself is tested within one test).
  freshRateLimits: [
    async ({ shop }, use) => {
      const db = createDatabase(`file:${join(shop.dataDir, "cartwheel.db")}`);
      try {
        await db.deleteFrom("rateLimits").execute();
      } finally {
        await db.destroy();
      }
      await use(undefined);
    },
    { auto: true },
  ],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here
  browserErrors: async ({}, use) => {
    await use(new BrowserErrors());
  },

  context: async ({ context, browserErrors }, use) => {
    await context.addInitScript(CSP_REPORTER);
    browserErrors.watchContext(context);
    await use(context);
  },

  page: async ({ page, browserErrors }, use, testInfo) => {
    await use(page);
    await finish(page, browserErrors, testInfo);
  },

  noJsPage: async ({ browser, baseURL, browserErrors }, use, testInfo) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    browserErrors.watchContext(context);
    const page = await context.newPage();
    await use(page);
    try {
      await finish(page, browserErrors, testInfo, false);
    } finally {
      await context.close();
    }
  },
});

export { expect };
