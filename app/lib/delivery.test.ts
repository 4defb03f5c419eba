import { describe, expect, it } from "vitest";
import { estimatedDeliveryDate, formatDeliveryDate } from "./delivery.ts";
import { DEFAULT_ZONE } from "./markets.ts";

const method = (code: string) => DEFAULT_ZONE.methods.find((m) => m.code === code)!;

describe("estimated delivery", () => {
  it.each([
    ["standard", "2026-11-22T10:00:00Z", "2026-11-27"],
    ["express", "2026-11-22T10:00:00Z", "2026-11-24"],
    ["standard", "2026-12-30T23:30:00Z", "2027-01-04"],
    ["express", "2028-02-28T12:00:00Z", "2028-03-01"],
  ] as const)("%s from %s is %s", (code, now, expected) => {
    expect(estimatedDeliveryDate(method(code), new Date(now))).toBe(expected);
  });

  it("follows the method's delivery days: the middle of the range", () => {
    const at = new Date("2026-11-22T10:00:00Z");
    expect(estimatedDeliveryDate({ daysMin: 2, daysMax: 3 }, at)).toBe("2026-11-25");
    expect(estimatedDeliveryDate({ daysMin: 1, daysMax: 1 }, at)).toBe("2026-11-23");
  });

  it("formats the date for people", () => {
    expect(formatDeliveryDate("2026-11-27")).toBe("Friday, November 27, 2026");
  });
});
