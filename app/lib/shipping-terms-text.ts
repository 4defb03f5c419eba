/**
 * The shop's shipping terms in words, for the pages that quote them (home, product pages, help,
 * FAQ): written from the home market's methods (markets.ts `shippingTerms`), so the defaults read
 * as the spec's shop always did ("Standard Shipping is free on orders of $50.00 or more and costs
 * $4.99 below that. Express Shipping costs $9.99 flat.").
 */
import { formatTaxRate, type MethodTerms, type ShippingTerms } from "./markets.ts";

type Money = (cents: number) => string;

/** "standard" of "Standard Shipping"; the name itself lower-cased when it says nothing else. */
function shortName(method: MethodTerms): string {
  const short = method.name.replace(/\s+(shipping|delivery)$/i, "").trim();
  return (short || method.name).toLowerCase();
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const ruleWord = (method: MethodTerms) => (method.rule === "weight" ? "weight" : "order value");

/** One sentence per method: what it costs. */
export function methodCostSentence(method: MethodTerms, money: Money): string {
  const free = method.freeOverCents === null ? null : money(method.freeOverCents);
  if (method.rule === "flat") {
    return free
      ? `${method.name} is free on orders of ${free} or more and costs ${money(method.fromCents)} below that.`
      : `${method.name} costs ${money(method.fromCents)} flat.`;
  }
  return `${method.name} costs from ${money(method.fromCents)} by ${ruleWord(method)}${
    free ? `, and is free on orders of ${free} or more` : ""
  }.`;
}

/** The cost as a table cell says it. */
export function methodCostCell(method: MethodTerms, money: Money): string {
  const free = method.freeOverCents === null ? null : money(method.freeOverCents);
  const price =
    method.rule === "flat"
      ? `${money(method.fromCents)} flat rate`
      : `from ${money(method.fromCents)}, by ${ruleWord(method)}`;
  if (!free) return price;
  return method.rule === "flat"
    ? `Free on orders of ${free} or more, otherwise ${money(method.fromCents)}`
    : `Free on orders of ${free} or more, otherwise ${price}`;
}

/** "Standard Shipping takes 4-6 business days; express shipping takes 1-3 business days." */
export function deliveryTimesSentence(methods: readonly MethodTerms[]): string {
  if (methods.length === 0) return "";
  return `${methods
    .map((method, index) => `${index === 0 ? method.name : method.name.toLowerCase()} takes ${method.days}`)
    .join("; ")}.`;
}

/** "Standard shipping in 4-6 business days, free on orders of $50.00 or more; express in 1-3 business days for $9.99." */
export function shippingSummarySentence(methods: readonly MethodTerms[], money: Money): string {
  const parts = methods.map((method, index) => {
    const name = index === 0 ? `${capitalized(shortName(method))} shipping` : shortName(method);
    const cost =
      method.freeOverCents !== null
        ? `, free on orders of ${money(method.freeOverCents)} or more`
        : ` for ${method.rule === "flat" ? "" : "from "}${money(method.fromCents)}`;
    return `${name} in ${method.days}${cost}`;
  });
  return parts.length > 0 ? `${parts.join("; ")}.` : "";
}

/**
 * The home page's promise: "Free standard delivery on orders over $50, express in 1-3 business
 * days." (the method that ships free, and the fastest other); null when no method ships free.
 */
export function deliveryPromise(terms: ShippingTerms, moneyShort: Money): string | null {
  const free = terms.methods.find((method) => method.freeOverCents === terms.freeShippingThresholdCents);
  if (!free || terms.freeShippingThresholdCents === null) return null;
  const others = terms.methods.filter((method) => method !== free && method.daysMax < free.daysMax);
  const fastest = [...others].sort((a, b) => a.daysMax - b.daysMax)[0];
  return `Free ${shortName(free)} delivery on orders over ${moneyShort(terms.freeShippingThresholdCents)}${
    fastest ? `, ${shortName(fastest)} in ${fastest.days}` : ""
  }.`;
}

/** How tax is charged, in one sentence for the FAQ and the terms. */
export function taxSentence(terms: ShippingTerms): string {
  const rate = formatTaxRate(terms.taxRateBasisPoints);
  return terms.taxIncluded
    ? `Our prices include tax (${terms.taxLabel}, ${rate} at our standard rate); the tax in your order is shown as its own line in the cart and at checkout.`
    : `Tax of ${rate} of your order subtotal is shown as its own line in the cart and at checkout, so the total you see before paying is the total you pay.`;
}
