import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Locator, Page } from "@playwright/test";
import { DEMO_PRODUCTS } from "../../app/db/seed/demo-catalog.ts";
import { CATEGORY_TREE } from "../../app/lib/catalog-constants.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import { shopDataDir } from "./shop-env.ts";

const HELP_PAGES = [
  { path: "/help/shipping", h1: "Shipping Information", nav: "Shipping" },
  { path: "/help/returns", h1: "Returns & Exchanges", nav: "Returns & Exchanges" },
  { path: "/help/faq", h1: "Frequently Asked Questions", nav: "FAQ" },
  { path: "/help/terms", h1: "Terms of Service", nav: "Terms of Service" },
  { path: "/help/privacy", h1: "Privacy Policy", nav: "Privacy Policy" },
  { path: "/help/cookies", h1: "Cookie Policy", nav: "Cookie Policy" },
] as const;

const SENT = "Thanks for your message! We'll reply within one business day.";
const ERRORS = {
  name: "Please enter your name.",
  email: "Please enter a valid e-mail address.",
  subject: "Please enter a subject.",
  message: "Please enter your message.",
  messageTooShort: "Your message must be at least 10 characters.",
};

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });

test.describe("help pages", () => {
  for (const help of HELP_PAGES) {
    test(`${help.path} has its heading, SEO tags and links to every other help page`, async ({
      page,
      baseURL,
    }) => {
      await visit(page, help.path);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(help.h1);
      await expect(page).toHaveTitle(`${help.h1} | Cartwheel`);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${help.path}`);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
        "content",
        `${help.h1} | Cartwheel`,
      );
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
        "content",
        `${baseURL}${help.path}`,
      );
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /^.{40,160}$/);

      const topics = page.getByRole("navigation", { name: "Help topics" });
      for (const other of HELP_PAGES) {
        const link = topics.getByRole("link", { name: other.nav, exact: true });
        await expect(link).toHaveAttribute("href", other.path);
        if (other.path === help.path) await expect(link).toHaveAttribute("aria-current", "page");
        else await expect(link).not.toHaveAttribute("aria-current");
      }
      await expect(topics.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
      await expect(
        page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Help Center" }),
      ).toHaveAttribute("href", "/help");
    });
  }

  test("shipping states the spec's delivery times and prices", async ({ page }) => {
    await visit(page, "/help/shipping");
    const main = page.getByRole("main");
    const standard = main.getByRole("row", { name: /Standard Shipping/ });
    await expect(standard).toContainText("4-6 business days");
    await expect(standard).toContainText("Free on orders of $50.00 or more, otherwise $4.99");
    const express = main.getByRole("row", { name: /Express Shipping/ });
    await expect(express).toContainText("1-3 business days");
    await expect(express).toContainText("$9.99 flat rate");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      "Standard shipping in 4-6 business days, free on orders of $50.00 or more; express in 1-3 business days for $9.99.",
    );
    await expect(main.getByRole("link", { name: "returns policy" })).toHaveAttribute("href", "/help/returns");
  });

  test("returns promises 30 days for a full refund", async ({ page }) => {
    await visit(page, "/help/returns");
    const main = page.getByRole("main");
    await expect(main).toContainText("within 30 days of delivery for a full refund");
    await expect(main.getByRole("heading", { level: 2, name: "Our 30-day promise" })).toBeVisible();
    await expect(main.getByRole("link", { name: "FAQ" }).last()).toHaveAttribute("href", "/help/faq");
  });

  test("the FAQ answers open and close, and quote the shop's constants", async ({ page }) => {
    await visit(page, "/help/faq");
    const main = page.getByRole("main");
    const question = main.locator("details", { hasText: "How much does shipping cost?" });
    const answer = question.getByText(/Standard Shipping is free on orders of \$50\.00 or more/);
    await expect(answer).toBeHidden();
    await question.locator("summary").click();
    await expect(question).toHaveAttribute("open", "");
    await expect(answer).toBeVisible();
    await expect(answer).toContainText("costs $4.99 below that");
    await expect(answer).toContainText("Express Shipping costs $9.99 flat");
    await expectNoA11yViolations(page, "FAQ answer open");
    await question.locator("summary").click();
    await expect(answer).toBeHidden();

    // The keyboard opens them too.
    const returns = main.locator("details", { hasText: "What is your return policy?" });
    await returns.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(returns).toHaveAttribute("open", "");
    await expect(returns.getByText("within 30 days of delivery for a full refund")).toBeVisible();
    await expect(returns.getByRole("link", { name: "Returns & Exchanges" })).toHaveAttribute(
      "href",
      "/help/returns",
    );
    await expect(main.locator("details")).toHaveCount(14);
  });

  test("the cookie policy lists only the necessary cookies the shop sets", async ({ page }) => {
    await visit(page, "/help/cookies");
    const main = page.getByRole("main");
    await expect(main).toContainText("We use only strictly necessary cookies");
    const rows = main.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(4); // header + cart, session, messages
    await expect(main.getByRole("rowheader")).toHaveText(["Cart", "Session", "Messages"]);
  });

  test("terms and privacy carry a last-updated date and link to each other", async ({ page }) => {
    await visit(page, "/help/terms");
    await expect(page.getByRole("main").getByText(/^Last updated /)).toBeVisible();
    await page.getByRole("main").getByRole("article").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL("/help/privacy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
    await expect(page.getByRole("main").getByText(/^Last updated /)).toBeVisible();
  });

  test("the help centre lists every page, and an unknown help page is a 404", async ({
    page,
    browserErrors,
  }) => {
    browserErrors.allow(/Failed to load resource: the server responded with a status of 404/);
    await visit(page, "/help");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Help Center");
    for (const help of HELP_PAGES) {
      // Each card's link is named by the page's title followed by its summary.
      await expect(
        page.getByRole("main").getByRole("link", { name: new RegExp(`^${help.h1} \\S`) }),
      ).toHaveAttribute("href", help.path);
    }
    await visit(page, "/help/warranty", { status: 404 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
  });

  test("the footer reaches each help page", async ({ page }) => {
    await visit(page, "/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Cookie Policy" }).click();
    await expect(page).toHaveURL("/help/cookies");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cookie Policy");
  });
});

/** Reads the contact messages this worker's shop stored (fixtures.ts). */
function storedMessages(subject: string) {
  const db = new DatabaseSync(join(shopDataDir(), "cartwheel.db"), { readOnly: true });
  try {
    return db
      .prepare("select name, email, subject, message from contact_messages where subject = ?")
      .all(subject) as Array<{ name: string; email: string; subject: string; message: string }>;
  } finally {
    db.close();
  }
}

const uniqueSubject = (tag: string) => `E2E ${tag} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

function contactForm(page: Page) {
  const form = page
    .getByRole("main")
    .locator("form", { has: page.getByRole("button", { name: "Send Message" }) });
  return {
    form,
    name: form.getByRole("textbox", { name: "Name" }),
    email: form.getByRole("textbox", { name: "Email" }),
    subject: form.getByRole("textbox", { name: "Subject" }),
    message: form.getByRole("textbox", { name: "Message" }),
    send: form.getByRole("button", { name: "Send Message" }),
  };
}

async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message);
}

async function expectShopDetails(page: Page) {
  const details = page.getByRole("main").getByRole("region", { name: "Get in touch" });
  await expect(details.getByRole("link", { name: "hello@cartwheel.example" })).toHaveAttribute(
    "href",
    "mailto:hello@cartwheel.example",
  );
  await expect(details.getByRole("link", { name: "+1 (555) 010-0199" })).toHaveAttribute(
    "href",
    "tel:+15550100199",
  );
  await expect(details).toContainText("100 Market Street, Springfield, USA");
}

test.describe("contact form", () => {
  test("shows the shop's contact details and every field with a visible label", async ({ page }) => {
    await visit(page, "/contact");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
    await expect(page).toHaveTitle("Contact Us | Cartwheel");
    await expectShopDetails(page);
    const f = contactForm(page);
    for (const [label, input] of [
      ["Name", f.name],
      ["Email", f.email],
      ["Subject", f.subject],
      ["Message", f.message],
    ] as const) {
      await expect(f.form.locator("label", { hasText: new RegExp(`^${label}$`) })).toBeVisible();
      await expect(input).toBeVisible();
      await expect(input).toHaveAttribute("maxlength", /^\d+$/);
    }
  });

  test("an empty form shows a message beside each field and keeps what was typed", async ({
    page,
    browserErrors,
  }) => {
    browserErrors.allow(/Failed to load resource: the server responded with a status of 400/);
    await visit(page, "/contact");
    const f = contactForm(page);
    const response = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().includes("/contact"),
    );
    await f.send.click();
    expect((await response).status()).toBe(400);
    await expectFieldError(f.name, ERRORS.name);
    await expectFieldError(f.email, ERRORS.email);
    await expectFieldError(f.subject, ERRORS.subject);
    await expectFieldError(f.message, ERRORS.message);
    await expect(f.name).toBeFocused();
    await expect(page).toHaveURL("/contact");
    await expect(notifications(page).getByRole("status")).toHaveCount(0);
    await expectNoA11yViolations(page, "contact form errors");

    // Fix some fields: the rest still report, and what was typed stays.
    await f.name.fill("Jane Doe");
    await f.email.fill("not-an-email");
    await f.message.fill("Too short");
    await f.send.click();
    await expect(f.name).toHaveValue("Jane Doe");
    await expect(f.name).not.toHaveAttribute("aria-invalid");
    await expectFieldError(f.email, ERRORS.email);
    await expect(f.email).toHaveValue("not-an-email");
    await expectFieldError(f.message, ERRORS.messageTooShort);
    await expect(f.message).toHaveValue("Too short");
    await expect(f.email).toBeFocused();
  });

  test("a valid message is stored and confirmed with a toast, and the form is cleared", async ({ page }) => {
    await visit(page, "/contact");
    const f = contactForm(page);
    const subject = uniqueSubject("js");
    await f.name.fill("Jane Doe");
    await f.email.fill("jane@example.com");
    await f.subject.fill(subject);
    await f.message.fill("Hello!\nWhere is my order CW-1234? It was due yesterday.");
    await f.send.click();

    const toast = notifications(page).getByRole("status").filter({ hasText: SENT });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute("data-toast-type", "success");
    await expect(page).toHaveURL("/contact");
    await expect(f.subject).toHaveValue("");
    await expect(f.message).toHaveValue("");
    expect(storedMessages(subject)).toEqual([
      {
        name: "Jane Doe",
        email: "jane@example.com",
        subject,
        message: "Hello!\nWhere is my order CW-1234? It was due yesterday.",
      },
    ]);
    await expectNoA11yViolations(page, "contact message sent");
  });

  test("without JavaScript, an incomplete form answers 400 with errors beside the fields and values kept", async ({
    noJsPage: page,
    browserErrors,
  }) => {
    browserErrors.allow(/status of 400/);
    await visit(page, "/contact", { javaScript: false });
    await expectShopDetails(page);
    const f = contactForm(page);
    const subject = uniqueSubject("nojs-invalid");

    await f.name.fill("  Sam Smith ");
    await f.subject.fill(subject);
    await f.message.fill("Hi");
    const response = page.waitForResponse((r) => r.request().method() === "POST");
    await f.send.click();
    expect((await response).status()).toBe(400);
    await expect(page).toHaveURL("/contact");
    await expectFieldError(f.email, ERRORS.email);
    await expectFieldError(f.message, ERRORS.messageTooShort);
    await expect(f.name).toHaveValue("  Sam Smith ");
    await expect(f.name).not.toHaveAttribute("aria-invalid");
    await expect(f.subject).toHaveValue(subject);
    await expect(f.message).toHaveValue("Hi");
    await expect(page.getByRole("main").getByRole("alert")).toContainText(
      "Please correct the highlighted fields",
    );
    expect(storedMessages(subject)).toEqual([]);
    // (the fixture runs axe on this error state, as served without JavaScript)
  });

  test("without JavaScript, a valid message redirects back with the toast, and each message is stored", async ({
    noJsPage: page,
  }) => {
    await visit(page, "/contact", { javaScript: false });
    const f = contactForm(page);
    const subject = uniqueSubject("nojs");

    await f.name.fill("  Sam Smith ");
    await f.email.fill("sam@example.com");
    await f.subject.fill(subject);
    await f.message.fill("I'd like to return a lamp I bought last week.");
    const sent = page.waitForResponse((r) => r.request().method() === "POST");
    await f.send.click();
    expect((await sent).status()).toBe(302);
    await expect(page).toHaveURL("/contact");
    await expect(notifications(page).getByRole("status")).toHaveText(SENT);
    await expect(f.name).toHaveValue("");
    expect(storedMessages(subject)).toEqual([
      {
        name: "Sam Smith",
        email: "sam@example.com",
        subject,
        message: "I'd like to return a lamp I bought last week.",
      },
    ]);

    // A second message is a second row.
    await f.name.fill("Sam Smith");
    await f.email.fill("sam@example.com");
    await f.subject.fill(subject);
    await f.message.fill("Sorry, one more thing: it's the blue one.");
    await f.send.click();
    await expect(notifications(page).getByRole("status")).toHaveText(SENT);
    expect(storedMessages(subject)).toHaveLength(2);
  });

  test("a subject can be prefilled from the link, e.g. from the returns page", async ({ page }) => {
    await visit(page, "/contact?subject=Return");
    await expect(contactForm(page).subject).toHaveValue("Return");
  });
});

test.describe("sitemaps and robots.txt", () => {
  test("/sitemap.xml is a valid urlset of absolute URLs including every product", async ({
    page,
    request,
    baseURL,
  }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/xml/);
    const xml = await response.text();

    await page.goto("about:blank");
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      const error = doc.getElementsByTagName("parsererror")[0]?.textContent ?? null;
      const root = doc.documentElement;
      const ns = "http://www.sitemaps.org/schemas/sitemap/0.9";
      const urls = [...doc.getElementsByTagNameNS(ns, "url")];
      return {
        error,
        root: root.localName,
        namespace: root.namespaceURI,
        urls: urls.map((url) => ({
          loc: url.getElementsByTagNameNS(ns, "loc")[0]?.textContent ?? "",
          lastmod: url.getElementsByTagNameNS(ns, "lastmod")[0]?.textContent ?? null,
          children: [...url.children].map((c) => c.localName),
        })),
      };
    }, xml);

    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe("urlset");
    expect(parsed.namespace).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const locs = parsed.urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const url of parsed.urls) {
      expect(url.loc.startsWith(`${baseURL}/`), url.loc).toBe(true);
      expect(url.children.every((c) => c === "loc" || c === "lastmod")).toBe(true);
      if (url.lastmod) expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const path of [
      "/",
      "/products",
      "/products/new-arrivals",
      "/products/deals",
      "/products?category=home&subcategory=garden",
      ...HELP_PAGES.map((h) => h.path),
      "/contact",
    ]) {
      expect(locs).toContain(`${baseURL}${path}`);
    }
    for (const product of DEMO_PRODUCTS) expect(locs).toContain(`${baseURL}/products/${product.slug}`);
    const productUrls = parsed.urls.filter(
      (u) => /\/products\/[^/?]+$/.test(u.loc) && !/new-arrivals|deals$/.test(u.loc),
    );
    expect(productUrls.length).toBeGreaterThanOrEqual(DEMO_PRODUCTS.length);
    expect(productUrls.every((u) => u.lastmod)).toBe(true);
    expect(locs.some((loc) => /\/(cart|checkout|account|admin)\b/.test(loc))).toBe(false);
  });

  test("/robots.txt allows all but the private areas and names the sitemap", async ({ request, baseURL }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(
      [
        "User-agent: *",
        "Allow: /",
        "Disallow: /cart",
        "Disallow: /checkout",
        "Disallow: /account",
        "Disallow: /admin",
        "",
        `Sitemap: ${baseURL}/sitemap.xml`,
        "",
      ].join("\n"),
    );
  });

  test("/sitemap links every section, category, subcategory, help page and product", async ({ page }) => {
    await visit(page, "/sitemap");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Sitemap");
    const categories = main.getByRole("region", { name: "Categories" });
    for (const category of CATEGORY_TREE) {
      await expect(categories.getByRole("link", { name: category.name, exact: true })).toHaveAttribute(
        "href",
        `/products?category=${category.id}`,
      );
      for (const sub of category.subcategories) {
        await expect(
          categories.locator(`a[href="/products?category=${category.id}&subcategory=${sub.id}"]`),
        ).toHaveText(sub.name);
      }
    }
    const service = main.getByRole("region", { name: "Customer Service" });
    for (const help of HELP_PAGES) {
      await expect(service.getByRole("link", { name: help.h1 })).toHaveAttribute("href", help.path);
    }
    const products = main.getByRole("region", { name: "Products" });
    for (const product of DEMO_PRODUCTS) {
      await expect(products.getByRole("link", { name: product.name })).toHaveAttribute(
        "href",
        `/products/${product.slug}`,
      );
    }
  });
});
