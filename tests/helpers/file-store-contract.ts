import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertSafeKey, type FileStore } from "../../app/adapters/files/file-store.ts";

/** Keys every store must refuse (path tricks, upper case, spaces, too long). */
export const UNSAFE_KEYS = [
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

/**
 * The behaviour every FileStore shares, run against each implementation (local directory, S3):
 * `open` gives a fresh, empty store for each test and `close` cleans it up.
 */
export function describeFileStore(
  name: string,
  open: () => Promise<FileStore> | FileStore,
  close: () => Promise<void> | void = () => {},
): void {
  describe(`${name}: FileStore behaviour`, () => {
    let store: FileStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await close();
    });

    it("round-trips put, get and delete", async () => {
      const bytes = new Uint8Array([1, 2, 3, 250]);
      await store.put("products/abc-1-320.webp", bytes, "image/webp");
      expect(new Uint8Array((await store.get("products/abc-1-320.webp"))!)).toEqual(bytes);

      await store.delete("products/abc-1-320.webp");
      expect(await store.get("products/abc-1-320.webp")).toBeNull();
    });

    it("overwrites a key with the latest bytes", async () => {
      await store.put("products/k-320.webp", new Uint8Array([1, 2, 3]), "image/webp");
      await store.put("products/k-320.webp", new Uint8Array([9]), "image/webp");
      expect(new Uint8Array((await store.get("products/k-320.webp"))!)).toEqual(new Uint8Array([9]));
    });

    it("returns null for a missing key, and deleting one succeeds", async () => {
      expect(await store.get("products/never-written.webp")).toBeNull();
      await expect(store.delete("products/never-written.webp")).resolves.toBeUndefined();
    });

    it("round-trips binary content byte for byte (every byte value, 1 MB)", async () => {
      const bytes = new Uint8Array(1024 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
      bytes.set([0, 0xff, 0x0d, 0x0a, 0x00, 0x1a], 0);
      await store.put("products/big.bin", bytes, "application/octet-stream");
      const read = await store.get("products/big.bin");
      expect(read?.length).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(read!), Buffer.from(bytes))).toBe(0);
    });

    it("keeps keys apart, nested folders included", async () => {
      await store.put("a", new Uint8Array([1]), "application/octet-stream");
      await store.put("x/y_z.webp", new Uint8Array([2]), "image/webp");
      await store.put("x/y/z.webp", new Uint8Array([3]), "image/webp");
      expect([...(await store.get("a"))!]).toEqual([1]);
      expect([...(await store.get("x/y_z.webp"))!]).toEqual([2]);
      expect([...(await store.get("x/y/z.webp"))!]).toEqual([3]);
      await store.delete("x/y_z.webp");
      expect([...(await store.get("x/y/z.webp"))!]).toEqual([3]);
    });

    it("lists every key it holds, nested ones included, and none it deleted", async () => {
      const listed = async () => {
        const keys: string[] = [];
        for await (const key of store.list()) keys.push(key);
        return keys.sort();
      };
      expect(await listed()).toEqual([]);
      await store.put("a", new Uint8Array([1]), "application/octet-stream");
      await store.put("products/p-1-320.webp", new Uint8Array([2]), "image/webp");
      await store.put("products/deep/er/p-2-960.webp", new Uint8Array([3]), "image/webp");
      await store.put("products/gone.webp", new Uint8Array([4]), "image/webp");
      await store.delete("products/gone.webp");
      expect(await listed()).toEqual(["a", "products/deep/er/p-2-960.webp", "products/p-1-320.webp"]);
      // what it lists, it gives back
      for (const key of await listed()) expect(await store.get(key)).not.toBeNull();
    });

    it.each(UNSAFE_KEYS)("rejects the unsafe key %j on put, get and delete", async (key) => {
      expect(() => assertSafeKey(key)).toThrow(/unsafe/i);
      await expect(store.put(key, new Uint8Array([1]), "text/plain")).rejects.toThrow(/unsafe/i);
      await expect(store.get(key)).rejects.toThrow(/unsafe/i);
      await expect(store.delete(key)).rejects.toThrow(/unsafe/i);
    });
  });
}
