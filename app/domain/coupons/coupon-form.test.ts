import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  type CouponField,
  couponFormValues,
  couponState,
  expiryFromLastDay,
  lastDayOfExpiry,
  COUPON_FORM_MESSAGES as M,
  readCouponFormValues,
} from "./coupon-form.ts";
import { couponFormSchema } from "./coupon-schema.server.ts";

/**
 * The new-coupon form read as its route reads it (Conform with the form's schema): the coupon, or
 * the first message of each wrong field and the values shown again. The route adds the form's
 * message (M.invalid) and the status: admin-coupons-reviews-routes.test.ts.
 */
function parseCouponForm(data: FormData) {
  const submission = parseWithZod(data, { schema: couponFormSchema });
  if (submission.status === "success") return { ok: true as const, value: submission.value };
  const fieldErrors = Object.fromEntries(
    Object.entries(submission.error ?? {}).map(([field, messages]) => [field, messages?.[0]]),
  );
  return { ok: false as const, fieldErrors, values: readCouponFormValues(submission.payload) };
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const VALID = {
  code: "spring-15",
  kind: "percent",
  value: "15",
  minSubtotal: "50",
  usageLimit: "100",
  validThrough: "2027-06-30",
};

describe("couponFormSchema", () => {
  it("accepts a valid percentage coupon: code upper-cased, dollars to cents, expiry after the last day", () => {
    expect(parseCouponForm(form(VALID))).toMatchObject({
      ok: true,
      value: {
        code: "SPRING-15",
        kind: "percent",
        amount: 15,
        minSubtotalCents: 5_000,
        usageLimit: 100,
        expiresAt: "2027-07-01T00:00:00.000Z",
      },
    });
  });

  it("accepts a fixed amount in dollars and empty optional fields", () => {
    expect(
      parseCouponForm(
        form({
          code: "  take5 ",
          kind: "fixed",
          value: "5.5",
          minSubtotal: "",
          usageLimit: "",
          validThrough: "",
        }),
      ),
    ).toMatchObject({
      ok: true,
      value: {
        code: "TAKE5",
        kind: "fixed",
        amount: 550,
        minSubtotalCents: 0,
        usageLimit: null,
        expiresAt: null,
      },
    });
  });

  const refusals: [string, Record<string, string>, CouponField, string][] = [
    ["an empty code", { code: "" }, "code", M.codeRequired],
    ["a code of spaces", { code: "   " }, "code", M.codeRequired],
    ["a two-letter code", { code: "AB" }, "code", M.codeFormat],
    ["a 33-character code", { code: "A".repeat(33) }, "code", M.codeFormat],
    ["a code with a space", { code: "SPRING 15" }, "code", M.codeFormat],
    ["a code with punctuation", { code: "SAVE!10" }, "code", M.codeFormat],
    ["a code starting with a hyphen", { code: "-SAVE10" }, "code", M.codeFormat],
    ["a code with an accent", { code: "ÉTÉ10" }, "code", M.codeFormat],
    ["an unknown kind", { kind: "bogo" }, "kind", M.kind],
    ["no kind", { kind: "" }, "kind", M.kind],
    ["0 percent", { value: "0" }, "value", M.percent],
    ["101 percent", { value: "101" }, "value", M.percent],
    ["a fractional percentage", { value: "12.5" }, "value", M.percent],
    ["a negative percentage", { value: "-5" }, "value", M.percent],
    ["an empty percentage", { value: "" }, "value", M.percent],
    ["a fixed amount of 0", { kind: "fixed", value: "0" }, "value", M.fixed],
    ["a fixed amount of 0.00", { kind: "fixed", value: "0.00" }, "value", M.fixed],
    ["a negative fixed amount", { kind: "fixed", value: "-1" }, "value", M.fixed],
    ["a fixed amount with three decimals", { kind: "fixed", value: "1.999" }, "value", M.fixed],
    ["a fixed amount over $100,000", { kind: "fixed", value: "100000.01" }, "value", M.fixed],
    ["a fixed amount in words", { kind: "fixed", value: "ten" }, "value", M.fixed],
    ["a negative minimum subtotal", { minSubtotal: "-0.01" }, "minSubtotal", M.minSubtotal],
    ["a minimum subtotal with three decimals", { minSubtotal: "10.005" }, "minSubtotal", M.minSubtotal],
    ["a usage limit of 0", { usageLimit: "0" }, "usageLimit", M.usageLimit],
    ["a negative usage limit", { usageLimit: "-3" }, "usageLimit", M.usageLimit],
    ["a fractional usage limit", { usageLimit: "2.5" }, "usageLimit", M.usageLimit],
    ["a usage limit in words", { usageLimit: "ten" }, "usageLimit", M.usageLimit],
    ["a date that does not exist", { validThrough: "2027-02-30" }, "validThrough", M.expiry],
    ["a 13th month", { validThrough: "2027-13-01" }, "validThrough", M.expiry],
    ["a date in another format", { validThrough: "30/06/2027" }, "validThrough", M.expiry],
    ["a date with a time", { validThrough: "2027-06-30T10:00" }, "validThrough", M.expiry],
    ["text as a date", { validThrough: "soon" }, "validThrough", M.expiry],
  ];

  it.each(refusals)("refuses %s with its message beside the field", (_label, change, field, message) => {
    const result = parseCouponForm(form({ ...VALID, ...change }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({ [field]: message });
    // what was typed comes back (trimmed), to show again
    expect(result.values[field]).toBe((change[field] ?? "").trim().slice(0, 100));
  });

  it("accepts the bounds: 1 and 100 percent, $0.01, a minimum of 0, a limit of 1, a leap day", () => {
    for (const change of [
      { value: "1" },
      { value: "100" },
      { kind: "fixed", value: "0.01" },
      { kind: "fixed", value: "100000" },
      { minSubtotal: "0" },
      { usageLimit: "1" },
      { validThrough: "2028-02-29" },
      { code: "a_b" },
      { code: "X".repeat(32) },
    ]) {
      expect(parseCouponForm(form({ ...VALID, ...change })).ok, JSON.stringify(change)).toBe(true);
    }
  });

  it("reports every wrong field at once", () => {
    const result = parseCouponForm(
      form({ code: "!", kind: "fixed", value: "0", minSubtotal: "-1", usageLimit: "0", validThrough: "x" }),
    );
    expect(result.ok || Object.keys(result.fieldErrors).sort()).toEqual([
      "code",
      "minSubtotal",
      "usageLimit",
      "validThrough",
      "value",
    ]);
  });
});

describe("expiry dates", () => {
  it("stores the instant after the last valid day and shows that day again", () => {
    expect(expiryFromLastDay("2026-12-31")).toBe("2027-01-01T00:00:00.000Z");
    expect(lastDayOfExpiry("2027-01-01T00:00:00.000Z")).toBe("2026-12-31");
    // the seed's SUMMER2025 stops at 1 September: valid through 31 August
    expect(lastDayOfExpiry("2025-09-01T00:00:00.000Z")).toBe("2025-08-31");
    expect(lastDayOfExpiry(null)).toBe("");
  });

  it("round-trips a stored coupon through the form", () => {
    const stored = {
      code: "SAVE5",
      kind: "fixed" as const,
      amount: 500,
      minSubtotalCents: 2_550,
      usageLimit: null,
      expiresAt: "2027-07-01T00:00:00.000Z",
    };
    const values = couponFormValues(stored);
    expect(values).toEqual({
      code: "SAVE5",
      kind: "fixed",
      value: "5.00",
      minSubtotal: "25.50",
      usageLimit: "",
      validThrough: "2027-06-30",
    });
    const { code: _code, ...rest } = stored;
    expect(parseCouponForm(form({ ...values }))).toMatchObject({
      ok: true,
      value: { ...rest, code: "SAVE5" },
    });
  });
});

describe("couponState", () => {
  const now = new Date("2027-01-01T12:00:00.000Z");
  const base = { active: true, expiresAt: null, usageLimit: null, usedCount: 0 };
  it.each([
    [base, "active"],
    [{ ...base, active: false }, "disabled"],
    [{ ...base, active: false, expiresAt: "2026-01-01T00:00:00.000Z" }, "disabled"],
    [{ ...base, expiresAt: "2027-01-01T12:00:00.000Z" }, "expired"],
    [{ ...base, expiresAt: "2027-01-02T00:00:00.000Z" }, "active"],
    [{ ...base, usageLimit: 3, usedCount: 3 }, "used-up"],
    [{ ...base, usageLimit: 3, usedCount: 2 }, "active"],
  ])("%o → %s", (coupon, state) => {
    expect(couponState(coupon, now)).toBe(state);
  });
});
