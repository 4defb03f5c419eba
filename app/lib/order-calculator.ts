/**
 * The order calculator (issue 30): one pure function every figure of the shop comes from — the
 * cart, the checkout's summary (on the server and in the browser), Place Order, the confirmation,
 * the e-mails, the order pages, invoices, refunds and returns. Lines, discounts, shipping and the
 * destination's tax rates in; each line's net, tax and gross, shipping, the tax per rate and the
 * totals out, in integer cents. It only does arithmetic: what a promotion takes off or which rate
 * a line bears is decided before (a promotion changes its input, never its arithmetic).
 *
 * - Prices are entered either excluding tax (`mode: "exclusive"`: tax is added at checkout, by the
 *   destination's rates; US, Canada) or including it (`"inclusive"`: the price is what the shopper
 *   pays, the tax is extracted from it; EU, UK, Australia).
 * - An order's discount is spread over its lines in proportion to what each line costs after its
 *   own discount (largest remainder: the parts add up to the whole exactly, never more than a line
 *   costs), so each line's tax is computed on what was really charged — a discount never moves tax
 *   from one rate to another.
 * - Rounding (`rounding`): `per-order` (the default) rounds once per tax rate, on the sum of the
 *   lines (and the shipping) bearing it, and shares that tax back over them; `per-line` rounds each
 *   line's tax and adds them up. Half-up, in integers.
 * - Shipping is taxed at the rate the caller gives it (a zone's choice), or not at all (`null`).
 */

export type TaxMode = "exclusive" | "inclusive";
export type TaxRounding = "per-order" | "per-line";

export interface TaxRate {
  /** what the order keeps to tell its rates apart, e.g. "de:standard" or "us-ca:standard" */
  id: string;
  /** what the shopper reads beside it, e.g. "VAT 19%" or "Sales tax" */
  label: string;
  /** 1900 = 19 %; 0 for a zero-rated or exempt line */
  basisPoints: number;
}

export interface CalculatorLine {
  key: string;
  /** in the shop's mode: including tax when `mode` is inclusive, else excluding */
  unitPriceCents: number;
  quantity: number;
  rate: TaxRate;
  /** the line's own discount (a product promotion), taken before the order's discount is spread */
  discountCents?: number;
}

export interface CalculatorInput {
  mode: TaxMode;
  rounding: TaxRounding;
  lines: readonly CalculatorLine[];
  /** a discount on the whole order (a coupon), spread over the lines */
  orderDiscountCents?: number;
  /** the shipping method's price in the shop's mode, and its rate (null: shipping is not taxed) */
  shipping?: { priceCents: number; rate: TaxRate | null } | null;
}

export interface CalculatedLine {
  key: string;
  quantity: number;
  unitPriceCents: number;
  /** unit price × quantity, as entered */
  amountCents: number;
  /** the line's own discount and its share of the order's */
  discountCents: number;
  /** what is charged for the line: amount − discount, in the shop's mode */
  chargedCents: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
  rate: TaxRate;
}

export interface CalculatedShipping {
  priceCents: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
  rate: TaxRate | null;
}

export interface TaxLine {
  rateId: string;
  label: string;
  basisPoints: number;
  /** the net amount the rate was applied to */
  netCents: number;
  taxCents: number;
}

export interface OrderCalculation {
  mode: TaxMode;
  lines: CalculatedLine[];
  shipping: CalculatedShipping | null;
  /** one per rate that bears tax (> 0 %), in the order rates first appear */
  taxLines: TaxLine[];
  /** the lines' amounts as entered (gross when prices include tax): what the summary lists first */
  subtotalCents: number;
  discountCents: number;
  /** shipping as entered */
  shippingCents: number;
  taxCents: number;
  /** what the shopper pays: the lines' and shipping's gross */
  totalCents: number;
}

/** numerator / denominator, rounded half up; both whole and ≥ 0, denominator > 0. */
export function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** The tax in an amount at a rate: on top of a net amount, or inside a gross one. */
function taxOf(amountCents: number, basisPoints: number, mode: TaxMode): number {
  if (basisPoints === 0 || amountCents === 0) return 0;
  return mode === "exclusive"
    ? divideRounded(amountCents * basisPoints, 10_000)
    : divideRounded(amountCents * basisPoints, 10_000 + basisPoints);
}

