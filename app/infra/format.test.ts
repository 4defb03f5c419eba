import { describe, expect, it } from "vitest";
import { formatCount, formatLongDate, formatLongDateWithWeekday, formatShortDate } from "./format.ts";

const counts = [
  0, 1, 7, 12, 999, 1_000, 1_001, 9_999, 12_345, 100_000, 999_999, 1_000_000, 62_907, 1_234_567_890,
];

describe("formatCount", () => {
  it.each(counts)("%i is written as Intl writes it", (n) => {
    expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
    expect(formatCount(-n)).toBe((-n).toLocaleString("en-US").replace("-0", "0"));
  });
});

describe("long dates", () => {
  const long = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  const short = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  const withWeekday = new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  // every day of two years (one a leap year), at the start and the end of the UTC day
  const days = Array.from({ length: 731 }, (_, i) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000));

  it("formats every day as Intl does, whatever the time of day", () => {
    for (const day of days) {
      for (const iso of [day.toISOString(), new Date(day.getTime() + 86_399_999).toISOString()]) {
        expect(formatLongDate(iso), iso).toBe(long.format(new Date(iso)));
        expect(formatLongDateWithWeekday(iso), iso).toBe(withWeekday.format(new Date(iso)));
        expect(formatShortDate(iso), iso).toBe(short.format(new Date(iso)));
      }
      const date = day.toISOString().slice(0, 10);
      expect(formatLongDate(date), date).toBe(long.format(day));
      expect(formatLongDateWithWeekday(date), date).toBe(withWeekday.format(day));
    }
  });

  it("reads the examples of the spec's pages", () => {
    expect(formatLongDate("2026-11-23T17:05:00.000Z")).toBe("November 23, 2026");
    expect(formatLongDateWithWeekday("2026-11-27")).toBe("Friday, November 27, 2026");
  });
});
