/**
 * The owner's settings form (Admin → Settings). Pure: the fields, their labels and messages, and
 * the values shown for stored settings; the rules are settings-schema.server.ts's.
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
  "taxRate",
  "taxLabel",
  "standardShipping",
  "freeShippingThreshold",
  "expressShipping",
  "standardDaysMin",
  "standardDaysMax",
  "expressDaysMin",
  "expressDaysMax",
] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];
export type SettingsFormValues = Record<SettingsField, string>;

export const SETTINGS_LIMITS = {
  shopName: 80,
  contactEmail: 254,
  contactPhone: 40,
  contactAddress: 200,
  url: 300,
  taxLabel: 40,
  /** the largest fee or threshold, in the currency's units */
  amount: 100_000,
  days: 90,
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
  taxRate: "Enter a percentage from 0 to 100 with at most 2 decimals, e.g. 7 or 8.25.",
  taxLabel: `Enter the label shown beside tax (at most ${SETTINGS_LIMITS.taxLabel} characters).`,
  amount: "Enter an amount of 0 or more, in steps of 0.01 (at most 100,000).",
  days: `Enter a whole number of days from 1 to ${SETTINGS_LIMITS.days}.`,
  daysOrder: "The last day cannot come before the first.",
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
  taxRate: "Tax rate (%)",
  taxLabel: "Tax label",
  standardShipping: "Standard shipping fee",
  freeShippingThreshold: "Free standard shipping from (subtotal)",
  expressShipping: "Express shipping fee",
  standardDaysMin: "Standard delivery: from (business days)",
  standardDaysMax: "Standard delivery: to (business days)",
  expressDaysMin: "Express delivery: from (business days)",
  expressDaysMax: "Express delivery: to (business days)",
};

export const CURRENCY_OPTIONS = CURRENCIES.map((code) => ({
  value: code,
  label: `${code} — ${CURRENCY_FORMATS[code].name} (${CURRENCY_FORMATS[code].symbol})`,
}));

/** 499 → "4.99" (the form's amounts: a point before the cents, whatever the currency writes). */
const amountText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** 700 → "7", 825 → "8.25". */
export const taxRateText = (basisPoints: number) =>
  basisPoints % 100 === 0 ? String(basisPoints / 100) : (basisPoints / 100).toFixed(2).replace(/0$/, "");

/** What the form shows for the stored settings. */
export function settingsFormValues(settings: ShopSettings): SettingsFormValues {
  return {
    shopName: settings.shopName,
    contactEmail: settings.contactEmail,
    contactPhone: settings.contactPhone,
    contactAddress: settings.contactAddress,
    ...settings.socialLinks,
    currency: settings.currency,
    taxRate: taxRateText(settings.taxRateBasisPoints),
    taxLabel: settings.taxLabel,
    standardShipping: amountText(settings.standardShippingCents),
    freeShippingThreshold: amountText(settings.freeShippingThresholdCents),
    expressShipping: amountText(settings.expressShippingCents),
    standardDaysMin: String(settings.standardDays.min),
    standardDaysMax: String(settings.standardDays.max),
    expressDaysMin: String(settings.expressDays.min),
    expressDaysMax: String(settings.expressDays.max),
  };
}
