/**
 * The ordered list of benchmark sections. To add one (e.g. `catalogue` on 100k/1M synthetic
 * products, or `checkout`), write bench/sections/<name>.ts exporting a `Section` and list it here;
 * `npm run bench -- --only <name>` then selects it. Sections share the shop server through
 * ctx.shop() (started once, on an empty data dir) — a section that needs its own data set should
 * start its own server with startShop() from bench/lib/shop.ts.
 */
import type { Section } from "../lib/types.ts";
import { api } from "./api.ts";
import { backups } from "./backups.ts";
import { bundle } from "./bundle.ts";
import { calculator } from "./calculator.ts";
import { catalog } from "./catalog.ts";
import { checkout } from "./checkout.ts";
import { dashboard } from "./dashboard.ts";
import { http } from "./http.ts";
import { lighthouse } from "./lighthouse.ts";
import { memory } from "./memory.ts";
import { metrics } from "./metrics.ts";
import { promotions } from "./promotions.ts";
import { search } from "./search.ts";
import { startup } from "./startup.ts";

export const sections: Section[] = [
  startup,
  http,
  memory,
  lighthouse,
  bundle,
  catalog,
  checkout,
  calculator,
  promotions,
  dashboard,
  backups,
  metrics,
  api,
  search,
];
