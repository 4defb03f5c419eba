import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { assertSafeKey, type FileStore, isSafeKey } from "./file-store.ts";

export interface S3FileStoreOptions {
  bucket: string;
  /** key prefix inside the bucket, without slashes at either end ("" for none) */
  prefix?: string;
  /** an S3-compatible server (MinIO, Garage, R2, …); unset means AWS S3 itself */
  endpoint?: string;
  region: string;
  /** unset: the SDK's default chain (AWS_* variables, shared config, instance role) */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (http://host/bucket/key) rather than in the host name */
  forcePathStyle?: boolean;
}

/**
 * The FileStore on S3-compatible object storage, so several app servers share one set of
 * images. Keys are checked exactly as the local store checks them, then stored under the prefix.
 */
export function createS3FileStore(options: S3FileStoreOptions): FileStore & { client: S3Client } {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    credentials: options.credentials,
    forcePathStyle: options.forcePathStyle ?? false,
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer
    // flexible-checksum headers the SDK would otherwise add to every upload.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const { bucket } = options;
  const prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, "")}/` : "";
  const objectKey = (key: string) => {
    assertSafeKey(key);
    return prefix + key;
  };
  return {
    client,
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (isMissingKey(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 deletes are idempotent: removing a missing key succeeds, as the local store's does.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length);
          if (key && isSafeKey(key)) yield key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}

/** A missing object (404), as opposed to a missing bucket or any other failure, which is thrown. */
function isMissingKey(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === "NoSuchKey") return true;
  return error.$metadata.httpStatusCode === 404 && error.name !== "NoSuchBucket";
}
