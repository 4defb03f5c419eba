import { renderToString } from "react-dom/server";
import { createRoutesStub, MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ProductTabs } from "./product-tabs.tsx";
import { clampQuantity, QuantityStepper } from "./quantity-stepper.tsx";
import { ReviewsPanel } from "./reviews-panel.tsx";
import { NO_SPECIFICATIONS, SpecificationsTable } from "./specifications-table.tsx";

/** Server-renders a component inside a router (what a visitor without JavaScript gets). */
function render(element: React.ReactElement): string {
  return renderToString(<MemoryRouter>{element}</MemoryRouter>);
}

/** The same inside a data router (components with <Form> need one). */
function renderWithForms(element: React.ReactElement): string {
  const Stub = createRoutesStub([{ path: "/p", Component: () => element }]);
  return renderToString(<Stub initialEntries={["/p"]} />);
}

describe("SpecificationsTable", () => {
  it("renders the specifications as a table with row headers", () => {
    const html = renderToString(
      <SpecificationsTable
        productName="Phone"
        specifications={[
          { name: "Storage", value: "256 GB" },
          { name: "Battery", value: "4,800 mAh" },
        ]}
      />,
    );
    expect(html).toContain("<table");
    expect(html).toMatch(/<th scope="row"[^>]*>Storage<\/th><td[^>]*>256 GB<\/td>/);
    expect(html).not.toContain(NO_SPECIFICATIONS);
  });

  it("says so when there are none", () => {
    const html = renderToString(<SpecificationsTable productName="Phone" specifications={[]} />);
    // the spec's text, as the shopper reads it
    expect(html).toContain("No specifications available for this product.");
    expect(html).not.toContain("<table");
  });

  it("renders markup in values as text", () => {
    const html = renderToString(
      <SpecificationsTable
        productName="Phone"
        specifications={[{ name: "<b>x</b>", value: "<img src=x>" }]}
      />,
    );
    expect(html).toContain("&lt;img src=x&gt;");
    expect(html).not.toContain("<img");
  });
});

describe("ProductTabs without JavaScript", () => {
  it("renders every panel, stacked, each under its own heading", () => {
    const html = render(
      <ProductTabs
        label="Product information"
        tabs={[
          { id: "description", label: "Description", content: <p>About it</p> },
          { id: "specifications", label: "Specifications", content: <p>Specs</p> },
          { id: "reviews", label: "Reviews", content: <p>Opinions</p> },
        ]}
      />,
    );
    expect(html).not.toContain('role="tablist"');
    for (const [id, label, text] of [
      ["description", "Description", "About it"],
      ["specifications", "Specifications", "Specs"],
      ["reviews", "Reviews", "Opinions"],
    ]) {
      expect(html).toContain(`<section id="${id}"`);
      expect(html).toMatch(new RegExp(`<h2 id="${id}-heading"[^>]*>${label}</h2>`));
      expect(html).toContain(text);
    }
    expect(html).not.toContain("hidden");
  });
});

