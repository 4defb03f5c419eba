import { createCookie, createCookieSessionStorage } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { createSignedCookie } from "./signed-cookie.server.ts";

const SECRET = "a-secret-of-at-least-thirty-two-characters";
const OTHER_SECRET = "another-secret-of-thirty-two-characters!";
const OPTIONS = { httpOnly: true, sameSite: "lax", path: "/", maxAge: 3600 } as const;

const VALUES: unknown[] = [
  "0f8fad5b-d9cb-469f-a165-70867728950e",
  42,
  { shipping: { firstName: "Zoë", city: "Zürich", note: "日本語 ✓ 🎉" }, method: "express" },
  ["a", 1, null, true],
];

/** The `name=value` part of a Set-Cookie header, as a browser sends it back. */
const sentBack = (setCookie: string) => setCookie.split(";")[0] as string;

describe("createSignedCookie", () => {
  it.each(VALUES)("round-trips %j", async (value) => {
    const cookie = createSignedCookie("cw_test", { ...OPTIONS, secrets: [SECRET] });
    const header = await cookie.serialize(value);
    expect(header).toMatch(/^cw_test=[^;]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await cookie.parse(sentBack(header))).toEqual(value);
  });

  it.each(VALUES)(
    "writes React Router's createCookie format byte for byte (%j), and each reads the other",
    async (value) => {
      const ours = createSignedCookie("cw_test", { ...OPTIONS, secrets: [SECRET] });
      const theirs = createCookie("cw_test", { ...OPTIONS, secrets: [SECRET] });
      const header = await ours.serialize(value);
      expect(header).toBe(await theirs.serialize(value));
      expect(await theirs.parse(sentBack(header))).toEqual(value);
      expect(await ours.parse(sentBack(await theirs.serialize(value)))).toEqual(value);
    },
  );

  it("refuses a value whose content or signature was changed, or that another secret signed", async () => {
    const cookie = createSignedCookie("cw_test", { secrets: [SECRET] });
    const value = sentBack(await cookie.serialize({ role: "shopper" })).slice("cw_test=".length);
    const [payload, signature] = decodeURIComponent(value).split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ role: "admin" })).toString("base64");
    expect(await cookie.parse(`cw_test=${encodeURIComponent(`${forged}.${signature}`)}`)).toBeNull();
    expect(
      await cookie.parse(`cw_test=${encodeURIComponent(`${payload}.${signature.slice(1)}`)}`),
    ).toBeNull();
    expect(await cookie.parse(`cw_test=${encodeURIComponent(payload)}`)).toBeNull();
    expect(await cookie.parse("cw_test=not-signed-at-all")).toBeNull();
    const other = createSignedCookie("cw_test", { secrets: [OTHER_SECRET] });
    expect(await other.parse(`cw_test=${value}`)).toBeNull();
  });

  it("reads values signed with an older secret listed after the current one, and signs with the first", async () => {
    const old = createSignedCookie("cw_test", { secrets: [OTHER_SECRET] });
    const rotated = createSignedCookie("cw_test", { secrets: [SECRET, OTHER_SECRET] });
    const current = createSignedCookie("cw_test", { secrets: [SECRET] });
    expect(await rotated.parse(sentBack(await old.serialize("kept")))).toBe("kept");
    expect(await current.parse(sentBack(await rotated.serialize("new")))).toBe("new");
  });

  it("answers null without the cookie, and an empty string for an empty value", async () => {
    const cookie = createSignedCookie("cw_test", { secrets: [SECRET] });
    expect(await cookie.parse(null)).toBeNull();
    expect(await cookie.parse("")).toBeNull();
    expect(await cookie.parse("other=1; cw_testing=2")).toBeNull();
    expect(await cookie.parse("cw_test=")).toBe("");
    expect(await cookie.serialize("", { maxAge: 0 })).toBe("cw_test=; Max-Age=0; Path=/; SameSite=Lax");
  });

  it("is signed and gives a fresh expiry from maxAge", () => {
    const cookie = createSignedCookie("cw_test", { ...OPTIONS, secrets: [SECRET] });
    expect(cookie.isSigned).toBe(true);
    const expires = cookie.expires?.getTime() ?? 0;
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(5_000);
  });

  it("serves as a cookie session storage's cookie, without the unsigned-cookie warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const storage = createCookieSessionStorage({
      cookie: createSignedCookie("cw_session", { secrets: [SECRET] }),
    });
    const session = await storage.getSession(null);
    session.set("checkout", { method: "standard" });
    session.flash("feedback", "once");
    const header = await storage.commitSession(session);
    const again = await storage.getSession(sentBack(header));
    expect(again.get("checkout")).toEqual({ method: "standard" });
    expect(again.get("feedback")).toBe("once");
    expect(again.get("feedback")).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
