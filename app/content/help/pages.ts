/** The help centre's pages: one entry per /help/{slug}. Texts live beside this file, one module per page. */
import { formatMoney } from "../../lib/money.ts";
import { shippingSummarySentence } from "../../lib/shipping-terms-text.ts";
import type { Storefront } from "../../lib/shop-settings.ts";

/** Returns within 30 days for a full refund (spec §1, §9). */
export const RETURN_WINDOW_DAYS = 30;

export const HELP_PAGE_SLUGS = ["shipping", "returns", "faq", "terms", "privacy", "cookies"] as const;
export type HelpPageSlug = (typeof HELP_PAGE_SLUGS)[number];

export interface HelpPageInfo {
  slug: HelpPageSlug;
  /** the page's h1 and <title> */
  title: string;
  /** the label in the help navigation */
  navLabel: string;
  /** meta description, also the teaser on the help centre index (`helpPageDescription`) */
  description: string | ((shop: Storefront) => string);
  /** when the text last changed in substance (legal pages show it) */
  updated: string;
}

const UPDATED = "2026-11-22";

export const HELP_PAGES: Record<HelpPageSlug, HelpPageInfo> = {
  shipping: {
    slug: "shipping",
    title: "Shipping Information",
    navLabel: "Shipping",
    description: (shop) =>
      shippingSummarySentence(shop.terms.methods, (cents) => formatMoney(cents, shop.currency)),
    updated: UPDATED,
  },
  returns: {
    slug: "returns",
    title: "Returns & Exchanges",
    navLabel: "Returns & Exchanges",
    description: `Changed your mind? Return any item within ${RETURN_WINDOW_DAYS} days for a full refund. Here is how it works.`,
    updated: UPDATED,
  },
  faq: {
    slug: "faq",
    title: "Frequently Asked Questions",
    navLabel: "FAQ",
    description: "Answers to common questions about ordering, payment, delivery, returns and your account.",
    updated: UPDATED,
  },
  terms: {
    slug: "terms",
    title: "Terms of Service",
    navLabel: "Terms of Service",
    description: "The terms that apply when you browse our shop and buy from us.",
    updated: UPDATED,
  },
  privacy: {
    slug: "privacy",
    title: "Privacy Policy",
    navLabel: "Privacy Policy",
    description:
      "What personal data we collect, why we need it, who we share it with and the choices you have.",
    updated: UPDATED,
  },
  cookies: {
    slug: "cookies",
    title: "Cookie Policy",
    navLabel: "Cookie Policy",
    description:
      "We use only strictly necessary cookies: your cart, your sign-in session and one-off messages.",
    updated: UPDATED,
  },
};

/** A help page's description with the shop's own terms in it. */
export function helpPageDescription(slug: HelpPageSlug, shop: Storefront): string {
  const { description } = HELP_PAGES[slug];
  return typeof description === "function" ? description(shop) : description;
}

export function isHelpPageSlug(value: string | undefined): value is HelpPageSlug {
  return (HELP_PAGE_SLUGS as readonly string[]).includes(value ?? "");
}

export const helpPath = (slug: HelpPageSlug) => `/help/${slug}`;

/** Every help page's path, in navigation order (sitemaps use it). */
export const HELP_PAGE_PATHS = HELP_PAGE_SLUGS.map(helpPath);
