/**
 * The owner's settings form (Admin → Settings). Pure: the fields, their labels and messages, and
 * the values shown for stored settings; the rules are settings-schema.server.ts's. Tax and shipping
 * are the zones' (Admin → Settings → Zones, zone-form.ts); the legal details are what invoices name.
 */
import { CURRENCIES, CURRENCY_FORMATS } from "../../lib/money.ts";
import type { ShopSettings } from "../../lib/shop-settings.ts";

export const SETTINGS_FIELDS = [
  "shopName",
  "contactEmail",
  "contactPhone",
  "contactAddress",
  "facebook",
  "instagram",
  "x",
  "youtube",
  "currency",
  "legalName",
  "legalAddress",
  "taxId",
  "timeZone",
] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];
export type SettingsFormValues = Record<SettingsField, string>;

export const SETTINGS_LIMITS = {
  shopName: 80,
  contactEmail: 254,
  contactPhone: 40,
  contactAddress: 200,
  url: 300,
  legalName: 120,
  legalAddress: 300,
  taxId: 40,
} as const;

export const SETTINGS_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  saved: "Settings saved",
  unchanged: "Nothing changed",
  shopName: `Enter the shop's name (at most ${SETTINGS_LIMITS.shopName} characters).`,
  contactEmail: "Enter a valid e-mail address.",
  contactPhone: `Enter a phone number (3 to ${SETTINGS_LIMITS.contactPhone} characters).`,
  contactAddress: `Enter the address (3 to ${SETTINGS_LIMITS.contactAddress} characters).`,
  url: "Enter a web address starting with https://, or leave it empty to hide the link.",
  currency: "Choose one of the listed currencies.",
  legalName: `Enter the business's legal name in at most ${SETTINGS_LIMITS.legalName} characters, or leave it empty to use the shop's name.`,
  legalAddress: `Enter the registered address in at most ${SETTINGS_LIMITS.legalAddress} characters, or leave it empty.`,
  taxId: `Enter the tax ID in at most ${SETTINGS_LIMITS.taxId} characters, or leave it empty.`,
  timeZone: "Choose one of the listed time zones.",
} as const;

export const SETTINGS_LABELS: Record<SettingsField, string> = {
  shopName: "Shop name",
  contactEmail: "Contact e-mail",
  contactPhone: "Contact phone",
  contactAddress: "Address",
  facebook: "Facebook page",
  instagram: "Instagram profile",
  x: "X profile",
  youtube: "YouTube channel",
  currency: "Currency",
  legalName: "Legal name",
  legalAddress: "Legal address",
  taxId: "Tax ID",
  timeZone: "Time zone",
};

export const CURRENCY_OPTIONS = CURRENCIES.map((code) => ({
  value: code,
  label: `${code} — ${CURRENCY_FORMATS[code].name} (${CURRENCY_FORMATS[code].symbol})`,
}));

/** What the form shows for the stored settings. */
export function settingsFormValues(settings: Omit<ShopSettings, "markets">): SettingsFormValues {
  return {
    shopName: settings.shopName,
    contactEmail: settings.contactEmail,
    contactPhone: settings.contactPhone,
    contactAddress: settings.contactAddress,
    ...settings.socialLinks,
    currency: settings.currency,
    legalName: settings.legalName,
    legalAddress: settings.legalAddress,
    taxId: settings.taxId,
    timeZone: settings.timeZone,
  };
}
