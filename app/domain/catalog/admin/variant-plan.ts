import { combinations, type OptionInput } from "../../../lib/variant-input.ts";

/**
 * What saving a product's options does to its variants (the admin's options editor): one variant
 * per combination of the new options' values, each either an existing variant carried over (its
 * id, SKU, prices, stock, barcode and image kept) or a new one. Pure, so every case is tested
 * apart from the database.
 *
 * An existing variant is carried over to a combination when
 * 1. its stored values are that combination (case aside) — exactly what the writer
 *    (db/product-variants.server.ts) matches on, so such a variant needs no change; else
 * 2. its values, read option by option, lead there: an option is recognised by its name (case
 *    aside), or — renamed — by its place when the old name is gone from the new options; a value
 *    by its text (case aside); an option that is new takes its first value (adding "Colour: Black,
 *    White" to sizes keeps each size's variant as "Black"). When several variants lead to one
 *    combination (an option or all options removed), the first in the list keeps it.
 * Every other existing variant is removed (the writer deletes it, or archives it when an order
 * line names it).
 */
export interface PlannedVariant {
  /** the existing variant carried over, or null for a new one */
  id: number | null;
  values: string[];
}

export interface OptionsPlan {
  variants: PlannedVariant[];
  /** carried-over variants whose stored values must first be set to their new combination */
  remap: { id: number; values: string[] }[];
  /** existing variants no combination keeps, in list order */
  removed: number[];
}

export interface ExistingVariant {
  id: number;
  /** option1..option3 as stored (null where the product has fewer options) */
  values: readonly (string | null)[];
}

const fold = (value: string) => value.toLowerCase();
const keyOf = (values: readonly (string | null)[]) =>
  JSON.stringify(values.filter((v): v is string => v !== null).map(fold));

/** For each new option, the old option it continues (by name, else a renamed one by place), or null. */
export function matchOptions(
  before: readonly Pick<OptionInput, "name">[],
  after: readonly Pick<OptionInput, "name">[],
): (number | null)[] {
  const newNames = new Set(after.map((o) => fold(o.name)));
  const used = new Set<number>();
  return after.map((option, slot) => {
    const byName = before.findIndex((old) => fold(old.name) === fold(option.name));
    if (byName >= 0) {
      used.add(byName);
      return byName;
    }
    const old = before[slot];
    if (old && !newNames.has(fold(old.name)) && !used.has(slot)) {
      used.add(slot);
      return slot;
    }
    return null;
  });
}

export function planOptions(
  before: readonly Pick<OptionInput, "name">[],
  after: readonly OptionInput[],
  /** the product's live variants, in list order */
  variants: readonly ExistingVariant[],
): OptionsPlan {
  const wanted = combinations(after);
  const sources = matchOptions(before, after);
  const claimed = new Set<number>();
  const byKey = new Map<string, ExistingVariant>();
  for (const variant of variants) {
    const key = keyOf(variant.values);
    if (!byKey.has(key)) byKey.set(key, variant);
  }
  // 1. exact combinations first (the writer's own rule)
  const exact = wanted.map((values) => {
    const found = byKey.get(keyOf(values));
    if (found && !claimed.has(found.id)) {
      claimed.add(found.id);
      return found;
    }
    return null;
  });
  // 2. where each other variant's values lead under the new options
  const led = new Map<string, ExistingVariant>();
  for (const variant of variants) {
    if (claimed.has(variant.id)) continue;
    const values = project(variant, after, sources);
    if (values === null) continue;
    const key = keyOf(values);
    if (!led.has(key)) led.set(key, variant);
  }
  const planned: PlannedVariant[] = [];
  const remap: OptionsPlan["remap"] = [];
  wanted.forEach((values, i) => {
    const same = exact[i];
    if (same) {
      planned.push({ id: same.id, values });
      return;
    }
    const carried = led.get(keyOf(values));
    if (carried && !claimed.has(carried.id)) {
      claimed.add(carried.id);
      planned.push({ id: carried.id, values });
      remap.push({ id: carried.id, values });
      return;
    }
    planned.push({ id: null, values });
  });
  return {
    variants: planned,
    remap,
    removed: variants.filter((v) => !claimed.has(v.id)).map((v) => v.id),
  };
}

function project(
  variant: ExistingVariant,
  after: readonly OptionInput[],
  sources: readonly (number | null)[],
): string[] | null {
  const values: string[] = [];
  for (const [slot, option] of after.entries()) {
    const source = sources[slot];
    if (source === null || source === undefined) {
      values.push(option.values[0]!);
      continue;
    }
    const old = variant.values[source];
    if (old === null || old === undefined) return null;
    const value = option.values.find((v) => fold(v) === fold(old));
    if (value === undefined) return null;
    values.push(value);
  }
  return values;
}
