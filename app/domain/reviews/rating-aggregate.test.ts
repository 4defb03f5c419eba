import { describe, expect, it } from "vitest";
import { ratingAfter } from "./rating-aggregate.ts";

describe("ratingAfter", () => {
  it("adds a review to the seeded figures", () => {
    expect(ratingAfter({ rating: 0, reviewCount: 0 }, { add: 4 })).toEqual({ rating: 4, reviewCount: 1 });
    expect(ratingAfter({ rating: 4, reviewCount: 1 }, { add: 5 })).toEqual({ rating: 4.5, reviewCount: 2 });
    expect(ratingAfter({ rating: 4.6, reviewCount: 1284 }, { add: 1 })).toEqual({
      rating: 4.597198,
      reviewCount: 1285,
    });
  });

  it("edits and removes by difference", () => {
    expect(ratingAfter({ rating: 4.5, reviewCount: 2 }, { remove: 5, add: 3 })).toEqual({
      rating: 3.5,
      reviewCount: 2,
    });
    expect(ratingAfter({ rating: 3.5, reviewCount: 2 }, { remove: 3 })).toEqual({
      rating: 4,
      reviewCount: 1,
    });
    expect(ratingAfter({ rating: 4, reviewCount: 1 }, { remove: 4 })).toEqual({ rating: 0, reviewCount: 0 });
  });

  it("adding then removing the same review gives the figures back", () => {
    const start = { rating: 4.6, reviewCount: 1284 };
    for (const stars of [1, 2, 3, 4, 5]) {
      expect(ratingAfter(ratingAfter(start, { add: stars }), { remove: stars })).toEqual(start);
    }
  });

  it("lands on whole stars exactly (no 3.9999999)", () => {
    expect(ratingAfter({ rating: 4.5, reviewCount: 2 }, { add: 3 })).toEqual({ rating: 4, reviewCount: 3 });
    expect(ratingAfter({ rating: 0.1 + 0.2, reviewCount: 10 }, { remove: 3 }).rating).toBe(0);
  });

  it("stays within 0–5 when the stored figures are inconsistent", () => {
    expect(ratingAfter({ rating: 0, reviewCount: 0 }, { remove: 4 })).toEqual({ rating: 0, reviewCount: 0 });
    expect(ratingAfter({ rating: 0, reviewCount: 0 }, { remove: 2, add: 5 })).toEqual({
      rating: 5,
      reviewCount: 1,
    });
    expect(ratingAfter({ rating: 5, reviewCount: 1 }, { remove: 1, add: 5 }).rating).toBe(5);
  });
});
