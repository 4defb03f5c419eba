/**
 * Static reference for the Lighthouse section: serves a saved copy of the shop's home page (scripts
 * stripped) at /, the built assets from build/client, and product images from the shop's data dir.
 * Like the shop, it sends a precompressed .br/.gz beside an asset when there is one and the client
 * accepts it, otherwise gzips text on the fly; hashed assets/images get the same immutable
 * Cache-Control as the shop. Run as a child process:
 *   node bench/servers/static-site.ts <index.html> <build/client dir> <uploads dir>
 * Prints `LISTENING <port>` when ready.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const [indexFile, clientDir, uploadsDir] = process.argv.slice(2);
if (!indexFile || !clientDir || !uploadsDir) {
  throw new Error("usage: static-site.ts <index.html> <client dir> <uploads dir>");
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".webp": "image/webp",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".html", ".css", ".js", ".svg", ".json", ".txt"]);

interface Entry {
  raw: Buffer;
  gz?: Buffer;
  br?: Buffer;
  type: string;
  cache: string;
}
const cache = new Map<string, Entry | null>();

function load(path: string, cacheControl: string): Entry | null {
  if (!existsSync(path) || !statSync(path).isFile()) return null;
  const ext = extname(path);
  const raw = readFileSync(path);
  const sibling = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
  const compressible = COMPRESSIBLE.has(ext);
  return {
    raw,
    gz: compressible ? (sibling(".gz") ?? gzipSync(raw)) : undefined,
    // Only precompressed brotli (the shop's on-the-fly compression is gzip).
    br: compressible ? sibling(".br") : undefined,
    type: TYPES[ext] ?? "application/octet-stream",
    cache: cacheControl,
  };
}

function resolve(pathname: string): Entry | null {
  if (cache.has(pathname)) return cache.get(pathname) ?? null;
  let entry: Entry | null = null;
  const safe = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, "");
  if (safe.includes("..")) entry = null;
  else if (pathname === "/" || pathname === "/index.html") {
    entry = load(indexFile as string, "private, max-age=0, must-revalidate");
  } else if (pathname.startsWith("/assets/")) {
    entry = load(join(clientDir as string, safe), "public, max-age=31536000, immutable");
  } else if (pathname.startsWith("/images/")) {
    entry = load(
      join(uploadsDir as string, safe.slice("/images/".length)),
      "public, max-age=31536000, immutable",
    );
  } else {
    entry = load(join(clientDir as string, safe), "public, max-age=3600");
  }
  cache.set(pathname, entry);
  return entry;
}

const server = createServer((req, res) => {
  const pathname = new URL(req.url ?? "/", "http://x").pathname;
  const entry = resolve(pathname);
  if (!entry) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    res.end("Not found");
    return;
  }
  const accept = String(req.headers["accept-encoding"] ?? "");
  const encoding =
    entry.br && /\bbr\b/.test(accept) ? "br" : entry.gz && /\bgzip\b/.test(accept) ? "gzip" : null;
  const body = (encoding === "br" ? entry.br : encoding === "gzip" ? entry.gz : entry.raw) as Buffer;
  res.writeHead(200, {
    "content-type": entry.type,
    "content-length": String(body.length),
    "cache-control": entry.cache,
    ...(entry.gz ? { vary: "Accept-Encoding" } : {}),
    ...(encoding ? { "content-encoding": encoding } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`LISTENING ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
