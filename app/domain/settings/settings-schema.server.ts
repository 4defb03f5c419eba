import { z } from "zod";
import { CURRENCIES, toCents } from "../../lib/money.ts";
import type { ShopSettings } from "../../lib/shop-settings.ts";
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

const amount = text().pipe(
  z
    .string()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, M.amount)
    .transform((value) => toCents(value))
    .refine((cents) => cents <= LIMITS.amount * 100, M.amount),
);

const taxRate = text().pipe(
  z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, M.taxRate)
    .transform((value) => Math.round(toCents(value)))
    .refine((basisPoints) => basisPoints <= 10_000, M.taxRate),
);

const days = text().pipe(
  z
    .string()
    .regex(/^\d{1,2}$/, M.days)
    .transform(Number)
    .refine((n) => n >= 1 && n <= LIMITS.days, M.days),
);

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
    taxRate,
    taxLabel: bounded(1, LIMITS.taxLabel, M.taxLabel),
    standardShipping: amount,
    freeShippingThreshold: amount,
    expressShipping: amount,
    standardDaysMin: days,
    standardDaysMax: days,
    expressDaysMin: days,
    expressDaysMax: days,
  })
  .superRefine((form, ctx) => {
    if (form.standardDaysMax < form.standardDaysMin) {
      ctx.addIssue({ code: "custom", path: ["standardDaysMax"], message: M.daysOrder });
    }
    if (form.expressDaysMax < form.expressDaysMin) {
      ctx.addIssue({ code: "custom", path: ["expressDaysMax"], message: M.daysOrder });
    }
  })
  .transform(
    (form): ShopSettings => ({
      shopName: form.shopName,
      contactEmail: form.contactEmail,
      contactPhone: form.contactPhone,
      contactAddress: form.contactAddress,
      socialLinks: { facebook: form.facebook, instagram: form.instagram, x: form.x, youtube: form.youtube },
      currency: form.currency,
      taxRateBasisPoints: form.taxRate,
      taxLabel: form.taxLabel,
      standardShippingCents: form.standardShipping,
      freeShippingThresholdCents: form.freeShippingThreshold,
      expressShippingCents: form.expressShipping,
      standardDays: { min: form.standardDaysMin, max: form.standardDaysMax },
      expressDays: { min: form.expressDaysMin, max: form.expressDaysMax },
    }),
  );
