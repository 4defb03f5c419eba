import { describe, expect, it } from "vitest";
import { estimatedDeliveryDate, formatDeliveryDate } from "./delivery.ts";
import { DEFAULT_PRICING } from "./pricing.ts";

describe("estimated delivery", () => {
  it.each([
    ["standard", "2026-11-22T10:00:00Z", "2026-11-27"],
    ["express", "2026-11-22T10:00:00Z", "2026-11-24"],
    ["standard", "2026-12-30T23:30:00Z", "2027-01-04"],
    ["express", "2028-02-28T12:00:00Z", "2028-03-01"],
  ] as const)("%s from %s is %s", (method, now, expected) => {
    expect(estimatedDeliveryDate(DEFAULT_PRICING, method, new Date(now))).toBe(expected);
  });

  it("follows the shop's delivery days: the middle of the range", () => {
    const pricing = { ...DEFAULT_PRICING, standardDays: { min: 2, max: 3 }, expressDays: { min: 1, max: 1 } };
    expect(estimatedDeliveryDate(pricing, "standard", new Date("2026-11-22T10:00:00Z"))).toBe("2026-11-25");
    expect(estimatedDeliveryDate(pricing, "express", new Date("2026-11-22T10:00:00Z"))).toBe("2026-11-23");
  });

  it("formats the date for people", () => {
    expect(formatDeliveryDate("2026-11-27")).toBe("Friday, November 27, 2026");
  });
});
