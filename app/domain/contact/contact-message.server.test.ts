import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { CONTACT_FIELDS, CONTACT_LIMITS, CONTACT_MESSAGES, type ContactField } from "./contact-form.ts";
import { boundContactValues, contactMessageSchema, saveContactMessage } from "./contact-message.server.ts";

/**
 * The contact form as POST /contact reads it (parseForm: Conform + the schema): the message, or
 * the first message per field and the values echoed back (bounded) as the form shows them again.
 */
function parseContactForm(form: FormData) {
  const submission = parseWithZod(form, { schema: contactMessageSchema });
  if (submission.status === "success") return { success: true as const, data: submission.value };
  const errors: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    const message = submission.error?.[field]?.[0];
    if (message) errors[field] = message;
  }
  const echoed = boundContactValues(submission.reply().initialValue ?? undefined);
  const values = Object.fromEntries(CONTACT_FIELDS.map((field) => [field, echoed[field] ?? ""]));
  return { success: false as const, errors, values };
}

const VALID = {
  name: "Jane Doe",
  email: "jane@example.com",
  subject: "Where is my order?",
  message: "Hello, my order CW-1234 has not arrived yet.",
};

function formOf(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  return form;
}

describe("parseContactForm", () => {
  it("accepts a complete form, trimming each field", () => {
    const result = parseContactForm(
      formOf({
        name: "  Jane Doe ",
        email: " jane@example.com ",
        subject: " Hi ",
        message: "  Ten chars!  ",
      }),
    );
    expect(result).toEqual({
      success: true,
      data: { name: "Jane Doe", email: "jane@example.com", subject: "Hi", message: "Ten chars!" },
    });
  });

  it("reports every empty field with its own message", () => {
    const result = parseContactForm(formOf({ name: "", email: "", subject: "   ", message: "" }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: CONTACT_MESSAGES.emailInvalid,
      subject: CONTACT_MESSAGES.subjectRequired,
      message: CONTACT_MESSAGES.messageRequired,
    });
    expect(result.values).toEqual({ name: "", email: "", subject: "   ", message: "" });
  });

  it("treats missing fields and file uploads as empty", () => {
    const form = new FormData();
    form.set("name", new File(["x"], "x.txt"));
    const result = parseContactForm(form);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.keys(result.errors).sort()).toEqual(["email", "message", "name", "subject"]);
  });

  it.each([
    ["name", "a".repeat(CONTACT_LIMITS.name.max + 1), CONTACT_MESSAGES.nameTooLong],
    ["email", "not-an-email", CONTACT_MESSAGES.emailInvalid],
    ["email", `${"a".repeat(250)}@example.com`, CONTACT_MESSAGES.emailInvalid],
    ["subject", "s".repeat(CONTACT_LIMITS.subject.max + 1), CONTACT_MESSAGES.subjectTooLong],
    ["message", "too short", CONTACT_MESSAGES.messageTooShort],
    ["message", "m".repeat(CONTACT_LIMITS.message.max + 1), CONTACT_MESSAGES.messageTooLong],
  ])("rejects a bad %s with the field's message, keeping the other values", (field, value, message) => {
    const result = parseContactForm(formOf({ ...VALID, [field]: value }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual({ [field]: message });
    expect(result.values).toEqual({ ...VALID, [field]: value });
  });

  it("accepts each field at its maximum length", () => {
    const result = parseContactForm(
      formOf({
        name: "n".repeat(CONTACT_LIMITS.name.max),
        email: `${"e".repeat(CONTACT_LIMITS.email.max - 12)}@example.com`,
        subject: "s".repeat(CONTACT_LIMITS.subject.max),
        message: "m".repeat(CONTACT_LIMITS.message.max),
      }),
    );
    expect(result.success).toBe(true);
  });

  it("counts a CRLF line break as one character and stores it as LF", () => {
    const lines = Array.from({ length: 2500 }, () => "m").join("\r\n"); // 2500 + 2499 line breaks
    expect(lines.length).toBeGreaterThan(CONTACT_LIMITS.message.max);
    const result = parseContactForm(formOf({ ...VALID, message: lines }));
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.message).toBe(lines.replace(/\r\n/g, "\n"));
    expect(result.data.message).toHaveLength(4999);
  });

  it("does not echo an enormous value back in full", () => {
    const huge = "x".repeat(100_000);
    const result = parseContactForm(formOf({ ...VALID, message: huge }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.values.message?.length).toBeLessThanOrEqual(CONTACT_LIMITS.message.max * 2);
  });
});

describe.each(ENGINES)("saveContactMessage on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("stores a parsed message with its time, exactly as validated", async () => {
    const now = new Date(Date.UTC(2026, 10, 22, 9, 30));
    const parsed = parseContactForm(
      formOf({ ...VALID, name: " Zoë O'Brien ", message: "Line one\r\nLine two — ✓ <b>not html</b>" }),
    );
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const { id } = await saveContactMessage(t.db, parsed.data, now);
    const row = await t.db
      .selectFrom("contactMessages")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      id,
      name: "Zoë O'Brien",
      email: VALID.email,
      subject: VALID.subject,
      message: "Line one\nLine two — ✓ <b>not html</b>",
      createdAt: now.toISOString(),
    });
  });

  it("keeps every message, including repeats from the same sender", async () => {
    const before = await t.db.selectFrom("contactMessages").select("id").execute();
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => saveContactMessage(t.db, VALID).then((r) => r.id)),
    );
    expect(new Set(ids).size).toBe(5);
    const after = await t.db.selectFrom("contactMessages").select("id").execute();
    expect(after).toHaveLength(before.length + 5);
  });
});
