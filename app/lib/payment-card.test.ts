import { describe, expect, it } from "vitest";
import { paymentSchema } from "../domain/checkout/payment-schema.server.ts";
import { checkForm } from "./form-errors.ts";
import {
  cardBrand,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
  isExpired,
  luhnValid,
  PAYMENT_FIELD_LABELS,
  PAYMENT_FIELDS,
  parseExpiry,
} from "./payment-card.ts";

/** The payment step's schema (checkout's action parses the same fields) run on plain values. */
const validatePaymentForm = (fields: Record<string, unknown>, now: Date) =>
  checkForm(paymentSchema(now), PAYMENT_FIELDS, fields);

const NOW = new Date("2026-11-22T12:00:00Z");
const VALID = {
  cardNumber: "4242 4242 4242 4242",
  cardName: "Ada Lovelace",
  expiryDate: "12/28",
  cvv: "123",
};

describe("digitsOnly", () => {
  it.each([
    ["4242 4242-4242", "424242424242"],
    ["12/28", "1228"],
    ["abc", ""],
    ["", ""],
    [" 0 1 ", "01"],
  ])("%j → %j", (input, output) => {
    expect(digitsOnly(input)).toBe(output);
  });
});

describe("formatCardNumber", () => {
  it.each([
    ["", ""],
    ["4", "4"],
    ["4242", "4242"],
    ["42424", "4242 4"],
    ["42424242", "4242 4242"],
    ["4242424242424242", "4242 4242 4242 4242"],
    ["42424242424242421234", "4242 4242 4242 4242"],
    ["4242 4242-4242x4242", "4242 4242 4242 4242"],
    ["378282246310005", "3782 8224 6310 005"],
  ])("%j → %j", (input, output) => {
    expect(formatCardNumber(input)).toBe(output);
  });
});

describe("formatExpiry", () => {
  it.each([
    ["", ""],
    ["1", "1"],
    ["12", "12"],
    ["123", "12/3"],
    ["1228", "12/28"],
    ["122899", "12/28"],
    ["12/28", "12/28"],
    ["0", "0"],
  ])("%j → %j", (input, output) => {
    expect(formatExpiry(input)).toBe(output);
  });
});

describe("luhnValid", () => {
  it.each([
    "4242424242424242",
    "4000000000000002",
    "4000000000009995",
    "5555555555554444",
    "378282246310005",
    "6011111111111117",
    "79927398713",
    "0",
  ])("accepts %s", (digits) => {
    expect(luhnValid(digits)).toBe(true);
  });

  it.each(["4242424242424241", "1234567812345678", "79927398710", "", "4242 4242 4242 4242", "42a2"])(
    "rejects %j",
    (digits) => {
      expect(luhnValid(digits)).toBe(false);
    },
  );
});

describe("cardBrand", () => {
  it.each([
    ["4242424242424242", "Visa"],
    ["4", "Visa"],
    ["5555555555554444", "MasterCard"],
    ["5105105105105100", "MasterCard"],
    ["2223003122003222", "MasterCard"],
    ["2720990000000007", "MasterCard"],
    ["2721000000000000", "Card"],
    ["2220000000000000", "Card"],
    ["378282246310005", "American Express"],
    ["371449635398431", "American Express"],
    ["340000000000009", "American Express"],
    ["6011111111111117", "Discover"],
    ["6445644564456445", "Discover"],
    ["6500000000000002", "Discover"],
    ["6221260000000000", "Discover"],
    ["6200000000000005", "Card"],
    ["3056930009020004", "Card"],
    ["3566002020360505", "Card"],
    ["5", "Card"],
    ["", "Card"],
    ["4242 4242 4242 4242", "Visa"],
  ])("%j → %s", (digits, brand) => {
    expect(cardBrand(digits)).toBe(brand);
  });
});

describe("parseExpiry", () => {
  it.each([
    ["1228", { month: 12, year: 2028 }],
    ["12/28", { month: 12, year: 2028 }],
    ["0130", { month: 1, year: 2030 }],
    ["1/30", { month: 1, year: 2030 }],
    [" 06 / 27 ", { month: 6, year: 2027 }],
    ["0000", null],
    ["1328", null],
    ["00/28", null],
    ["123", null],
    ["12/2028", null],
    ["12-28", null],
    ["", null],
    ["ab/cd", null],
  ])("%j → %j", (input, expiry) => {
    expect(parseExpiry(input)).toEqual(expiry);
  });
});

describe("isExpired", () => {
  it("is valid through the end of the expiry month", () => {
    const nov2026 = { month: 11, year: 2026 };
    expect(isExpired(nov2026, new Date("2026-11-01T00:00:00Z"))).toBe(false);
    expect(isExpired(nov2026, new Date("2026-11-30T23:59:59.999Z"))).toBe(false);
    expect(isExpired(nov2026, new Date("2026-12-01T00:00:00Z"))).toBe(true);
  });

  it.each([
    [{ month: 10, year: 2026 }, true],
    [{ month: 12, year: 2025 }, true],
    [{ month: 1, year: 2026 }, true],
    [{ month: 11, year: 2026 }, false],
    [{ month: 12, year: 2026 }, false],
    [{ month: 1, year: 2027 }, false],
  ])("%j in November 2026 → expired %s", (expiry, expired) => {
    expect(isExpired(expiry, NOW)).toBe(expired);
  });
});

