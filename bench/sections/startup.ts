/**
 * startup: spawn → first 200 on / for the production server with an empty data directory
 * (migrations, demo seed with generated images, first SSR render), against a bare node:http
 * process spawned the same way (Node's own boot time).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnTracked, waitFor200, waitForListening } from "../lib/procs.ts";
import type { Section } from "../lib/types.ts";

export const startup: Section = {
  name: "startup",
  description: "cold start on an empty data dir (migrate + seed + first render) vs bare node:http",
  async run(ctx) {
    const shop = await ctx.shop();

    const file = join(ctx.tmpDir, "hello.txt");
    writeFileSync(file, "hello\n");
    const spawned = performance.now();
    const ref = spawnTracked(process.execPath, [
      join(ctx.root, "bench/servers/fixed-bytes.ts"),
      file,
      "text/plain",
    ]);
    const port = await waitForListening(ref);
    const ready = await waitFor200(`http://127.0.0.1:${port}/`, ref);
    const refMs = ready - spawned;
    await ref.stop();

    return {
      rows: [
        {
          section: "startup",
          metric: "shop: spawn → first 200 on / (empty data dir)",
          value: shop.startupMs,
          unit: "ms",
          digits: 0,
        },
        {
          section: "startup",
          metric: "reference: bare node:http spawn → first 200",
          value: refMs,
          unit: "ms",
          digits: 0,
        },
        {
          section: "startup",
          metric: "ratio shop / reference",
          value: shop.startupMs / refMs,
          unit: "×",
          digits: 1,
        },
      ],
      data: { shopMs: Math.round(shop.startupMs), referenceMs: Math.round(refMs) },
    };
  },
};
