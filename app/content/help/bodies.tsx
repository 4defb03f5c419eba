import type { ComponentType } from "react";
import CookiesContent from "./cookies.tsx";
import FaqContent from "./faq.tsx";
import type { HelpPageSlug } from "./pages.ts";
import PrivacyContent from "./privacy.tsx";
import ReturnsContent from "./returns.tsx";
import ShippingContent from "./shipping.tsx";
import TermsContent from "./terms.tsx";

/** Each help page's text. */
export const HELP_PAGE_BODIES: Record<HelpPageSlug, ComponentType> = {
  shipping: ShippingContent,
  returns: ReturnsContent,
  faq: FaqContent,
  terms: TermsContent,
  privacy: PrivacyContent,
  cookies: CookiesContent,
};

/** Pages that show a "Last updated" date (the legal ones). */
export const DATED_PAGES: ReadonlySet<HelpPageSlug> = new Set(["terms", "privacy", "cookies"]);
