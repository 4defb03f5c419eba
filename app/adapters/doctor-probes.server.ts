import { randomBytes } from "node:crypto";
import { mkdir, rm, statfs, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import nodemailer from "nodemailer";
import { smtpUrlWithTimeouts } from "./mail/mailer.server.ts";
import { stripeApiAddress } from "./payments/index.server.ts";

/**
 * The outside world as `npm run cli -- doctor` asks it (decision 027): can a directory be written,
 * how much disk is free, does the SMTP server take us, does the bucket answer, do Stripe's keys
 * work. Each probe is one cheap call, answers in plain words, and throws what went wrong.
 */

/** Writes and removes a probe file in `directory` (made when missing, as the shop would). */
export async function probeWritableDirectory(directory: string): Promise<void> {
  const path = resolve(directory);
  await mkdir(path, { recursive: true });
  const probe = join(path, `.doctor-${randomBytes(6).toString("hex")}`);
  await writeFile(probe, "cartwheel doctor");
  await rm(probe, { force: true });
}

/** Free and total bytes of the filesystem holding `path` (its nearest existing ancestor). */
export async function diskSpace(
  path: string,
): Promise<{ freeBytes: number; totalBytes: number; at: string }> {
  let at = resolve(path);
  for (;;) {
    try {
      const stats = await statfs(at);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize, at };
    } catch (error) {
      const parent = dirname(at);
      if ((error as { code?: string }).code !== "ENOENT" || parent === at) throw error;
      at = parent;
    }
  }
}

/** The SMTP server answers and accepts our greeting (and login, when the URL has credentials). */
export async function probeSmtp(url: string): Promise<void> {
  const transport = nodemailer.createTransport(smtpUrlWithTimeouts(url));
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

/** The bucket exists and these credentials may use it (HeadBucket). */
export async function probeBucket(options: {
  bucket: string;
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}): Promise<void> {
  const { S3Client, HeadBucketCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    credentials: options.credentials,
    forcePathStyle: options.forcePathStyle,
    maxAttempts: 1,
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: options.bucket }), {
      abortSignal: AbortSignal.timeout(10_000),
    });
  } finally {
    client.destroy();
  }
}

/** Stripe takes the secret key: one authenticated read (the newest PaymentIntent, if any). */
export async function probeStripe(secretKey: string, apiUrl: string | undefined): Promise<void> {
  const { default: Stripe } = await import("stripe");
  const stripe = new Stripe(secretKey, {
    maxNetworkRetries: 0,
    timeout: 10_000,
    ...stripeApiAddress(apiUrl),
  });
  await stripe.paymentIntents.list({ limit: 1 });
}
