import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Settings } from "../files/file-store.server.ts";
import { parseFileStoreUrl } from "../files/file-store-url.ts";
import { publishFile } from "./archive-file.server.ts";

/**
 * Where backup archives go (decision 028): a directory on this machine or an S3-compatible bucket
 * (`s3://bucket/prefix`, with the file store's S3_* settings). An archive is written locally as
 * `<name>.partial` and only then published under its name: renamed in place (after fsync) in a
 * directory, uploaded in parts to a bucket (an object appears whole or not at all).
 */
export type BackupLocation =
  | { kind: "local"; directory: string }
  | { kind: "s3"; bucket: string; prefix: string };

export class DestinationError extends Error {}

/** `s3://bucket[/prefix]`, or a directory (relative ones are resolved against the working directory). */
export function parseBackupLocation(text: string): BackupLocation {
  if (text.startsWith("s3://")) {
    try {
      const location = parseFileStoreUrl(text);
      if (location.kind === "s3") return location;
    } catch (error) {
      throw new DestinationError((error as Error).message);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new DestinationError("a destination is a directory or s3://bucket/prefix");
  }
  return { kind: "local", directory: resolve(text.replace(/^file:(\/\/)?/, "")) };
}

export function describeLocation(location: BackupLocation): string {
  return location.kind === "local"
    ? location.directory
    : `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ""}`;
}

export interface StoredArchive {
  name: string;
  bytes: number;
}

export interface BackupDestination {
  location: BackupLocation;
  /** where this destination's unfinished archives are written first */
  scratchDirectory(): Promise<string>;
  /** makes the finished, synced file at `file` the archive `name` */
  publish(file: string, name: string): Promise<void>;
  /** the archives held (names `isArchive` accepts), any order */
  list(isArchive: (name: string) => boolean): Promise<StoredArchive[]>;
  delete(name: string): Promise<void>;
  /** copies archive `name` into the local file `to` */
  download(name: string, to: string): Promise<void>;
}

/**
 * The destination at `location`. A bucket's unfinished archive is written under `scratch` (a local
 * directory, e.g. DATA_DIR/backups), then uploaded.
 */
export function openDestination(
  location: BackupLocation,
  { s3, scratch }: { s3: S3Settings; scratch: string },
): BackupDestination {
  if (location.kind === "local") {
    const { directory } = location;
    return {
      location,
      async scratchDirectory() {
        await mkdir(directory, { recursive: true });
        return directory;
      },
      publish: (file, name) => publishFile(file, join(directory, name)),
      async list(isArchive) {
        let names: string[];
        try {
          names = await readdir(directory);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
          throw error;
        }
        const archives: StoredArchive[] = [];
        for (const name of names.filter(isArchive)) {
          const info = await stat(join(directory, name)).catch(() => null);
          if (info?.isFile()) archives.push({ name, bytes: info.size });
        }
        return archives;
      },
      delete: (name) => rm(join(directory, name), { force: true }),
      async download(name, to) {
        await pipeline(createReadStream(join(directory, name)), createWriteStream(to));
      },
    };
  }
  const client = s3Client(s3);
  const { bucket } = location;
  const prefix = location.prefix ? `${location.prefix}/` : "";
  return {
    location,
    async scratchDirectory() {
      await mkdir(scratch, { recursive: true });
      return scratch;
    },
    async publish(file, name) {
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: prefix + name,
          Body: createReadStream(file),
          ContentType: "application/gzip",
        },
        // parts of 64 MB, two at a time: an archive of any size in bounded memory
        partSize: 64 * 1024 * 1024,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
      await rm(file, { force: true });
    },
    async list(isArchive) {
      const archives: StoredArchive[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length) ?? "";
          if (!name.includes("/") && isArchive(name)) archives.push({ name, bytes: object.Size ?? 0 });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return archives;
    },
    async delete(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + name }));
    },
    async download(name, to) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + name }));
      if (!object.Body) throw new DestinationError(`s3://${bucket}/${prefix}${name} is empty`);
      await pipeline(object.Body as Readable, createWriteStream(to));
    },
  };
}

/** An S3 client configured as the file store's (app/adapters/files/s3-file-store.server.ts). */
function s3Client(s3: S3Settings): S3Client {
  return new S3Client({
    endpoint: s3.S3_ENDPOINT,
    region: s3.S3_REGION,
    credentials:
      s3.S3_ACCESS_KEY_ID && s3.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: s3.S3_ACCESS_KEY_ID, secretAccessKey: s3.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: s3.S3_FORCE_PATH_STYLE === "true",
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
