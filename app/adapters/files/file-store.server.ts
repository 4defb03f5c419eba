import type { Dirent } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { type Env, getEnv } from "../../env.server.ts";
import { assertSafeKey, type FileStore, isSafeKey } from "./file-store.ts";
import { parseFileStoreUrl } from "./file-store-url.ts";

export function createLocalFileStore(directory: string): FileStore {
  const root = resolve(directory);
  const pathOf = (key: string) => {
    assertSafeKey(key);
    const path = join(root, key);
    if (!path.startsWith(root + sep)) throw new Error(`Unsafe file key: ${key}`);
    return path;
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list() {
      let entries: Dirent[];
      try {
        entries = await readdir(root, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const key = relative(root, join(entry.parentPath, entry.name)).split(sep).join("/");
        if (isSafeKey(key)) yield key;
      }
    },
  };
}

export type S3Settings = Pick<
  Env,
  "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_FORCE_PATH_STYLE"
>;

/**
 * The store FILE_STORE_URL names: `file:DIR` or `s3://bucket[/prefix]` (endpoint, region and
 * credentials from the S3_* settings, by default the validated environment). The S3 client is
 * loaded on first use, so a local shop never loads the AWS SDK.
 */
export function createFileStore(url: string, settings?: S3Settings): FileStore {
  const location = parseFileStoreUrl(url);
  if (location.kind === "file") return createLocalFileStore(location.directory);
  const s3 = settings ?? getEnv();
  let store: Promise<FileStore> | undefined;
  const open = () =>
    (store ??= import("./s3-file-store.server.ts").then(({ createS3FileStore }) =>
      createS3FileStore({
        bucket: location.bucket,
        prefix: location.prefix,
        endpoint: s3.S3_ENDPOINT,
        region: s3.S3_REGION,
        credentials:
          s3.S3_ACCESS_KEY_ID && s3.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: s3.S3_ACCESS_KEY_ID, secretAccessKey: s3.S3_SECRET_ACCESS_KEY }
            : undefined,
        forcePathStyle: s3.S3_FORCE_PATH_STYLE === "true",
      }),
    ));
  return {
    put: async (key, bytes, contentType) => (await open()).put(key, bytes, contentType),
    get: async (key) => (await open()).get(key),
    delete: async (key) => (await open()).delete(key),
    list: async function* () {
      yield* (await open()).list();
    },
  };
}
