import { describe, expect, it } from "vitest";
import { closestWords, nearLengths, typoAllowance, typoWords } from "./typos.ts";

describe("typo allowance and the closest words", () => {
  it("allows no edit under 4 letters or with a digit, 1 up to 7 letters, 2 from 8", () => {
    expect(["tv", "xl", "kit", "4k", "ps5x", "a1b2c3d4"].map(typoAllowance)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(["ketle", "wirless", "shoe"].map(typoAllowance)).toEqual([1, 1, 1]);
    expect(["sneekers", "headphnes"].map(typoAllowance)).toEqual([2, 2]);
    // letters, not UTF-16 units
    expect(typoAllowance("café")).toBe(1);
  });

  it("finds the words within the allowance, the closest only, without their punctuation", () => {
    const words = ["headphones,", "(headphones)", "headphone", "earphones", "phones", "kettle"];
    // headphones is 1 edit from headphnes, headphone 2 (a closer word was found), earphones 3
    expect(closestWords("headphnes", words)).toEqual(["headphones"]);
    expect(closestWords("headphnoe", words)).toEqual(["headphone"]);
    // both one edit away: both taken
    expect(closestWords("eadphones", words)).toEqual(["earphones", "headphones"]);
    expect(closestWords("wirless", ["wireless", "wireless.", "wirelessly", "careless"])).toEqual([
      "wireless",
    ]);
    expect(closestWords("sneekers", ["sneakers", "speakers", "snickers"])).toEqual(["sneakers"]);
    // two edits are taken when no word is one away (8 letters and more)
    expect(closestWords("sneakres", ["sneakers", "kettle"])).toEqual(["sneakers"]);
    // ... and never for shorter words
    expect(closestWords("ktetel", ["kettle"])).toEqual([]);
    // two neighbours swapped are one edit
    expect(closestWords("blakc", ["black", "blank"])).toEqual(["black"]);
    expect(closestWords("comfrot", ["comfort"])).toEqual(["comfort"]);
    expect(closestWords("ketle", ["kettle", "kettles"])).toEqual(["kettle"]);
    expect(closestWords("tv", ["tvs", "to"])).toEqual([]);
    expect(closestWords("zzzzzzz", words)).toEqual([]);
    // at most four, those with the word's first letter first
    expect(closestWords("rost", ["cost", "host", "most", "post", "rose", "rust", "roast"])).toEqual([
      "roast",
      "rose",
      "rust",
      "cost",
    ]);
  });
});

describe("the words typos are corrected to", () => {
  it("keeps letters-only words without their punctuation, distinct, by length — never codes or numbers", () => {
    const built = typoWords([
      "headphones,",
      "(headphones)",
      "X12",
      "1A2B",
      "4k",
      "kettle",
      "tv",
      "café",
      "50%",
      "naïve",
    ]);
    expect(built.words).toEqual(["café", "naïve", "kettle", "headphones"]);
    // only the words of a near length are offered: "ketle" (5) with 1 edit: lengths 4 to 6
    expect([...nearLengths(built, "ketle", 1)]).toEqual(["café", "naïve", "kettle"]);
    expect([...nearLengths(built, "headphnes", 2)]).toEqual(["headphones"]);
  });
});
