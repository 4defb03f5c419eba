import { Transform } from "node:stream";

/**
 * Hydration after the page has loaded (decision 008).
 *
 * Every page is complete and usable as server-rendered HTML (forms post, links navigate), so the
 * JavaScript that hydrates it is an enhancement and must not compete with the page's own
 * content for the network. React Router's `<Scripts>` asks for every module at once
 * (`<link rel="modulepreload">` in the head, and a module script whose static imports start
 * loading while the HTML is still arriving), which on a slow mobile connection delays the
 * largest image by the ~130 KB of React and React Router.
 *
 * This rewrite, applied to the HTML React streams:
 * - drops the `modulepreload` links;
 * - turns the module script's static route imports into dynamic ones inside a `boot` function
 *   that first adds the same `modulepreload` links (so every module is fetched in parallel, no
 *   waterfall), then runs React Router's own code unchanged (manifest, route modules, entry);
 * - runs `boot` after the `load` event, one task after the next frame, so the page's images
 *   are painted first.
 * Anything it does not recognise is passed through untouched (the page then hydrates as
 * React Router ships it).
 */

const MODULEPRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/?>/g;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const ROUTE_IMPORT = /import \* as (route\d+) from ("[^"]+");/g;

/** The module script's body, rewritten to load after the page (null: not recognised). */
export function deferModuleScript(body: string, preloads: readonly string[]): string | null {
  const imports = [...body.matchAll(ROUTE_IMPORT)].map((m) => ({ name: m[1]!, url: m[2]! }));
  if (imports.length === 0) return null;
  const rest = body.replace(ROUTE_IMPORT, "");
  // any other static import would run at once: leave such a script alone
  if (/(^|[;\s])import\s*["'{*\w]/.test(rest.replace(/import\(/g, ""))) return null;
  return [
    "const boot = async () => {",
    // the modules React Router would have preloaded, fetched in parallel (not yet run)
    "  const links = document.createDocumentFragment();",
    `  for (const href of ${JSON.stringify(preloads).replace(/</g, "\\u003c")}) {`,
    '    const link = document.createElement("link");',
    '    link.rel = "modulepreload";',
    "    link.href = href;",
    "    links.append(link);",
    "  }",
    "  document.head.append(links);",
    `  const [${imports.map((i) => i.name).join(", ")}] = await Promise.all([${imports
      .map((i) => `import(${i.url})`)
      .join(", ")}]);`,
    rest,
    "};",
    "const later = () => requestAnimationFrame(() => setTimeout(boot, 0));",
    'if (document.readyState === "complete") later();',
    'else addEventListener("load", later, { once: true });',
  ].join("\n");
}

/** The document (or its beginning) with the hydration deferred; `done` once the script was seen. */
export function deferHydration(html: string): { html: string; done: boolean } {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return { html, done: false };
  const preloads: string[] = [];
  const head = html.slice(0, script.index).replace(MODULEPRELOAD, (_tag, href: string) => {
    preloads.push(href);
    return "";
  });
  const body = deferModuleScript(script[2]!, preloads);
  if (body === null) return { html, done: true };
  const rewritten = `${script[1]}${body}${script[3]}`;
  return { html: head + rewritten + html.slice(script.index + script[0].length), done: true };
}

/** Holds back at most this much HTML while looking for the module script, then gives up. */
const MAX_BUFFER = 4 * 1024 * 1024;

const MODULE_MARK = Buffer.from('type="module"');
const SCRIPT_START = Buffer.from("<script");
const SCRIPT_END = Buffer.from("</script>");
const PRELOAD_START = Buffer.from('<link rel="modulepreload"');
const PRELOAD_TAG = /^<link rel="modulepreload" href="([^"]+)"[^>]*\/?>$/;

/**
 * deferHydration on the document's bytes: only the module script and the modulepreload tags are
 * decoded, everything else is copied as bytes. (Decoding a 130 KB page that holds any non-Latin-1
 * character to a string and encoding it back costs ~1.5 ms a page.) The same result as
 * deferHydration; anything unexpected falls back to it.
 */