/**
 * `total` shared over `weights` in proportion, each share a whole number: the floor of its exact
 * share, and the cents left over to the largest remainders (ties: the earlier weight). With
 * `total` ≤ the weights' sum no share passes its weight, and the shares always add up to `total`.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const shares = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const byRemainder = weights
    .map((w, i) => ({ i, remainder: (total * w) % sum }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

function assertWhole(name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number of cents ≥ 0, got ${value}`);
  }
}

export function calculateOrder(input: CalculatorInput): OrderCalculation {
  const { mode, rounding } = input;
  for (const line of input.lines) {
    assertWhole(`line ${line.key} price`, line.unitPriceCents);
    assertWhole(`line ${line.key} quantity`, line.quantity);
    assertWhole(`line ${line.key} discount`, line.discountCents ?? 0);
    assertWhole(`rate ${line.rate.id}`, line.rate.basisPoints);
  }
  assertWhole("order discount", input.orderDiscountCents ?? 0);

  // 1. what each line costs after its own discount, then its share of the order's discount
  const amounts = input.lines.map((line) => line.unitPriceCents * line.quantity);
  const own = input.lines.map((line, i) => Math.min(line.discountCents ?? 0, amounts[i]!));
  const afterOwn = amounts.map((amount, i) => amount - own[i]!);
  const orderDiscount = Math.min(
    input.orderDiscountCents ?? 0,
    afterOwn.reduce((a, b) => a + b, 0),
  );
  const shares = allocate(orderDiscount, afterOwn);
  const charged = afterOwn.map((amount, i) => amount - shares[i]!);

  // 2. the tax of each line (and the shipping), rounded per line or per rate
  const shippingPrice = input.shipping?.priceCents ?? 0;
  assertWhole("shipping", shippingPrice);
  const shippingRate = input.shipping?.rate ?? null;
  const lineTax = charged.map((amount, i) => taxOf(amount, input.lines[i]!.rate.basisPoints, mode));
  let shippingTax = shippingRate ? taxOf(shippingPrice, shippingRate.basisPoints, mode) : 0;
  if (rounding === "per-order") {
    // once per rate, on the sum of what bears it; shared back in proportion
    const rates = new Map<string, number[]>();
    input.lines.forEach((line, i) => {
      rates.set(line.rate.id, [...(rates.get(line.rate.id) ?? []), i]);
    });
    const shippingJoins = shippingRate && shippingPrice > 0 ? shippingRate.id : null;
    const ids = new Set([...rates.keys(), ...(shippingJoins ? [shippingJoins] : [])]);
    for (const id of ids) {
      const members = rates.get(id) ?? [];
      const bp =
        members.length > 0 ? input.lines[members[0]!]!.rate.basisPoints : (shippingRate?.basisPoints ?? 0);
      const parts = [...members.map((i) => charged[i]!), ...(shippingJoins === id ? [shippingPrice] : [])];
      const tax = taxOf(
        parts.reduce((a, b) => a + b, 0),
        bp,
        mode,
      );
      const split = allocate(tax, parts);
      members.forEach((i, k) => {
        lineTax[i] = split[k]!;
      });
      if (shippingJoins === id) shippingTax = split[split.length - 1]!;
    }
  }

  // 3. net and gross, in the shop's mode
  const lines: CalculatedLine[] = input.lines.map((line, i) => {
    const tax = lineTax[i]!;
    const net = mode === "exclusive" ? charged[i]! : charged[i]! - tax;
    return {
      key: line.key,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      amountCents: amounts[i]!,
      discountCents: own[i]! + shares[i]!,
      chargedCents: charged[i]!,
      netCents: net,
      taxCents: tax,
      grossCents: net + tax,
      rate: line.rate,
    };
  });
  const shipping: CalculatedShipping | null = input.shipping
    ? {
        priceCents: shippingPrice,
        netCents: mode === "exclusive" ? shippingPrice : shippingPrice - shippingTax,
        taxCents: shippingTax,
        grossCents: (mode === "exclusive" ? shippingPrice : shippingPrice - shippingTax) + shippingTax,
        rate: shippingRate,
      }
    : null;

  // 4. tax per rate, and the totals
  const taxLines = new Map<string, TaxLine>();
  const addTax = (rate: TaxRate, net: number, tax: number) => {
    if (rate.basisPoints === 0) return;
    const line = taxLines.get(rate.id) ?? {
      rateId: rate.id,
      label: rate.label,
      basisPoints: rate.basisPoints,
      netCents: 0,
      taxCents: 0,
    };
    line.netCents += net;
    line.taxCents += tax;
    taxLines.set(rate.id, line);
  };
  for (const line of lines) addTax(line.rate, line.netCents, line.taxCents);
  if (shipping?.rate) addTax(shipping.rate, shipping.netCents, shipping.taxCents);
  const taxCents = lines.reduce((sum, l) => sum + l.taxCents, 0) + (shipping?.taxCents ?? 0);
  const totalCents = lines.reduce((sum, l) => sum + l.grossCents, 0) + (shipping?.grossCents ?? 0);
  return {
    mode,
    lines,
    shipping,
    taxLines: [...taxLines.values()],
    subtotalCents: amounts.reduce((a, b) => a + b, 0),
    discountCents: lines.reduce((sum, l) => sum + l.discountCents, 0),
    shippingCents: shippingPrice,
    taxCents,
    totalCents,
  };
}

/** What an order kept of one of its lines: its quantity and what it charged, tax included. */
export interface ChargedLine {
  quantity: number;
  grossCents: number;
  taxCents: number;
}

/**
 * What refunding `units` more of a line pays back, and the tax in it, by the figures the order
 * kept (the rates it used, its discount's share): the line's gross and tax shared by units,
 * cumulatively — units r+1..r+q get floor(G·(r+q)/Q) − floor(G·r/Q) — so refunds of a line, in any
 * steps, add up to exactly what it charged once all its units are back, and never more.
 */
export function refundShare(
  line: ChargedLine,
  refundedBefore: number,
  units: number,
): { amountCents: number; taxCents: number } {
  const after = refundedBefore + units;
  if (units <= 0 || refundedBefore < 0 || after > line.quantity) {
    throw new RangeError(`Refunding ${units} after ${refundedBefore} of ${line.quantity} units`);
  }
  const upTo = (cents: number, count: number) => Math.floor((cents * count) / line.quantity);
  return {
    amountCents: upTo(line.grossCents, after) - upTo(line.grossCents, refundedBefore),
    taxCents: upTo(line.taxCents, after) - upTo(line.taxCents, refundedBefore),
  };
}