describe("ReviewsPanel", () => {
  const review = {
    id: 1,
    authorName: "Ann <Admin>",
    rating: 4,
    title: "<script>alert(1)</script>",
    body: "Line one\nLine two <img src=x onerror=alert(2)>",
    helpfulCount: 3,
    createdAt: "2026-11-02T23:30:00.000Z",
  };

  it("shows each review's author, rating, title, date and text, as text", () => {
    const html = renderWithForms(
      <ReviewsPanel
        rating={4.6}
        reviewCount={1284}
        reviews={[review]}
        signInHref="/account?redirectTo=%2Fp%23reviews"
        formAction="/p"
      />,
    );
    expect(html).toContain("Ann &lt;Admin&gt;");
    expect(html).toContain("Rated 4.0 out of 5");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Line two &lt;img src=x onerror=alert(2)&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain('<time dateTime="2026-11-02T23:30:00.000Z">November 2, 2026</time>');
    expect(html).toContain("Based on 1,284 reviews");
    expect(html).toContain("Showing the 1 most recent review.");
    expect(html).toContain("3 people found this helpful.");
    // signed out: a link to sign in, no review form; the vote buttons ask to sign in on the server
    expect(html).toMatch(
      /<a[^>]*href="\/account\?redirectTo=%2Fp%23reviews"[^>]*>.*Sign in to write a review<\/a>/,
    );
    expect(html).not.toContain("Submit Review");
    expect(html).toMatch(/<form[^>]*action="\/p" method="post"/);
    expect(html).toContain('value="helpful"');
    expect(html).toContain('value="report"');
  });

  it("signed in: a review form (rating, title, text), or the own review to edit and delete", () => {
    const writing = renderWithForms(
      <ReviewsPanel
        rating={4.6}
        reviewCount={1284}
        reviews={[review]}
        signInHref="/account"
        formAction="/p"
        viewer={{ ownReview: null, helpful: [1], reported: [] }}
      />,
    );
    expect(writing).toContain("Write a Review");
    expect(writing).toContain("Submit Review");
    expect(writing).not.toContain("Sign in to write a review");
    expect(writing).toMatch(/<legend[^>]*>Rating<\/legend>/);
    expect(writing).toMatch(/<label for="review-title"[^>]*>Title<\/label>/);
    expect(writing).toMatch(/<label for="review-body"[^>]*>Review<\/label>/);
    expect(writing).toContain("You found this helpful.");
    expect(writing).not.toContain('value="helpful"');

    const editing = renderWithForms(
      <ReviewsPanel
        rating={4}
        reviewCount={1}
        reviews={[review]}
        signInHref="/account"
        formAction="/p"
        viewer={{
          ownReview: { id: 1, rating: 4, title: review.title, body: review.body },
          helpful: [],
          reported: [],
        }}
        lastResult={{
          status: "error",
          error: {
            "": ["Please correct the highlighted fields."],
            title: ["Enter a title for your review."],
          },
          initialValue: { intent: "save-review", rating: "2", body: "kept" },
        }}
      />,
    );
    expect(editing).toContain("Edit Your Review");
    expect(editing).toContain("Update Review");
    expect(editing).toContain("Delete Review");
    expect(editing).toContain("Your review");
    expect(editing).toMatch(/<details open="">/);
    expect(editing).toContain('aria-describedby="review-title-error"');
    expect(editing).toContain("Enter a title for your review.");
    expect(editing).toMatch(/<input[^>]*checked="" value="2"/);
    expect(editing).toContain("Please correct the highlighted fields.");
    expect(editing).toMatch(/<textarea[^>]*>kept<\/textarea>/);
    expect(editing).not.toContain('value="helpful"');
  });

  it("has a friendly empty state", () => {
    const html = render(
      <ReviewsPanel rating={0} reviewCount={0} reviews={[]} signInHref="/account" formAction="/p" />,
    );
    expect(html).toContain("No written reviews yet.");
  });
});

describe("QuantityStepper", () => {
  it("is a labelled number input bounded 1..stock, its buttons inert until scripts run", () => {
    const html = renderToString(<QuantityStepper id="q" max={7} />);
    expect(html).toMatch(/<label for="q"[^>]*>Quantity<\/label>/);
    const input = html.match(/<input [^>]*>/)?.[0] ?? "";
    for (const attribute of [
      'id="q"',
      'name="quantity"',
      'type="number"',
      'min="1"',
      'max="7"',
      'value="1"',
      "required",
    ]) {
      expect(input).toContain(attribute);
    }
    expect(html.match(/<button[^>]*disabled=""/g)).toHaveLength(2);
  });

  it.each([
    [0, 7, 1],
    [-3, 7, 1],
    [3, 7, 3],
    [99, 7, 7],
    [2.7, 7, 2],
    [Number.NaN, 7, 1],
    [5, 0, 1],
  ])("clampQuantity(%d, max %d) = %d", (value, max, expected) => {
    expect(clampQuantity(value, max)).toBe(expected);
  });
});
