import { describe, expect, it } from "vitest";
import { type BackupSettings, backupDue, lastDueAt, nextDueAt } from "./backup-schedule.server.ts";

const at = (iso: string) => new Date(iso);
const settings = (changes: Partial<BackupSettings> = {}): BackupSettings => ({
  enabled: true,
  hourUtc: 2,
  keepCount: 7,
  destination: "",
  updatedAt: "2026-11-01T00:00:00.000Z",
  ...changes,
});

describe("when the daily backup is due", () => {
  it("the last due moment is today's hour once it has come, else yesterday's", () => {
    expect(lastDueAt(2, at("2026-11-28T02:00:00.000Z")).toISOString()).toBe("2026-11-28T02:00:00.000Z");
    expect(lastDueAt(2, at("2026-11-28T23:59:00.000Z")).toISOString()).toBe("2026-11-28T02:00:00.000Z");
    expect(lastDueAt(2, at("2026-11-28T01:59:59.999Z")).toISOString()).toBe("2026-11-27T02:00:00.000Z");
    expect(lastDueAt(0, at("2026-01-01T00:30:00.000Z")).toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(lastDueAt(23, at("2026-01-01T00:30:00.000Z")).toISOString()).toBe("2025-12-31T23:00:00.000Z");
  });

  it("is due at the hour when no scheduled backup ran since the last due moment", () => {
    expect(backupDue(settings(), null, at("2026-11-28T02:00:00.000Z"))).toBe(true);
    expect(backupDue(settings(), "2026-11-27T02:00:05.000Z", at("2026-11-28T02:10:00.000Z"))).toBe(true);
    expect(backupDue(settings(), "2026-11-28T02:00:05.000Z", at("2026-11-28T02:10:00.000Z"))).toBe(false);
    expect(backupDue(settings(), "2026-11-28T02:00:05.000Z", at("2026-11-29T01:59:00.000Z"))).toBe(false);
  });

  it("catches up after the shop was down at the hour", () => {
    expect(backupDue(settings(), "2026-11-26T02:00:05.000Z", at("2026-11-28T01:00:00.000Z"))).toBe(true);
  });

  it("is never due while off, nor for a moment that passed before the settings were saved", () => {
    expect(backupDue(settings({ enabled: false }), null, at("2026-11-28T03:00:00.000Z"))).toBe(false);
    const savedAfternoon = settings({ updatedAt: "2026-11-28T15:00:00.000Z" });
    expect(backupDue(savedAfternoon, null, at("2026-11-28T15:05:00.000Z"))).toBe(false);
    expect(backupDue(savedAfternoon, null, at("2026-11-29T02:00:00.000Z"))).toBe(true);
  });

  it("says when the next one is", () => {
    expect(nextDueAt(settings({ enabled: false }), null, at("2026-11-28T03:00:00.000Z"))).toBeNull();
    const now = at("2026-11-28T03:00:00.000Z");
    expect(nextDueAt(settings(), "2026-11-28T02:00:01.000Z", now)?.toISOString()).toBe(
      "2026-11-29T02:00:00.000Z",
    );
    expect(nextDueAt(settings(), null, now)).toEqual(now);
  });
});
