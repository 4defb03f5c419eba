import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { deferHydration, deferHydrationBytes, deferHydrationStream } from "./deferred-hydration.server.ts";

/** The shape of what React Router's <Scripts> and React 19 stream for a document. */
const NONCE = "abc123==";
const document = (moduleBody: string) =>
  [
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
    `<link rel="modulepreload" href="/assets/entry.client-AAA.js" nonce="${NONCE}"/>`,
    `<link rel="modulepreload" href="/assets/jsx-runtime-BBB.js" nonce="${NONCE}"/>`,
    `<link rel="modulepreload" href="/assets/root-CCC.js" nonce="${NONCE}"/>`,
    '<link rel="icon" href="/favicon.svg"/>',
    "<style>body{margin:0}</style></head><body><main><h1>Café – Ünïcode ✓</h1></main>",
    `<script nonce="${NONCE}">window.__reactRouterContext = {"ssr":true};</script>`,
    `<script nonce="${NONCE}" type="module" async="">${moduleBody}</script>`,
    `<script nonce="${NONCE}">window.__reactRouterContext.streamController.enqueue("[]");</script>`,
    "</body></html>",
  ].join("");

const ROUTER_MODULE_SCRIPT = [
  ";",
  'import * as route0 from "/assets/root-CCC.js";',
  'import * as route1 from "/assets/products._index-DDD.js";',
  '  window.__reactRouterManifest = {"entry":{"module":"/assets/entry.client-AAA.js","imports":["/assets/jsx-runtime-BBB.js"]},"routes":{"routes/admin.products.import":{}}};',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/products._index":route1};',
  "",
  'import("/assets/entry.client-AAA.js");',
].join("\n");

describe("deferHydration", () => {
  it("drops the modulepreload links and loads the same modules from a boot function run after load", () => {
    const { html, done } = deferHydration(document(ROUTER_MODULE_SCRIPT));
    expect(done).toBe(true);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link rel="icon" href="/favicon.svg"/>');
    const script = /<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)!;
    expect(script[0]).toContain(`nonce="${NONCE}"`);
    const body = script[1]!;
    // no static import is left: nothing is fetched until boot runs
    expect(body).not.toMatch(/^\s*import\s+[^(]/m);
    expect(body).toContain(
      '["/assets/entry.client-AAA.js","/assets/jsx-runtime-BBB.js","/assets/root-CCC.js"]',
    );
    expect(body).toContain(
      'const [route0, route1] = await Promise.all([import("/assets/root-CCC.js"), import("/assets/products._index-DDD.js")]);',
    );
    // React Router's own code runs unchanged, in order, after the route modules
    expect(body.indexOf("window.__reactRouterManifest")).toBeGreaterThan(body.indexOf("Promise.all"));
    expect(body).toContain(
      'window.__reactRouterRouteModules = {"root":route0,"routes/products._index":route1};',
    );
    expect(body.indexOf('import("/assets/entry.client-AAA.js")')).toBeGreaterThan(
      body.indexOf("window.__reactRouterRouteModules"),
    );
    expect(body).toContain('addEventListener("load", later, { once: true })');
    // the rest of the document is untouched
    expect(html).toContain("<h1>Café – Ünïcode ✓</h1>");
    expect(html).toContain('window.__reactRouterContext.streamController.enqueue("[]");');
  });

  it("runs boot as a script: routes are imported before the manifest is set and the entry last", async () => {
    const { html } = deferHydration(document(ROUTER_MODULE_SCRIPT));
    const body = /<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const calls: string[] = [];
    const listeners: Array<() => void> = [];
    const win: Record<string, unknown> = {};
    const fakeImport = async (url: string) => {
      calls.push(`import ${url}`);
      return { url };
    };
    const run = new Function(
      "document",
      "addEventListener",
      "requestAnimationFrame",
      "setTimeout",
      "window",
      "__import",
      body.replaceAll("import(", "__import("),
    );
    const head: string[] = [];
    run(
      {
        readyState: "loading",
        createElement: () => ({}),
        createDocumentFragment: () => {
          const links: Array<{ href: string }> = [];
          return { links, append: (link: { href: string }) => links.push(link) };
        },
        head: {
          append: (fragment: { links: Array<{ href: string }> }) =>
            head.push(...fragment.links.map((link) => link.href)),
        },
      },
      (event: string, listener: () => void) => event === "load" && listeners.push(listener),
      (callback: () => void) => callback(),
      (callback: () => void) => callback(),
      win,
      fakeImport,
    );
    expect(calls).toEqual([]);
    expect(listeners).toHaveLength(1);
    listeners[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(head).toEqual([
      "/assets/entry.client-AAA.js",
      "/assets/jsx-runtime-BBB.js",
      "/assets/root-CCC.js",
    ]);
    expect(calls).toEqual([
      "import /assets/root-CCC.js",
      "import /assets/products._index-DDD.js",
      "import /assets/entry.client-AAA.js",
    ]);
    expect(win.__reactRouterRouteModules).toEqual({
      root: { url: "/assets/root-CCC.js" },
      "routes/products._index": { url: "/assets/products._index-DDD.js" },
    });
  });

  it("leaves a module script with another static import alone", () => {
    const body = `import "/@vite/client";\n${ROUTER_MODULE_SCRIPT}`;
    const { html, done } = deferHydration(document(body));
    expect(done).toBe(true);
    expect(html).toBe(document(body));
  });

  it("waits for more HTML while the module script has not arrived", () => {
    const partial = document(ROUTER_MODULE_SCRIPT).slice(0, 300);
    expect(deferHydration(partial)).toEqual({ html: partial, done: false });
  });
});

describe("deferHydrationStream", () => {
  it("gives the same document whatever the chunking, multi-byte characters split included", async () => {
    const source = Buffer.from(document(ROUTER_MODULE_SCRIPT), "utf8");
    const expected = deferHydration(document(ROUTER_MODULE_SCRIPT)).html;
    for (const size of [1, 2, 3, 7, 9, 12, 13, 14, 64, source.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < source.length; i += size) chunks.push(source.subarray(i, i + size));
      const out = await text(Readable.from(chunks).pipe(deferHydrationStream()));
      expect(out, `chunks of ${size} bytes`).toBe(expected);
    }
  });

  it("rewrites bytes exactly as deferHydration rewrites text, odd documents included", () => {
    const documents = [
      document(ROUTER_MODULE_SCRIPT),
      // a mark in the text before the real script, and a preload-looking text
      document(ROUTER_MODULE_SCRIPT).replace(
        "<main>",
        '<main><p>type="module" &lt;link rel="modulepreload"</p>',
      ),
      // a module script that is not React Router's: left alone
      document('import "/assets/other.js";'),
      // no module script at all
      "<!DOCTYPE html><html><body><p>Prêt ✓</p></body></html>",
    ];
    for (const html of documents) {
      expect(deferHydrationBytes(Buffer.from(html)).toString("utf8")).toBe(deferHydration(html).html);
    }
  });

  it("passes a document without a module script through unchanged", async () => {
    const html = "<!DOCTYPE html><html><body><p>Prêt ✓</p></body></html>";
    const out = await text(Readable.from([Buffer.from(html)]).pipe(deferHydrationStream()));
    expect(out).toBe(html);
  });
});
