import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ModulePreloadPriority } from "./modulepreload-priority.server.ts";

async function through(chunks: (string | Buffer)[]): Promise<string> {
  const out: Buffer[] = [];
  const stream = Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))).pipe(
    new ModulePreloadPriority(),
  );
  for await (const chunk of stream) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

const HTML =
  '<head><link rel="modulepreload" href="/a.js"/><link rel="preload" as="image" href="/i.webp"/>' +
  '<link rel="modulepreload" href="/b.js"/></head><body>Café ✓ 🛒</body>';
const EXPECTED = HTML.replaceAll(
  '<link rel="modulepreload"',
  '<link rel="modulepreload" fetchpriority="low"',
);

describe("ModulePreloadPriority", () => {
  it("marks every modulepreload link low priority and leaves everything else alone", async () => {
    expect(await through([HTML])).toBe(EXPECTED);
  });

  it("finds tags split across chunks at every position, and keeps multi-byte characters whole", async () => {
    const bytes = Buffer.from(HTML);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
  });

  it("passes a document without preloads through unchanged, byte for byte", async () => {
    const text = '<p>rel="modulepreload" <link rel="stylesheet"> 日本語</p><link rel="modulep';
    expect(await through([text])).toBe(text);
  });
});
