/**
 * bundle: first-load JavaScript of / — the gzip size of every JS file the rendered page loads
 * (module scripts, modulepreloads, imports in inline module scripts, plus their static import
 * closure), read from the build's client/ dir and gzipped with zlib level 9 (what the
 * precompressed .gz beside each asset holds). Brotli, stylesheets and inline
 * <style> are listed for context.
 */
import { join } from "node:path";
import { type AssetSize, cssSizes, firstLoadJs, inlineStyleBytes } from "../lib/assets.ts";
import type { Section } from "../lib/types.ts";

const KB = 1024;

export const bundle: Section = {
  name: "bundle",
  description: "first-load JS (gzip) of / from the build's client/ dir",
  async run(ctx) {
    const build = await ctx.build();
    const page = await ctx.fetchHome();
    const html = page.bytes.toString("utf8");
    const clientDir = join(build.dir, "client");
    const js = firstLoadJs(html, clientDir);
    const css = cssSizes(html, clientDir);
    const inlineCss = inlineStyleBytes(html);
    const sum = (list: AssetSize[], key: "bytes" | "gzipBytes" | "brotliBytes") =>
      list.reduce((n, a) => n + a[key], 0);
    const notPreloaded = js.filter((a) => !a.inHtml).map((a) => a.path);
    const largest = js
      .slice(0, 3)
      .map((a) => `${a.path.replace("/assets/", "")} ${(a.gzipBytes / KB).toFixed(1)}`)
      .join(", ");
    const s = "bundle";
    return {
      rows: [
        {
          section: s,
          metric: `first-load JS gzip (${js.length} files)`,
          value: sum(js, "gzipBytes") / KB,
          unit: "KB",
          digits: 1,
          target: { op: "<=", value: 120 },
          note: `largest (KB gz): ${largest}`,
        },
        {
          section: s,
          metric: "first-load JS brotli",
          value: sum(js, "brotliBytes") / KB,
          unit: "KB",
          digits: 1,
        },
        {
          section: s,
          metric: "first-load JS uncompressed",
          value: sum(js, "bytes") / KB,
          unit: "KB",
          digits: 1,
        },
        {
          section: s,
          metric: `stylesheets gzip (${css.length} file${css.length === 1 ? "" : "s"})`,
          value: sum(css, "gzipBytes") / KB,
          unit: "KB",
          digits: 1,
        },
        {
          section: s,
          metric: "inline <style> in the HTML (uncompressed)",
          value: inlineCss / KB,
          unit: "KB",
          digits: 1,
        },
        {
          section: s,
          metric: "HTML of / uncompressed",
          value: page.bytes.length / KB,
          unit: "KB",
          digits: 1,
        },
      ],
      data: {
        jsGzipBytes: sum(js, "gzipBytes"),
        jsBrotliBytes: sum(js, "brotliBytes"),
        jsBytes: sum(js, "bytes"),
        cssGzipBytes: sum(css, "gzipBytes"),
        inlineStyleBytes: inlineCss,
        htmlBytes: page.bytes.length,
        precompressedAssets: build.precompressed,
        importedButNotPreloaded: notPreloaded,
        js: js.map(({ path, bytes, gzipBytes, brotliBytes }) => ({ path, bytes, gzipBytes, brotliBytes })),
        css: css.map(({ path, bytes, gzipBytes, brotliBytes }) => ({ path, bytes, gzipBytes, brotliBytes })),
      },
    };
  },
};
