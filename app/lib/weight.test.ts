import { describe, expect, it } from "vitest";
import { gramsFromKg, kgText, MAX_WEIGHT_GRAMS } from "./weight.ts";

describe("weights in kg as typed, grams as stored", () => {
  it.each([
    ["0", 0],
    ["0.25", 250],
    ["0.2", 200],
    ["1.6", 1600],
    ["1.600", 1600],
    ["0.001", 1],
    [" 20 ", 20_000],
    ["1000", MAX_WEIGHT_GRAMS],
  ])("reads %j as %i g", (text, grams) => {
    expect(gramsFromKg(text)).toBe(grams);
  });

  it.each(["", "-1", "0.0001", "1,5", "1.5 kg", "abc", "1e3", "1000.001", "10000", ".5", "5."])(
    "refuses %j",
    (text) => {
      expect(gramsFromKg(text)).toBeNull();
    },
  );

  it.each([
    [0, "0"],
    [1, "0.001"],
    [250, "0.25"],
    [1600, "1.6"],
    [1605, "1.605"],
    [20_000, "20"],
    [MAX_WEIGHT_GRAMS, "1000"],
  ])("writes %i g as %j, which reads back the same", (grams, text) => {
    expect(kgText(grams)).toBe(text);
    expect(gramsFromKg(kgText(grams))).toBe(grams);
  });
});
