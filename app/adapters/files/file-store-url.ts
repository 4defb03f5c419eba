/**
 * Where FILE_STORE_URL points: `file:./data/uploads` (a local directory) or
 * `s3://bucket[/prefix]` (an S3-compatible bucket, optionally under a key prefix). Pure, so the
 * configuration check and the store factory read the URL the same way.
 */
export type FileStoreLocation =
  | { kind: "file"; directory: string }
  | { kind: "s3"; bucket: string; prefix: string };

/** S3's bucket naming rules (lower-case letters, digits, dots and hyphens, 3–63 characters). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;

export class FileStoreUrlError extends Error {}

export function parseFileStoreUrl(url: string): FileStoreLocation {
  if (url.startsWith("file:")) {
    const directory = url.replace(/^file:(\/\/)?/, "");
    if (directory === "") throw new FileStoreUrlError("a file: URL needs a directory (file:./data/uploads)");
    return { kind: "file", directory };
  }
  if (url.startsWith("s3://")) {
    const [bucket = "", ...segments] = url.slice("s3://".length).replace(/\/+$/, "").split("/");
    if (!BUCKET.test(bucket) || bucket.includes("..")) {
      throw new FileStoreUrlError(
        `"${bucket}" is not a valid bucket name: 3-63 lower-case letters, digits, dots or hyphens (for example s3://cartwheel-images)`,
      );
    }
    if (segments.some((s) => !PREFIX_SEGMENT.test(s))) {
      throw new FileStoreUrlError(
        "the key prefix after the bucket may hold only lower-case letters, digits, '_', '.', '-' and '/' (for example s3://cartwheel-images/uploads)",
      );
    }
    return { kind: "s3", bucket, prefix: segments.join("/") };
  }
  throw new FileStoreUrlError(`must start with file: or s3:// (for example file:./data/uploads)`);
}
