import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

/** A small real JPEG carrying EXIF with a camera make and GPS coordinates. */
export async function jpegWithGps(width = 64, height = 48): Promise<Uint8Array> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: "LeakyCam" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 0/1",
      },
    })
    .toBuffer();
}

export async function png(width = 40, height = 30): Promise<Uint8Array> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

export async function gif(width = 20, height = 20): Promise<Uint8Array> {
  return sharp({ create: { width, height, channels: 3, background: "green" } })
    .gif()
    .toBuffer();
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG file whose header claims width × height pixels (a "decompression bomb"). */
export function hugeDimensionPng(width = 100_000, height = 100_000): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);
export const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
export const TEXT = new TextEncoder().encode("just some text, not a picture\n");

/** JPEG magic bytes followed by zeros: `megabytes` MB (the size check must fire before decoding). */
export function oversizedJpeg(megabytes = 11): Uint8Array {
  const bytes = new Uint8Array(megabytes * 1024 * 1024);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}
