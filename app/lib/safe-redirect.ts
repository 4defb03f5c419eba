const CHECK_ORIGIN = "http://same-site.invalid";

/**
 * The longest path (with its query) a redirect follows or carries back. The shop's own paths are
 * far shorter; a longer one is somebody's padding, and copying it into a `Location` header makes
 * headers that proxies and clients refuse.
 */
export const MAX_REDIRECT_PATH_LENGTH = 1024;

/** Only short same-site paths are followed after a form post; anything else goes to `fallback`. */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (
    typeof to !== "string" ||
    to.length > MAX_REDIRECT_PATH_LENGTH ||
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

/**
 * The sign-in page, coming back to `target` afterwards (`/account?redirectTo=…`). A target that is
 * not a safe same-site path is dropped; one whose encoded form is too long loses its query first,
 * then is dropped — the `Location` header stays short whatever the visitor asked for.
 */
export function signInPath(target: string): string {
  for (const candidate of [target, target.split(/[?#]/)[0] ?? ""]) {
    const back = safeRedirectPath(candidate, "");
    if (back === "" || back === "/account") continue;
    const encoded = encodeURIComponent(back);
    if (encoded.length <= MAX_REDIRECT_PATH_LENGTH) return `/account?redirectTo=${encoded}`;
  }
  return "/account";
}
