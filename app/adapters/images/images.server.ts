import sharp from "sharp";

// libvips keeps up to 50 MB of decoded images and 1 000 operations by default, for pipelines that
// repeat; ours never do (each upload is encoded once), so nothing is kept between images.
sharp.cache(false);

/** Widths every product image is rendered at; `srcset` offers all of them. */
export const IMAGE_WIDTHS = [320, 640, 960] as const;

export interface RenderedVariant {
  width: number;
  height: number;
  bytes: Uint8Array;
}

/**
 * Re-encodes an image into WebP at each width (never upscaled), dropping all metadata.
 * Input is untrusted: sharp's pixel limit guards against decompression bombs.
 */
export async function renderWebpVariants(
  input: Uint8Array | string,
  widths: readonly number[] = IMAGE_WIDTHS,
): Promise<RenderedVariant[]> {
  const source = sharp(typeof input === "string" ? Buffer.from(input) : input, {
    limitInputPixels: 40_000_000,
  }).rotate();
  const { width: sourceWidth = widths[widths.length - 1]! } = await source.metadata();
  return Promise.all(
    widths.map(async (width) => {
      const { data, info } = await source
        .clone()
        .resize({ width: Math.min(width, sourceWidth), withoutEnlargement: true })
        .webp({ quality: 78, effort: 4 })
        .toBuffer({ resolveWithObject: true });
      return { width, height: info.height, bytes: data };
    }),
  );
}

export function variantKey(key: string, width: number): string {
  return `${key}-${width}.webp`;
}