export function deferHydrationBytes(bytes: Buffer): Buffer {
  const mark = bytes.indexOf(MODULE_MARK);
  const start = mark === -1 ? -1 : bytes.lastIndexOf(SCRIPT_START, mark);
  const endAt = mark === -1 ? -1 : bytes.indexOf(SCRIPT_END, mark);
  const first =
    start === -1 ? null : MODULE_SCRIPT.exec(bytes.toString("utf8", start, endAt + SCRIPT_END.length));
  if (mark === -1 || start === -1 || endAt === -1 || !first || first.index !== 0) {
    return Buffer.from(deferHydration(bytes.toString("utf8")).html);
  }
  // the document before the script, without its modulepreload tags
  const pieces: Buffer[] = [];
  const preloads: string[] = [];
  let from = 0;
  for (
    let at = bytes.indexOf(PRELOAD_START);
    at !== -1 && at < start;
    at = bytes.indexOf(PRELOAD_START, at + 1)
  ) {
    const close = bytes.indexOf(">", at);
    if (close === -1 || close >= start) break;
    const tag = PRELOAD_TAG.exec(bytes.toString("utf8", at, close + 1));
    if (!tag) continue;
    preloads.push(tag[1]!);
    pieces.push(bytes.subarray(from, at));
    from = close + 1;
  }
  pieces.push(bytes.subarray(from, start));
  const body = deferModuleScript(first[2]!, preloads);
  if (body === null) return bytes; // not recognised: left as React Router ships it
  pieces.push(Buffer.from(`${first[1]}${body}${first[3]}`), bytes.subarray(endAt + SCRIPT_END.length));
  return Buffer.concat(pieces);
}

/**
 * A stream transform applying deferHydration to a streamed document, on bytes. The HTML is held
 * back until the module script has arrived whole; each chunk is searched once (with the few bytes
 * before it, for a mark split between chunks), never the whole buffer again.
 */
export function deferHydrationStream(): Transform {
  const held: Buffer[] = [];
  let heldLength = 0;
  let passing = false;
  let markSeen = false;
  /** the end of the bytes searched so far that a split mark could start in */
  let tail: Buffer = Buffer.alloc(0);
  const keep = Math.max(MODULE_MARK.length, SCRIPT_END.length) - 1;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const bytes =
        typeof chunk === "string"
          ? Buffer.from(chunk)
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (passing) return callback(null, bytes);
      held.push(bytes);
      heldLength += bytes.length;
      // a mark is in this chunk, or across the boundary with the previous one (copying only
      // the few bytes either side of it, not the chunk)
      const boundary = Buffer.concat([tail, bytes.subarray(0, keep)]);
      /** where `needle` starts, counted from the start of the boundary (null: not found) */
      const find = (needle: Buffer, from = 0): number | null => {
        const across = boundary.indexOf(needle, from);
        if (across !== -1) return across;
        const inside = bytes.indexOf(needle, Math.max(0, from - tail.length));
        return inside === -1 ? null : inside + tail.length;
      };
      let complete = false;
      if (!markSeen) {
        const at = find(MODULE_MARK);
        if (at !== null) {
          markSeen = true;
          complete = find(SCRIPT_END, at + MODULE_MARK.length) !== null;
        }
      } else {
        complete = find(SCRIPT_END) !== null;
      }
      // the last few bytes seen (over several chunks when they are tiny)
      const last = bytes.length >= keep ? bytes : Buffer.concat([tail, bytes]);
      tail = Buffer.from(last.subarray(Math.max(0, last.length - keep)));
      if (!complete && heldLength <= MAX_BUFFER) return callback();
      passing = true;
      const document = Buffer.concat(held);
      held.length = 0;
      callback(null, complete ? deferHydrationBytes(document) : document);
    },
    flush(callback) {
      callback(null, held.length > 0 ? Buffer.concat(held) : undefined);
    },
  });
}
