/**
 * Money is integer cents everywhere, in one of the shop's currencies; these are the only
 * conversions. Amounts are written without `Intl` (see infra/format.ts: the server and every
 * browser write the same text, and a phone loads no ICU data while the page hydrates); the tests
 * check every currency against `Intl.NumberFormat` in the currency's own locale.
 */
import { groupThousands } from "../infra/format.ts";

export const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = "USD";

interface CurrencyFormat {
  name: string;
  symbol: string;
  /** "1.234,56 €" rather than "$1,234.56" */
  symbolAfter: boolean;
  group: string;
  decimal: string;
  /** the locale whose conventions these are (the tests compare with Intl in it) */
  locale: string;
}

export const CURRENCY_FORMATS: Record<Currency, CurrencyFormat> = {
  USD: { name: "US dollar", symbol: "$", symbolAfter: false, group: ",", decimal: ".", locale: "en-US" },
  EUR: { name: "Euro", symbol: "€", symbolAfter: true, group: ".", decimal: ",", locale: "de-DE" },
  GBP: { name: "Pound sterling", symbol: "£", symbolAfter: false, group: ",", decimal: ".", locale: "en-GB" },
  CAD: {
    name: "Canadian dollar",
    symbol: "$",
    symbolAfter: false,
    group: ",",
    decimal: ".",
    locale: "en-CA",
  },
  AUD: {
    name: "Australian dollar",
    symbol: "$",
    symbolAfter: false,
    group: ",",
    decimal: ".",
    locale: "en-AU",
  },
};

export function isCurrency(value: unknown): value is Currency {
  return typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);
}

/** "129.99" or 129.99 → 12999. Throws on anything that is not a non-negative amount. */
export function toCents(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new RangeError(`Not a money amount: ${amount}`);
  const [whole, fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/**
 * 12999 → "$129.99" (USD), "129,99 €" (EUR), "£129.99" (GBP); -500 → "-$5.00". An unknown
 * currency (an old row) is written as US dollars.
 */
export function formatMoney(cents: number, currency: Currency): string {
  const format = CURRENCY_FORMATS[currency] ?? CURRENCY_FORMATS.USD;
  const whole = Math.round(Math.abs(cents));
  const sign = cents < 0 && whole > 0 ? "-" : "";
  const number = `${groupThousands(Math.floor(whole / 100), format.group)}${format.decimal}${String(whole % 100).padStart(2, "0")}`;
  return format.symbolAfter ? `${sign}${number}\u00a0${format.symbol}` : `${sign}${format.symbol}${number}`;
}

/** 5000 → "50" and 4999 → "49.99" in the currency's separators, with its symbol: "$50", "50 €". */
export function formatMoneyShort(cents: number, currency: Currency): string {
  if (cents % 100 !== 0) return formatMoney(cents, currency);
  const format = CURRENCY_FORMATS[currency] ?? CURRENCY_FORMATS.USD;
  const number = groupThousands(Math.abs(cents) / 100, format.group);
  const sign = cents < 0 ? "-" : "";
  return format.symbolAfter ? `${sign}${number}\u00a0${format.symbol}` : `${sign}${format.symbol}${number}`;
}

/** Whole percent saved from original to current price, or null when there is no saving. */
export function discountPercent(priceCents: number, originalPriceCents: number | null): number | null {
  if (originalPriceCents === null || originalPriceCents <= priceCents || originalPriceCents === 0) {
    return null;
  }
  return Math.round(((originalPriceCents - priceCents) / originalPriceCents) * 100);
}

/** A stored currency code as the shop's type (a row from before currencies: US dollars). */
export function currencyOf(code: string | null | undefined): Currency {
  return isCurrency(code) ? code : DEFAULT_CURRENCY;
}
