import { describe, expect, it } from "vitest";
import { estimatedDeliveryDate, formatDeliveryDate } from "./delivery.ts";

describe("estimated delivery", () => {
  it.each([
    ["standard", "2026-11-22T10:00:00Z", "2026-11-27"],
    ["express", "2026-11-22T10:00:00Z", "2026-11-24"],
    ["standard", "2026-12-30T23:30:00Z", "2027-01-04"],
    ["express", "2028-02-28T12:00:00Z", "2028-03-01"],
  ] as const)("%s from %s is %s", (method, now, expected) => {
    expect(estimatedDeliveryDate(method, new Date(now))).toBe(expected);
  });

  it("formats the date for people", () => {
    expect(formatDeliveryDate("2026-11-27")).toBe("Friday, November 27, 2026");
  });
});
