const CHECK_ORIGIN = "http://same-site.invalid";

/** Only same-site paths are followed after a form post; anything else goes home. */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (
    typeof to !== "string" ||
    !to.startsWith("/") ||
    to.startsWith("//") ||
    to.startsWith("/\\") ||
    // browsers drop tabs and newlines from URLs, so "/\t/evil.com" would become "//evil.com"
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    /[\u0000-\u001f\u007f]/.test(to) ||
    new URL(to, CHECK_ORIGIN).origin !== CHECK_ORIGIN
  ) {
    return fallback;
  }
  return to;
}
