import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import stylesHref from "../app.css?url";

let css: string | undefined;

/** The built stylesheet's text, read once from build/client next to the server bundle. */
export function inlineCss(): string {
  if (css !== undefined) return css;
  if (import.meta.env.DEV) {
    css = "";
  } else {
    const file = fileURLToPath(new URL(`../client${stylesHref}`, import.meta.url));
    // Inside a <style> element only "</style" could end it early; CSS never needs it.
    css = readFileSync(file, "utf8").replaceAll("</style", "<\\/style");
  }
  return css;
}
