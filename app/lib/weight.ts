/**
 * A variant's weight (issue 30: weight-based shipping adds up a cart's weights) is whole grams in the
 * database and in all arithmetic; people type and read it in kilograms with up to 3 decimals (the
 * admin's product form and variant grid, the products CSV, Admin → Settings → Zones' weight bands).
 * These are the only conversions. Pure, without zod: the admin pages' browser code reads them.
 */

/** The most a variant may weigh: 1,000 kg (more is a typing slip, not a parcel). */
export const MAX_WEIGHT_GRAMS = 1_000_000;

/** A weight as typed, in kg: up to 4 digits and 3 decimals, a decimal point ("0.25", "1.6", "20"). */
export const WEIGHT_KG_TEXT = /^\d{1,4}(\.\d{1,3})?$/;

/** "0.25" → 250, "1.6" → 1600, " 20 " → 20000; null for anything else or more than MAX_WEIGHT_GRAMS. */
export function gramsFromKg(text: string): number | null {
  const typed = text.trim();
  if (!WEIGHT_KG_TEXT.test(typed)) return null;
  const [whole = "0", fraction = ""] = typed.split(".");
  const grams = Number(whole) * 1000 + Number(fraction.padEnd(3, "0"));
  return grams <= MAX_WEIGHT_GRAMS ? grams : null;
}

/** 250 → "0.25", 1600 → "1.6", 20000 → "20", 0 → "0", 1 → "0.001": what the forms show and the CSV writes. */
export function kgText(grams: number): string {
  const whole = Math.floor(grams / 1000);
  const fraction = String(grams % 1000)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return fraction === "" ? String(whole) : `${whole}.${fraction}`;
}
