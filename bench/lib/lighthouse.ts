/** One Lighthouse run (mobile defaults, simulated throttling) against a fresh headless Chromium. */
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../scripts/chromium.ts";
import { onCleanup } from "./procs.ts";

export const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_ARGS];

export async function runLighthouse(url: string): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: "silent",
    handleSIGINT: false,
  });
  const unregister = onCleanup(() => chrome.kill());
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse runtime error on ${url}: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    unregister();
    chrome.kill();
  }
}
