/**
 * The order option values are listed in when they come from many products (the listing's option
 * facets): clothing sizes from small to large, values that start with a number by that number
 * ("40 mm" before "44 mm", "256 GB" before "1 TB" is not attempted), else alphabetically.
 */
const SIZES = ["xxxs", "xxs", "xs", "s", "m", "l", "xl", "xxl", "2xl", "xxxl", "3xl", "4xl"];
const SIZE_RANK = new Map(SIZES.map((size, i) => [size, i]));
const LEADING_NUMBER = /^(\d+(?:[.,]\d+)?)/;

function rank(value: string): [number, number, string] {
  const key = value.trim().toLowerCase();
  const size = SIZE_RANK.get(key);
  if (size !== undefined) return [0, size, key];
  const number = LEADING_NUMBER.exec(key);
  if (number) return [1, Number(number[1]!.replace(",", ".")), key];
  return [2, 0, key];
}

export function compareOptionValues(a: string, b: string): number {
  const [ga, na, ka] = rank(a);
  const [gb, nb, kb] = rank(b);
  return ga - gb || na - nb || (ka < kb ? -1 : ka > kb ? 1 : 0);
}
