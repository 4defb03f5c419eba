import { describe, expect, it } from "vitest";
import { compareOptionValues } from "./option-order.ts";

describe("compareOptionValues", () => {
  it("lists clothing sizes small to large, numbers by value, then words alphabetically", () => {
    const values = ["xl", "black", "44 mm", "m", "9", "s", "40 mm", "10.5", "white", "xs", "l"];
    expect([...values].sort(compareOptionValues)).toEqual([
      "xs",
      "s",
      "m",
      "l",
      "xl",
      "9",
      "10.5",
      "40 mm",
      "44 mm",
      "black",
      "white",
    ]);
  });
});
