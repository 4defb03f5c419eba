/**
 * Price lists (issue 31, decision 037): which price a signed-in member of customer groups pays for
 * a variant. Pure, so the cart, Place Order and the storefront decide alike.
 *
 * - The **list price** of a variant for a shopper is the lowest of their groups' prices for it.
 * - It **replaces** the regular price as the line's unit price when it is below both the regular
 *   price and the catalogue sale price one unit would get (decision 035) — and then the catalogue
 *   promotions take nothing from that line: the member gets the lower of the sale price and the
 *   member price, never both.
 * - Otherwise the line keeps its regular price and the catalogue sale applies as for everyone
 *   (a tie goes to the sale: the same amount, and the cart reads as it does for others).
 * Other promotions (codes, order-wide, conditional ones) apply to the member price as to any price.
 */

export interface ListPrice {
  /** the group whose list gave the price (the lowest; the oldest group on a tie) */
  groupId: number;
  priceCents: number;
}

/** The lowest of a shopper's groups' prices per variant: rows of (variant, group, price). */
export function lowestListPrices(
  rows: readonly { variantId: number; groupId: number; priceCents: number }[],
): Map<number, ListPrice> {
  const lowest = new Map<number, ListPrice>();
  for (const row of rows) {
    const held = lowest.get(row.variantId);
    if (
      !held ||
      row.priceCents < held.priceCents ||
      (row.priceCents === held.priceCents && row.groupId < held.groupId)
    ) {
      lowest.set(row.variantId, { groupId: row.groupId, priceCents: row.priceCents });
    }
  }
  return lowest;
}

/**
 * Whether the member price applies: below the regular price and below what one unit costs on a
 * catalogue sale (`saleCents`: null when none takes anything from it).
 */
export function memberPriceApplies(
  listCents: number | null | undefined,
  regularCents: number,
  saleCents: number | null,
): listCents is number {
  return (
    listCents !== null &&
    listCents !== undefined &&
    listCents > 0 &&
    listCents < regularCents &&
    (saleCents === null || listCents < saleCents)
  );
}

/**
 * What a product shows a member: the member price with the price struck through — the higher of
 * its own compare-at price and its regular price (as a sale price shows, decision 035).
 */
export function memberShownPrices(
  own: { priceCents: number; originalPriceCents: number | null },
  listCents: number,
): { priceCents: number; originalPriceCents: number } {
  return { priceCents: listCents, originalPriceCents: Math.max(own.originalPriceCents ?? 0, own.priceCents) };
}
