import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertSafeKey, createFileStore, createLocalFileStore, type FileStore } from "./file-store.server.ts";

let root: string;
let store: FileStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cartwheel-files-"));
  store = createLocalFileStore(join(root, "uploads"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const UNSAFE = [
  "../x",
  "/etc/passwd",
  "a/../../b",
  "UPPER",
  "",
  "products/..",
  ".hidden",
  "a\\b",
  "a b",
  "x".repeat(202),
];

describe("local file store", () => {
  it("round-trips put, get and delete, creating folders as needed", async () => {
    const bytes = new Uint8Array([1, 2, 3, 250]);
    await store.put("products/abc-1-320.webp", bytes, "image/webp");
    expect(readFileSync(join(root, "uploads", "products", "abc-1-320.webp"))).toEqual(Buffer.from(bytes));
    expect(new Uint8Array((await store.get("products/abc-1-320.webp"))!)).toEqual(bytes);

    await store.put("products/abc-1-320.webp", new Uint8Array([9]), "image/webp");
    expect(new Uint8Array((await store.get("products/abc-1-320.webp"))!)).toEqual(new Uint8Array([9]));

    await store.delete("products/abc-1-320.webp");
    expect(await store.get("products/abc-1-320.webp")).toBeNull();
    await expect(store.delete("products/abc-1-320.webp")).resolves.toBeUndefined();
  });

  it("returns null for a missing key", async () => {
    expect(await store.get("products/never-written.webp")).toBeNull();
  });

  it.each(UNSAFE)("rejects the unsafe key %j on put, get and delete", async (key) => {
    expect(() => assertSafeKey(key)).toThrow(/unsafe/i);
    await expect(store.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow(/unsafe/i);
    await expect(store.get(key)).rejects.toThrow(/unsafe/i);
    await expect(store.delete(key)).rejects.toThrow(/unsafe/i);
  });

  it("never touches files outside its directory", async () => {
    const outside = join(root, "secret.txt");
    writeFileSync(outside, "keep me");
    await expect(store.delete("../secret.txt")).rejects.toThrow();
    await expect(store.get("../secret.txt")).rejects.toThrow();
    expect(existsSync(outside)).toBe(true);
  });

  it("accepts ordinary keys", () => {
    for (const key of ["a", "products/kestrel-x12-1-0a1b2c3d-960.webp", "x/y_z.webp"]) {
      expect(() => assertSafeKey(key)).not.toThrow();
    }
  });
});

describe("createFileStore", () => {
  it("opens a local store for a file: URL", async () => {
    const files = createFileStore(`file:${join(root, "via-url")}`);
    await files.put("k.bin", new Uint8Array([7]), "application/octet-stream");
    expect(readFileSync(join(root, "via-url", "k.bin"))).toEqual(Buffer.from([7]));
  });
});
