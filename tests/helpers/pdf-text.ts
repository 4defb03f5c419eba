import { inflateSync } from "node:zlib";

/**
 * The text a PDF made by PDFKit with its standard fonts shows, a line per text operation
 * (`[<hex> kerning <hex>…] TJ`), in page order: enough for tests to read an invoice's figures back,
 * not a general PDF reader. Streams compressed with Flate are inflated first.
 */
export function pdfText(pdf: Uint8Array): string[] {
  const raw = Buffer.from(pdf);
  const lines: string[] = [];
  const decoder = new TextDecoder("windows-1252");
  let at = 0;
  for (;;) {
    const start = raw.indexOf("stream\n", at, "latin1");
    if (start === -1) break;
    const end = raw.indexOf("\nendstream", start, "latin1");
    if (end === -1) break;
    const next = end + "\nendstream".length;
    const dictionary = raw.subarray(raw.lastIndexOf("<<", start, "latin1"), start).toString("latin1");
    let body = raw.subarray(start + "stream\n".length, end);
    if (/\/FlateDecode/.test(dictionary)) {
      try {
        body = inflateSync(body);
      } catch {
        at = next;
        continue;
      }
    }
    for (const [, array] of body.toString("latin1").matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array!.matchAll(/<([0-9a-fA-F]*)>/g)].map(([, h]) => h).join("");
      lines.push(decoder.decode(Buffer.from(hex, "hex")));
    }
    at = next;
  }
  return lines;
}
