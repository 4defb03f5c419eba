/**
 * The system Chromium (Debian's; browser downloads are impossible here) and the flags that keep
 * it from reaching for the network. Shared by Playwright, the screenshot script and Lighthouse.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium";

/**
 * Debian's chromium-headless-shell: the same Chromium build without the browser UI, which is what
 * Playwright itself runs for headless tests. The e2e suite uses it when it is installed (it runs
 * the suite in ~2/3 of the CPU time of the full browser here), else the full browser.
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
