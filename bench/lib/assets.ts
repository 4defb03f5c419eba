/** Which JS/CSS files a rendered page loads, and how big they are gzipped (read from build/client). */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export interface AssetSize {
  path: string;
  bytes: number;
  /** gzip level 9, as scripts/precompress.ts writes the .gz the server sends */
  gzipBytes: number;
  /** brotli quality 11, as the precompressed .br Chromium is sent */
  brotliBytes: number;
  /** Listed in the HTML (script src / modulepreload / inline import) rather than only imported by another chunk. */
  inHtml: boolean;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];

/** Paths of JS the HTML references: <script src>, <link rel=modulepreload>, imports in inline module scripts. */
export function jsInHtml(html: string): string[] {
  const found = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (/\srel="modulepreload"/i.test(tag)) {
      const href = attr(tag, "href");
      if (href) found.add(href);
    }
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attrs = "", body = ""] = match;
    const src = attr(` ${attrs}`, "src");
    if (src) found.add(src);
    if (/type="module"/i.test(attrs)) {
      for (const m of body.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+\.js)["']/g)) {
        if (m[1]) found.add(m[1]);
      }
    }
  }
  return [...found].filter((p) => p.startsWith("/"));
}

export function cssInHtml(html: string): string[] {
  const found = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (/\srel="stylesheet"/i.test(tag)) {
      const href = attr(tag, "href");
      if (href?.startsWith("/")) found.add(href);
    }
  }
  return [...found];
}

function sizes(path: string, source: Buffer, inHtml: boolean): AssetSize {
  return {
    path,
    bytes: source.length,
    gzipBytes: gzipSync(source, { level: 9 }).length,
    brotliBytes: brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    inHtml,
  };
}

/** Static imports inside a built chunk (`import"./x.js"`, `from"./x.js"`), as absolute URL paths. */
function staticImports(urlPath: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js|\/[^"']+\.js)["']/g)) {
    const spec = m[1];
    if (!spec) continue;
    out.push(spec.startsWith("/") ? spec : posix.join(posix.dirname(urlPath), spec));
  }
  return out;
}

/**
 * Every JS file loaded on first visit: the HTML's scripts and modulepreloads plus their static
 * import closure (which should add nothing if the preloads are complete). Dynamic import() inside
 * chunks is not followed (that is lazy code).
 */
export function firstLoadJs(html: string, clientDir: string): AssetSize[] {
  const listed = new Set(jsInHtml(html));
  const seen = new Map<string, AssetSize>();
  const queue = [...listed];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    const file = join(clientDir, path);
    if (!existsSync(file)) throw new Error(`${path} referenced by the page is not in ${clientDir}`);
    const source = readFileSync(file);
    seen.set(path, sizes(path, source, listed.has(path)));
    queue.push(...staticImports(path, source.toString("utf8")));
  }
  return [...seen.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
}

export function cssSizes(html: string, clientDir: string): AssetSize[] {
  return cssInHtml(html).map((path) => {
    return sizes(path, readFileSync(join(clientDir, path)), true);
  });
}

/** Total bytes inside inline <style> elements (CSS inlined into the document). */
export function inlineStyleBytes(html: string): number {
  let bytes = 0;
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi))
    bytes += Buffer.byteLength(m[1] ?? "");
  return bytes;
}

/** The "static HTML" reference: the page with every <script> and modulepreload removed. */
export function stripScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\srel="modulepreload"[^>]*>/gi, "");
}
