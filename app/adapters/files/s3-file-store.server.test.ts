import { randomUUID } from "node:crypto";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerApp } from "../../../server/app.ts";
import type { AppEntry } from "../../../server/app-entry.ts";
import { describeFileStore } from "../../../tests/helpers/file-store-contract.ts";
import { type S3TestServer, startS3TestServer } from "../../../tests/helpers/s3-test-server.ts";
import { createFileStore } from "./file-store.server.ts";
import type { FileStore } from "./file-store.ts";
import { createS3FileStore } from "./s3-file-store.server.ts";

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(async () => {
  await s3?.stop();
});

const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
function openStore(prefix: string, bucket = s3.bucket) {
  return createS3FileStore({
    bucket,
    prefix,
    endpoint: s3.endpoint,
    region: "us-east-1",
    credentials,
    forcePathStyle: true,
  });
}

// Each test gets its own prefix, so it starts from an empty store.
describeFileStore("S3 file store", () => openStore(`t-${randomUUID().slice(0, 8)}`));

describe("S3 file store", () => {
  it("keeps objects under the configured prefix, with their content type", async () => {
    const store = openStore("shop/uploads");
    await store.put("products/p-320.webp", new Uint8Array([1, 2]), "image/webp");
    const head = await store.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: "shop/uploads/products/p-320.webp" }),
    );
    expect(head.ContentType).toBe("image/webp");
    expect(head.ContentLength).toBe(2);
    await expect(
      store.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: "products/p-320.webp" })),
    ).rejects.toThrow();
  });

  it("stores keys without a prefix at the bucket's root", async () => {
    const store = openStore("");
    await store.put("root-key.bin", new Uint8Array([5]), "application/octet-stream");
    const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: "root-key.bin" }));
    expect(head.ContentLength).toBe(1);
  });

  it("throws (does not report a missing file) when the bucket does not exist", async () => {
    const store = openStore("", "no-such-bucket");
    await expect(store.get("products/x.webp")).rejects.toThrow(/bucket/i);
    await expect(store.put("products/x.webp", new Uint8Array([1]), "image/webp")).rejects.toThrow();
  });
});

describe("createFileStore with an s3:// URL", () => {
  it("opens the bucket and prefix the URL names, with the S3_* settings", async () => {
    const files = createFileStore(`s3://${s3.bucket}/via-url`, s3.settings);
    await files.put("k.bin", new Uint8Array([7, 0, 255]), "application/octet-stream");
    expect([...(await files.get("k.bin"))!]).toEqual([7, 0, 255]);
    const raw = openStore("via-url");
    expect([...(await raw.get("k.bin"))!]).toEqual([7, 0, 255]);
    await files.delete("k.bin");
    expect(await raw.get("k.bin")).toBeNull();
  });

  it("rejects an unsafe key before any request", async () => {
    const files = createFileStore(`s3://${s3.bucket}`, s3.settings);
    await expect(files.get("../secret")).rejects.toThrow(/unsafe/i);
  });
});

describe("/images served from the S3 store", () => {
  let files: FileStore;
  let app: ReturnType<typeof createServerApp>;
  beforeAll(() => {
    files = createFileStore(`s3://${s3.bucket}/served`, s3.settings);
    const entry = {
      getServices: async () => ({ files }),
      closeServices: async () => {},
      checkHealth: async () => ({ ok: true, database: "up" }),
      requestInfoContext: {},
    } as unknown as AppEntry;
    // /images never reaches React Router, so the build is a stand-in.
    const build = { routes: {} } as unknown as ServerBuild;
    app = createServerApp({ build, entry, logger: pino({ level: "silent" }), clientDir: "/nonexistent" });
  });

  it("serves an image's bytes from the bucket with an immutable cache header", async () => {
    const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 1, 2, 255]);
    await files.put("products/s3-shown-320.webp", bytes, "image/webp");
    const response = await app.request("/images/products/s3-shown-320.webp");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it("answers 404 for an image the bucket does not hold", async () => {
    const response = await app.request("/images/products/not-there-320.webp");
    expect(response.status).toBe(404);
  });
});
