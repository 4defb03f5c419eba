import { describe, expect, it } from "vitest";
import { displayName } from "./user-display.ts";

describe("displayName", () => {
  it.each([
    [{ name: "Ada Lovelace", email: "ada@example.com" }, "Ada Lovelace"],
    [{ name: "  ", email: "ada@example.com" }, "ada"],
    [{ name: null, email: "grace.hopper@navy.mil" }, "grace.hopper"],
    [{ email: "@odd" }, "@odd"],
  ])("%o → %s", (user, expected) => {
    expect(displayName(user)).toBe(expected);
  });
});
