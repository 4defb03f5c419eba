import { describe, expect, it } from "vitest";
import { formatBytes } from "./backup-form.ts";
import { archiveName, archivesBeyond, isArchiveName } from "./backup-names.ts";

describe("backup archive names", () => {
  it("name the moment a backup began, sort as the times do, and are recognised", () => {
    const name = archiveName(new Date("2026-11-28T02:00:03.456Z"), "1a2b3c");
    expect(name).toBe("cartwheel-backup-2026-11-28T020003Z-1a2b3c.tar.gz");
    expect(isArchiveName(name)).toBe(true);
    const later = archiveName(new Date("2026-11-28T10:00:00.000Z"), "000000");
    expect([later, name].sort()).toEqual([name, later]);
  });

  it.each([
    "cartwheel-backup-2026-11-28T020003Z-1a2b3c.tar.gz.partial",
    "cartwheel-backup-2026-11-28T020003Z-1a2b3c.tar.gz.work",
    "../cartwheel-backup-2026-11-28T020003Z-1a2b3c.tar.gz",
    "cartwheel-backup-2026-11-28T020003Z-1A2B3C.tar.gz",
    "cartwheel.db",
    "",
  ])("refuses %j", (name) => {
    expect(isArchiveName(name)).toBe(false);
  });

  it("keeps the newest archives and names the rest, leaving other files alone", () => {
    const day = (d: number) => archiveName(new Date(Date.UTC(2026, 10, d, 2)), "abcdef");
    const names = [day(3), "notes.txt", day(1), day(4), day(2), `${day(5)}.partial`];
    expect(archivesBeyond(names, 2)).toEqual([day(2), day(1)]);
    expect(archivesBeyond(names, 10)).toEqual([]);
    expect(archivesBeyond(names, 0)).toEqual([day(4), day(3), day(2), day(1)]);
  });

  it("writes sizes the way the page shows them", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1023)).toBe("1023 bytes");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(122_000_000)).toBe("116.3 MB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GB");
  });
});
