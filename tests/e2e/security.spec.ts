import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";

function parseCsp(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

test.describe("security headers", () => {
  test("the document carries a nonce-based CSP and the other security headers", async ({ page }) => {
    const response = await visit(page, "/");
    const headers = response.headers();

    const csp = headers["content-security-policy"];
    expect(csp, "Content-Security-Policy header").toBeTruthy();
    const directives = parseCsp(csp!);
    const scriptSrc = directives.get("script-src");
    expect(scriptSrc, "script-src directive").toBeDefined();
    const nonces = scriptSrc!.filter((v) => /^'nonce-[A-Za-z0-9+/_=-]{16,}'$/.test(v));
    expect(nonces, "one nonce in script-src").toHaveLength(1);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(directives.get("frame-ancestors"), "frame-ancestors directive").toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);

    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");

    // Every script in the HTML carries this response's nonce.
    const nonce = nonces[0]!.slice("'nonce-".length, -1);
    const html = await response.text();
    const scriptTags = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scriptTags.length).toBeGreaterThan(0);
    for (const tag of scriptTags) expect(tag, "script tag carries the nonce").toContain(`nonce="${nonce}"`);
  });

  test("every response gets a fresh nonce", async ({ request }) => {
    const nonceOf = async () => {
      const response = await request.get("/");
      return /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
    };
    const [first, second] = [await nonceOf(), await nonceOf()];
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(first).not.toBe(second);
  });

  test("the 404 page carries the same headers", async ({ request }) => {
    const response = await request.get("/does-not-exist");
    expect(response.status()).toBe(404);
    const headers = response.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src [^;]*'nonce-/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
  });

  test("no CSP violation while pages load, hydrate and are used", async ({ page, browserErrors }) => {
    browserErrors.allow(/Failed to load resource: the server responded with a status of 404/);
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text());
    });

    await visit(page, "/");
    const toggle = page
      .getByRole("navigation", { name: "Categories" })
      .locator("summary", { hasText: "All Categories" });
    await toggle.click();
    await expect(page.getByTestId("mega-menu")).toBeVisible();
    await expectNoA11yViolations(page, "mega menu open");
    await page.keyboard.press("Escape");

    await visit(page, "/does-not-exist", { status: 404 });
    await page.getByRole("main").getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Featured Products" })).toBeVisible();

    expect(violations).toEqual([]);
  });
});
