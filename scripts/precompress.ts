// After `react-router build`: writes .br and .gz beside every hashed JS/CSS/SVG asset so the
// server sends them pre-compressed (serveStatic's `precompressed`), at maximum quality, for free.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = join(process.env.BUILD_DIR ?? join(import.meta.dirname, "..", "build"), "client", "assets");
let count = 0;
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const bytes = readFileSync(join(dir, name));
  writeFileSync(
    join(dir, `${name}.br`),
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(join(dir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  count++;
}
console.log(`precompressed ${count} assets (br, gz)`);
