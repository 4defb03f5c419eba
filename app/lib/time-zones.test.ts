import { describe, expect, it } from "vitest";
import { formatDateTimeIn, instantOf, isTimeZone, localOf, timeZoneNames } from "./time-zones.ts";

describe("the shop's time zone", () => {
  it("offers UTC first, then the runtime's IANA names, and knows only those", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(new Set(names).size).toBe(names.length);
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    for (const wrong of ["", "Mars/Olympus_Mons", "europe/berlin ", "+01:00"])
      expect(isTimeZone(wrong)).toBe(false);
  });

  it.each([
    ["2026-12-01T09:00", "UTC", "2026-12-01T09:00:00.000Z"],
    ["2026-12-01T09:00", "Europe/Berlin", "2026-12-01T08:00:00.000Z"],
    ["2026-07-01 09:00", "Europe/Berlin", "2026-07-01T07:00:00.000Z"],
    ["2026-12-01T00:30", "America/New_York", "2026-12-01T05:30:00.000Z"],
    ["2026-12-01T09:00", "Asia/Kolkata", "2026-12-01T03:30:00.000Z"],
    // clocks go forward at 02:00: 02:30 does not exist and is read as 03:30 summer time
    ["2026-03-29T02:30", "Europe/Berlin", "2026-03-29T01:30:00.000Z"],
  ])("reads %s in %s as %s", (local, zone, iso) => {
    expect(instantOf(local, zone)).toBe(iso);
    if (!local.startsWith("2026-03-29T02")) expect(localOf(iso, zone)).toBe(local.replace(" ", "T"));
  });

  it("refuses what is no moment", () => {
    for (const wrong of [
      "",
      "2026-02-30T09:00",
      "2026-13-01T09:00",
      "2026-12-01T24:00",
      "2026-12-01",
      "soon",
    ]) {
      expect(instantOf(wrong, "Europe/Berlin"), wrong).toBeNull();
    }
  });

  it("writes an instant as read in the zone, naming it", () => {
    expect(formatDateTimeIn("2026-12-01T08:00:00.000Z", "Europe/Berlin")).toBe(
      "Dec 1, 2026, 09:00 Europe/Berlin",
    );
    expect(formatDateTimeIn("2026-12-01T03:00:00.000Z", "America/Los_Angeles")).toBe(
      "Nov 30, 2026, 19:00 America/Los_Angeles",
    );
    expect(formatDateTimeIn("2026-12-01T08:00:00.000Z", "UTC")).toBe("Dec 1, 2026, 08:00 UTC");
  });
});
