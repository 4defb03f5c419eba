/**
 * The shop's settings (issue 20): stored in the database (`shop_settings`, one row), edited by the
 * owner in Admin → Settings, read by every page through the root loader (`useShopSettings`) and by
 * the server through `shopSettingsFrom(context)`. The environment's SHOP_NAME and CONTACT_* are the
 * defaults of a shop that has not saved its settings yet. Where the shop sells and how it charges
 * tax and shipping (`markets`: zones, rates, methods) are read with them and edited in
 * Admin → Settings → Zones (issue 30).
 */

import { COUNTRY_OPTION_VALUES } from "./countries.ts";
import {
  countryOptions,
  DEFAULT_MARKETS,
  type Markets,
  type ShippingTerms,
  shippingTerms,
} from "./markets.ts";
import { type Currency, DEFAULT_CURRENCY } from "./money.ts";

export const SOCIAL_NETWORKS = ["facebook", "instagram", "x", "youtube"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  x: "X",
  youtube: "YouTube",
};

export interface ShopSettings {
  shopName: string;
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
  /** a profile's address per network; "" hides the link */
  socialLinks: Record<SocialNetwork, string>;
  /** the shop's currency: every amount is in it */
  currency: Currency;
  /** what invoices name: the business, its address and its tax id ("" until the owner says) */
  legalName: string;
  legalAddress: string;
  taxId: string;
  /** an IANA time zone: the admin enters and reads promotions' schedules in it */
  timeZone: string;
  /** where the shop sells and how it charges (read with the settings, saved on their own) */
  markets: Markets;
}

/**
 * What every page is told of the shop: its settings without the zones; the home market's terms;
 * the countries an address may be in (the zones'), and the one an address form starts at.
 */
export interface Storefront extends Omit<ShopSettings, "markets"> {
  terms: ShippingTerms;
  countries: { value: string; name: string }[];
  defaultCountry: string;
}

export function storefrontOf({ markets, ...settings }: ShopSettings): Storefront {
  return {
    ...settings,
    terms: shippingTerms(markets),
    countries: countryOptions(markets),
    defaultCountry: COUNTRY_OPTION_VALUES[markets.estimateCountry] ?? markets.estimateCountry,
  };
}

/** The settings a new shop starts with, before the environment's name and contact details. */
export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  shopName: "Cartwheel",
  contactEmail: "hello@cartwheel.example",
  contactPhone: "+1 (555) 010-0199",
  contactAddress: "100 Market Street, Springfield, USA",
  socialLinks: {
    facebook: "https://www.facebook.com/",
    instagram: "https://www.instagram.com/",
    x: "https://x.com/",
    youtube: "https://www.youtube.com/",
  },
  currency: DEFAULT_CURRENCY,
  legalName: "",
  legalAddress: "",
  taxId: "",
  timeZone: "UTC",
  markets: DEFAULT_MARKETS,
};

/** "+1 (555) 010-0199" → "tel:+15550100199" */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, "")}`;

/** What an e-mail needs of the shop: its name (settings) and its address on the web. */
export interface MailShop {
  shopName: string;
  publicUrl: string;
}

export function mailShop(settings: Pick<ShopSettings, "shopName">, publicUrl: string): MailShop {
  return { shopName: settings.shopName, publicUrl };
}

/** What a page shows before the root loader answered (an error page). */
export const DEFAULT_STOREFRONT: Storefront = storefrontOf(DEFAULT_SHOP_SETTINGS);
