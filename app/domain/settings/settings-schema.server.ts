import { z } from "zod";
import { CURRENCIES } from "../../lib/money.ts";
import type { ShopSettings } from "../../lib/shop-settings.ts";
import { isTimeZone } from "../../lib/time-zones.ts";
import { SETTINGS_LIMITS as LIMITS, SETTINGS_MESSAGES as M } from "./settings-form.ts";

/**
 * The settings form's zod schema (parsed by the route through Conform), giving the settings to
 * store. Server only, like the coupon forms' (zod's eval probe and the shop's CSP).
 */

/** A text field as the form sends it (Conform gives an empty one as undefined): trimmed. */
const text = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim());

const bounded = (min: number, max: number, message: string) =>
  text().pipe(z.string().min(min, message).max(max, message));

/** "" (no link) or an https address of at most LIMITS.url characters. */
const isLinkOrEmpty = (value: string) => {
  if (value === "") return true;
  if (value.length > LIMITS.url || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === "https:" && url.hostname.includes(".") && url.username === "" && url.password === ""
  );
};
const socialUrl = text().refine(isLinkOrEmpty, M.url);

/** Text that may be left empty, at most `max` characters. */
const optional = (max: number, message: string) => text().pipe(z.string().max(max, message));

export const settingsFormSchema = z
  .object({
    shopName: bounded(1, LIMITS.shopName, M.shopName),
    contactEmail: text().pipe(z.email(M.contactEmail).max(LIMITS.contactEmail, M.contactEmail)),
    contactPhone: bounded(3, LIMITS.contactPhone, M.contactPhone),
    contactAddress: bounded(3, LIMITS.contactAddress, M.contactAddress),
    facebook: socialUrl,
    instagram: socialUrl,
    x: socialUrl,
    youtube: socialUrl,
    currency: z.enum(CURRENCIES, { error: M.currency }),
    legalName: optional(LIMITS.legalName, M.legalName),
    // the address's lines as typed (Windows and old Mac line ends read as one)
    legalAddress: text()
      .transform((value) => value.replace(/\r\n?/g, "\n"))
      .pipe(z.string().max(LIMITS.legalAddress, M.legalAddress)),
    taxId: optional(LIMITS.taxId, M.taxId),
    timeZone: text().refine(isTimeZone, M.timeZone),
  })
  .transform(
    (form): Omit<ShopSettings, "markets"> => ({
      shopName: form.shopName,
      contactEmail: form.contactEmail,
      contactPhone: form.contactPhone,
      contactAddress: form.contactAddress,
      socialLinks: { facebook: form.facebook, instagram: form.instagram, x: form.x, youtube: form.youtube },
      currency: form.currency,
      legalName: form.legalName,
      legalAddress: form.legalAddress,
      taxId: form.taxId,
      timeZone: form.timeZone,
    }),
  );