describe("validatePaymentForm", () => {
  it("accepts the no-JavaScript form's spaced card number and a slashed expiry", () => {
    expect(validatePaymentForm(VALID, NOW)).toEqual({
      ok: true,
      value: {
        cardNumber: "4242424242424242",
        cardName: "Ada Lovelace",
        expMonth: 12,
        expYear: 2028,
        cvv: "123",
      },
    });
  });

  it("accepts digits-only input, dashes, surrounding spaces and a 4 digit code", () => {
    const result = validatePaymentForm(
      { cardNumber: " 3782-822463-10005 ", cardName: "  Grace Hopper ", expiryDate: "0130", cvv: " 1234 " },
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        cardNumber: "378282246310005",
        cardName: "Grace Hopper",
        expMonth: 1,
        expYear: 2030,
        cvv: "1234",
      },
    });
  });

  it("accepts a card expiring this month", () => {
    const result = validatePaymentForm({ ...VALID, expiryDate: "1126" }, NOW);
    expect(result.ok).toBe(true);
  });

  it("lists every empty field in form order with a message for each", () => {
    const result = validatePaymentForm({}, NOW);
    expect(result).toEqual({
      ok: false,
      error: {
        code: "invalid",
        missing: ["cardNumber", "cardName", "expiryDate", "cvv"],
        fieldErrors: {
          cardNumber: "Enter the card number.",
          cardName: "Enter the name on the card.",
          expiryDate: "Enter the expiry date as MM/YY.",
          cvv: "Enter the 3 or 4 digit security code.",
        },
      },
    });
  });

  it("treats blank and non-string values as empty", () => {
    const result = validatePaymentForm({ ...VALID, cardName: "   ", cvv: null, expiryDate: 1228 }, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.missing).toEqual(["cardName", "expiryDate", "cvv"]);
    expect(Object.keys(result.error.fieldErrors)).toEqual(["cardName", "expiryDate", "cvv"]);
  });

  it("reports wrong values beside missing ones", () => {
    const result = validatePaymentForm({ cardNumber: "4242 4242 4242 4241", cardName: "", cvv: "12" }, NOW);
    expect(result).toEqual({
      ok: false,
      error: {
        code: "invalid",
        missing: ["cardName", "expiryDate"],
        fieldErrors: {
          cardNumber: "Enter a valid card number.",
          cardName: "Enter the name on the card.",
          expiryDate: "Enter the expiry date as MM/YY.",
          cvv: "Enter the 3 or 4 digit security code.",
        },
      },
    });
  });

  it.each([
    ["4242 4242 4242 4241", "fails Luhn"],
    ["42424242424", "too short (11 digits)"],
    ["42424242424242424242", "too long (20 digits)"],
    ["4242424242424242 ", "ok"],
    ["4242x4242x4242x4242", "letters"],
    ["4242.4242.4242.4242", "dots"],
    ["----", "no digits"],
  ])("card number %j (%s)", (cardNumber, why) => {
    const result = validatePaymentForm({ ...VALID, cardNumber }, NOW);
    if (why === "ok") {
      expect(result.ok).toBe(true);
      return;
    }
    expect(result).toEqual({
      ok: false,
      error: { code: "invalid", missing: [], fieldErrors: { cardNumber: "Enter a valid card number." } },
    });
  });

  it("accepts a 12 digit Luhn-valid number", () => {
    // 4242 4242 4242 with its check digit replaced so that the sum is a multiple of 10
    const base = "42424242424";
    const digit = [..."0123456789"].find((d) => luhnValid(base + d))!;
    const result = validatePaymentForm({ ...VALID, cardNumber: base + digit }, NOW);
    expect(result.ok).toBe(true);
  });

  it.each(["1326", "0028", "12/2028", "122", "12-28", "December"])(
    "expiry %j asks for MM/YY",
    (expiryDate) => {
      expect(validatePaymentForm({ ...VALID, expiryDate }, NOW)).toEqual({
        ok: false,
        error: {
          code: "invalid",
          missing: [],
          fieldErrors: { expiryDate: "Enter the expiry date as MM/YY." },
        },
      });
    },
  );

  it.each(["10/26", "1025", "01/20"])("expiry %j has passed", (expiryDate) => {
    expect(validatePaymentForm({ ...VALID, expiryDate }, NOW)).toEqual({
      ok: false,
      error: { code: "invalid", missing: [], fieldErrors: { expiryDate: "The card has expired." } },
    });
  });

  it.each(["12", "12345", "12a", "1 23"])("security code %j is refused", (cvv) => {
    expect(validatePaymentForm({ ...VALID, cvv }, NOW)).toEqual({
      ok: false,
      error: { code: "invalid", missing: [], fieldErrors: { cvv: "Enter the 3 or 4 digit security code." } },
    });
  });

  it("limits the name on the card to 100 characters after trimming", () => {
    expect(validatePaymentForm({ ...VALID, cardName: ` ${"x".repeat(100)} ` }, NOW).ok).toBe(true);
    const result = validatePaymentForm({ ...VALID, cardName: "x".repeat(101) }, NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fieldErrors).toEqual({
      cardName: "The name on the card can be at most 100 characters.",
    });
  });

  it("never echoes the card number or the code in its messages", () => {
    const result = validatePaymentForm(
      { cardNumber: "4242 4242 4242 4241", cardName: "A", expiryDate: "1020", cvv: "98" },
      NOW,
    );
    const text = JSON.stringify(result);
    expect(text).not.toContain("4242");
    expect(text).not.toContain("98");
  });

  it("has a label for every field", () => {
    expect(PAYMENT_FIELDS.map((f) => PAYMENT_FIELD_LABELS[f])).toEqual([
      "Card Number",
      "Cardholder Name",
      "Expiry Date",
      "CVV",
    ]);
  });
});
