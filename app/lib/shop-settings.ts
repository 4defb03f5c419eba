/**
 * The shop's settings (issue 20): stored in the database (`shop_settings`, one row), edited by the
 * owner in Admin → Settings, read by every page through the root loader (`useShopSettings`) and by
 * the server through `shopSettingsFrom(context)`. The environment's SHOP_NAME and CONTACT_* are the
 * defaults of a shop that has not saved its settings yet; the spec's constants are the pricing's.
 */
import { DEFAULT_PRICING, type Pricing } from "./pricing.ts";

export const SOCIAL_NETWORKS = ["facebook", "instagram", "x", "youtube"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  x: "X",
  youtube: "YouTube",
};

export interface ShopSettings extends Pricing {
  shopName: string;
  contactEmail: string;
  contactPhone: string;
  contactAddress: string;
  /** a profile's address per network; "" hides the link */
  socialLinks: Record<SocialNetwork, string>;
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
  ...DEFAULT_PRICING,
};

/** "+1 (555) 010-0199" → "tel:+15550100199" */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, "")}`;

/** What an e-mail needs of the shop: its name and tax label (settings) and its address on the web. */
export interface MailShop {
  shopName: string;
  taxLabel: string;
  publicUrl: string;
}

export function mailShop(settings: ShopSettings, publicUrl: string): MailShop {
  return { shopName: settings.shopName, taxLabel: settings.taxLabel, publicUrl };
}
