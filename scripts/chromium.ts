/**
 * The system Chromium (Debian's; browser downloads are impossible here) and the flags that keep
 * it from reaching for the network. Shared by Playwright, the screenshot script and Lighthouse.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
