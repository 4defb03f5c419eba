import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeFileStore } from "../../../tests/helpers/file-store-contract.ts";
import { createFileStore, createLocalFileStore } from "./file-store.server.ts";
import { assertSafeKey, type FileStore } from "./file-store.ts";
import { parseFileStoreUrl } from "./file-store-url.ts";

let root: string;
let store: FileStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cartwheel-files-"));
  store = createLocalFileStore(join(root, "uploads"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describeFileStore("local file store", () => store);

describe("local file store", () => {
  it("writes under its directory, creating folders as needed", async () => {
    const bytes = new Uint8Array([1, 2, 3, 250]);
    await store.put("products/abc-1-320.webp", bytes, "image/webp");
    expect(readFileSync(join(root, "uploads", "products", "abc-1-320.webp"))).toEqual(Buffer.from(bytes));
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

  it("refuses a scheme it does not know", () => {
    expect(() => createFileStore("ftp://x")).toThrow(/file: or s3:\/\//);
  });
});

describe("parseFileStoreUrl", () => {
  it.each([
    ["file:./data/uploads", { kind: "file", directory: "./data/uploads" }],
    ["file:///srv/uploads", { kind: "file", directory: "/srv/uploads" }],
    ["s3://cartwheel-images", { kind: "s3", bucket: "cartwheel-images", prefix: "" }],
    ["s3://cartwheel-images/", { kind: "s3", bucket: "cartwheel-images", prefix: "" }],
    [
      "s3://cartwheel.images/shop/uploads",
      { kind: "s3", bucket: "cartwheel.images", prefix: "shop/uploads" },
    ],
  ])("reads %s", (url, location) => {
    expect(parseFileStoreUrl(url)).toEqual(location);
  });

  it.each([
    ["s3://", /bucket name/],
    ["s3://ab", /bucket name/],
    ["s3://Upper-Case", /bucket name/],
    ["s3://bucket_underscore", /bucket name/],
    ["s3://a..b", /bucket name/],
    ["s3://bucket/../up", /prefix/],
    ["s3://bucket//double", /prefix/],
    ["s3://bucket/with space", /prefix/],
    ["http://bucket", /must start with/],
  ])("refuses %s with a clear message", (url, message) => {
    expect(() => parseFileStoreUrl(url)).toThrow(message);
  });
});
