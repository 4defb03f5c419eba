import { describe, expect, it } from "vitest";
import { matchOptions, planOptions } from "./variant-plan.ts";

const size = { name: "Size", values: ["S", "M"] };
const colour = { name: "Colour", values: ["Black", "White"] };
const v = (id: number, ...values: (string | null)[]) => ({
  id,
  values: [...values, null, null, null].slice(0, 3),
});

describe("planOptions", () => {
  it("keeps existing combinations, adds new ones and removes the ones gone", () => {
    const plan = planOptions([size], [{ name: "Size", values: ["M", "L"] }], [v(1, "S"), v(2, "M")]);
    expect(plan.variants).toEqual([
      { id: 2, values: ["M"] },
      { id: null, values: ["L"] },
    ]);
    expect(plan.remap).toEqual([]);
    expect(plan.removed).toEqual([1]);
  });

  it("a product without options: its one variant becomes the first combination", () => {
    const plan = planOptions([], [size], [v(7)]);
    expect(plan.variants).toEqual([
      { id: 7, values: ["S"] },
      { id: null, values: ["M"] },
    ]);
    expect(plan.remap).toEqual([{ id: 7, values: ["S"] }]);
    expect(plan.removed).toEqual([]);
  });

  it("adding an option carries each variant over with the new option's first value", () => {
    const plan = planOptions([size], [size, colour], [v(1, "S"), v(2, "M")]);
    expect(plan.variants).toEqual([
      { id: 1, values: ["S", "Black"] },
      { id: null, values: ["S", "White"] },
      { id: 2, values: ["M", "Black"] },
      { id: null, values: ["M", "White"] },
    ]);
    expect(plan.removed).toEqual([]);
  });

  it("removing an option keeps the first variant of each remaining combination", () => {
    const plan = planOptions(
      [size, colour],
      [size],
      [v(1, "S", "Black"), v(2, "S", "White"), v(3, "M", "White")],
    );
    expect(plan.variants).toEqual([
      { id: 1, values: ["S"] },
      { id: 3, values: ["M"] },
    ]);
    expect(plan.removed).toEqual([2]);
  });

  it("removing every option returns to one variant: the first", () => {
    const plan = planOptions([size, colour], [], [v(4, "M", "White"), v(3, "S", "Black")]);
    expect(plan.variants).toEqual([{ id: 4, values: [] }]);
    expect(plan.remap).toEqual([{ id: 4, values: [] }]);
    expect(plan.removed).toEqual([3]);
  });

  it("reordered options, a renamed option and values in another case keep their variants", () => {
    const plan = planOptions(
      [size, colour],
      [
        { name: "Color", values: ["black", "white"] },
        { name: "size", values: ["S", "M"] },
      ],
      [v(1, "S", "Black"), v(2, "M", "White")],
    );
    // "Colour" → "Color" is not found by name: the old option in its place (Size) is still used,
    // so Color is new; Size moved to the second place
    expect(matchOptions([size, colour], [{ name: "Color" }, { name: "size" }])).toEqual([null, 0]);
    expect(plan.variants.find((p) => p.id === 1)?.values).toEqual(["black", "S"]);

    const renamed = planOptions(
      [size, colour],
      [size, { name: "Color", values: ["Black", "White"] }],
      [v(1, "S", "Black"), v(2, "M", "White")],
    );
    expect(matchOptions([size, colour], [size, { name: "Color" }])).toEqual([0, 1]);
    expect(renamed.variants.filter((p) => p.id !== null)).toEqual([
      { id: 1, values: ["S", "Black"] },
      { id: 2, values: ["M", "White"] },
    ]);
    expect(renamed.removed).toEqual([]);
  });

  it("a variant whose value is gone is removed, even when another would lead to it", () => {
    const plan = planOptions([size], [{ name: "Size", values: ["S"] }], [v(1, "S"), v(2, "M")]);
    expect(plan.variants).toEqual([{ id: 1, values: ["S"] }]);
    expect(plan.removed).toEqual([2]);
  });
});
