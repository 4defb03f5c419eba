import { randomUUID } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { fail, ok, type Result } from "../../lib/result.ts";
import type { FileStore } from "../files/file-store.ts";
import { IMAGE_WIDTHS, renderWebpVariants, variantKey } from "./images.server.ts";

/**
 * Untrusted image uploads (decision 006): the type is read from the bytes, never from the name
 * or the browser's Content-Type; the size is capped while the request streams in; the pixel
 * count is checked from the header before anything is decoded; what is stored is a re-encode
 * (WebP, every metadata block — EXIF GPS included — dropped) under a name the server makes up.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** More than any product photo needs (e.g. 8000 × 5000); a "decompression bomb" is far above. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Images per product form submission. */
export const MAX_UPLOAD_FILES = 10;

export type UploadImageType = "jpeg" | "png" | "gif";

/** The image type the bytes start with (magic numbers), or null for anything else. */
export function detectImageType(bytes: Uint8Array): UploadImageType | null {
  const starts = (...signature: number[]) =>
    bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return "jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (starts(0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || starts(0x47, 0x49, 0x46, 0x38, 0x39, 0x61)) return "gif";
  return null;
}

export interface RenderedUpload {
  width: number;
  height: number;
  variants: { width: number; bytes: Uint8Array }[];
}

export type RenderUploadResult = Result<
  RenderedUpload,
  { code: "not-an-image" | "too-many-pixels" | "unreadable" }
>;

/** Checks one upload's content and dimensions and re-encodes it into the responsive WebP widths. */
export async function renderUpload(bytes: Uint8Array): Promise<RenderUploadResult> {
  const type = detectImageType(bytes);
  if (!type) return fail({ code: "not-an-image" });
  let metadata: Metadata;
  try {
    // Reads the header only: a 100 000 × 100 000 PNG is refused before a pixel is decoded.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return fail({ code: "unreadable" });
  }
  if (metadata.format !== type) {
    return fail({ code: "not-an-image" });
  }
  const { width = 0, height = 0 } = metadata;
  if (width < 1 || height < 1) return fail({ code: "unreadable" });
  if (width * height > MAX_INPUT_PIXELS) return fail({ code: "too-many-pixels" });
  try {
    const rendered = await renderWebpVariants(bytes, IMAGE_WIDTHS);
    const largest = rendered[rendered.length - 1]!;
    // Variants are never upscaled: the largest one's real size is the picture's intrinsic size.
    const real = await sharp(largest.bytes).metadata();
    return ok({
      width: real.width ?? largest.width,
      height: real.height ?? largest.height,
      variants: rendered.map((v) => ({ width: v.width, bytes: v.bytes })),
    });
  } catch {
    return fail({ code: "unreadable" });
  }
}

export interface StoredImage {
  key: string;
  width: number;
  height: number;
  widths: number[];
}

/** A fresh, unguessable key for a product image (the uploader's file name is never used). */
export function newProductImageKey(): string {
  return `products/u-${randomUUID()}`;
}

/**
 * Writes every variant of a rendered upload. If any write fails, the ones already written are
 * removed before the error is rethrown, so nothing is left behind.
 */
export async function storeRenderedUpload(files: FileStore, image: RenderedUpload): Promise<StoredImage> {
  const key = newProductImageKey();
  const written: string[] = [];
  try {
    for (const variant of image.variants) {
      const variantPath = variantKey(key, variant.width);
      await files.put(variantPath, variant.bytes, "image/webp");
      written.push(variantPath);
    }
  } catch (error) {
    await Promise.allSettled(written.map((path) => files.delete(path)));
    throw error;
  }
  return { key, width: image.width, height: image.height, widths: image.variants.map((v) => v.width) };
}

/** Removes every variant of these image keys (best effort: a missing file is not an error). */
export async function deleteStoredImages(
  files: FileStore,
  images: { key: string; widths: readonly number[] }[],
): Promise<void> {
  await Promise.allSettled(
    images.flatMap((image) => image.widths.map((width) => files.delete(variantKey(image.key, width)))),
  );
}
