import { Transform, type TransformCallback } from "node:stream";

const TAG = '<link rel="modulepreload"';
const LOW = '<link rel="modulepreload" fetchpriority="low"';

/**
 * Marks React Router's `<link rel="modulepreload">` hints `fetchpriority="low"` in the streamed
 * HTML. The page is server-rendered and works without JavaScript, so on a slow link its images
 * (the largest paint) should not queue behind the hydration scripts, which browsers otherwise
 * fetch at high priority. React Router renders these links itself with no way to set the
 * priority (and with suppressHydrationWarning, so the extra attribute is safe).
 *
 * Bytes are handled as latin1 (one char per byte), so multi-byte UTF-8 passes through untouched;
 * a tag split across chunks is caught by holding back a tail shorter than the tag.
 */
export class ModulePreloadPriority extends Transform {
  private pending = "";

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
    const text =
      this.pending +
      (typeof chunk === "string" ? Buffer.from(chunk).toString("latin1") : chunk.toString("latin1"));
    const replaced = text.replaceAll(TAG, LOW);
    const keep = heldBackTail(replaced);
    this.pending = replaced.slice(replaced.length - keep);
    const out = replaced.slice(0, replaced.length - keep);
    if (out) this.push(Buffer.from(out, "latin1"));
    callback();
  }

  override _flush(callback: TransformCallback) {
    if (this.pending) this.push(Buffer.from(this.pending, "latin1"));
    this.pending = "";
    callback();
  }
}

/** Length of the longest end of `text` that could be the start of TAG (0 when none). */
function heldBackTail(text: string): number {
  for (let n = Math.min(TAG.length - 1, text.length); n > 0; n--) {
    if (TAG.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
