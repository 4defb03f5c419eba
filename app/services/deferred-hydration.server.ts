import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

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

/** A stream transform applying deferHydration to a streamed document. */
export function deferHydrationStream(): Transform {
  const decoder = new StringDecoder("utf8");
  let buffered = "";
  let passing = false;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
      if (passing) return callback(null, text);
      buffered += text;
      // rewrite once the module script has arrived whole (cheap checks first: chunks are small)
      const start = buffered.indexOf('type="module"');
      const complete = start !== -1 && buffered.indexOf("</script>", start) !== -1;
      if (!complete && buffered.length <= MAX_BUFFER) return callback();
      passing = true;
      const out = complete ? deferHydration(buffered).html : buffered;
      buffered = "";
      callback(null, out);
    },
    flush(callback) {
      const rest = buffered + decoder.end();
      callback(null, rest || undefined);
    },
  });
}
