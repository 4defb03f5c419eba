import { describe, expect, it } from "vitest";
import { gif, hugeDimensionPng, jpegWithGps, PDF, png, SVG, TEXT } from "../../../tests/helpers/images.ts";
import { detectImageType, renderUpload } from "./image-upload.server.ts";

describe("detectImageType", () => {
  it("knows JPEG, PNG and GIF by their first bytes, nothing else", async () => {
    expect(detectImageType(await jpegWithGps())).toBe("jpeg");
    expect(detectImageType(await png())).toBe("png");
    expect(detectImageType(await gif())).toBe("gif");
    for (const other of [SVG, PDF, TEXT, new Uint8Array(), new Uint8Array([0xff, 0xd8])]) {
      expect(detectImageType(other)).toBeNull();
    }
  });
});

describe("renderUpload", () => {
  it("re-encodes into WebP widths without metadata, never upscaling", async () => {
    const result = await renderUpload(await jpegWithGps(400, 300));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ width: 400, height: 300 });
    expect(result.value.variants.map((v) => v.width)).toEqual([320, 640, 960]);
  });

  it("refuses absurd dimensions from the header, and bytes that only look like an image", async () => {
    expect(await renderUpload(hugeDimensionPng())).toEqual({ ok: false, error: { code: "too-many-pixels" } });
    const fake = new Uint8Array(64);
    fake.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await renderUpload(fake)).toEqual({ ok: false, error: { code: "unreadable" } });
    expect(await renderUpload(SVG)).toEqual({ ok: false, error: { code: "not-an-image" } });
  });
});
