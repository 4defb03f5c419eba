import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  type ContactErrors,
  type ContactField,
  type ContactFormFailure,
  type ContactValues,
  CONTACT_MESSAGES as M,
} from "./contact-form.ts";

/** Browsers send textarea line breaks as CRLF; count (and store) them as one character, as maxlength does. */
const normalizedText = (required: string) =>
  z.string({ error: required }).transform((value) => value.replace(/\r\n?/g, "\n").trim());

export const contactMessageSchema = z.object({
  name: normalizedText(M.nameRequired).pipe(
    z.string().min(1, M.nameRequired).max(CONTACT_LIMITS.name.max, M.nameTooLong),
  ),
  email: z
    .string({ error: M.emailInvalid })
    .trim()
    .max(CONTACT_LIMITS.email.max, M.emailInvalid)
    .pipe(z.email({ error: M.emailInvalid })),
  subject: normalizedText(M.subjectRequired).pipe(
    z.string().min(1, M.subjectRequired).max(CONTACT_LIMITS.subject.max, M.subjectTooLong),
  ),
  message: normalizedText(M.messageRequired).pipe(
    z
      .string()
      .min(1, M.messageRequired)
      .min(CONTACT_LIMITS.message.min, M.messageTooShort)
      .max(CONTACT_LIMITS.message.max, M.messageTooLong),
  ),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

export type ParsedContactForm =
  | { success: true; data: ContactMessageInput }
  | ({ success: false } & ContactFormFailure);

/**
 * Validates a submitted contact form. On failure: the first message per invalid field, and the
 * values as typed (cut to a sane length) so the form can be shown again with them.
 */
export function parseContactForm(form: FormData): ParsedContactForm {
  const raw = Object.fromEntries(
    CONTACT_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === "string" ? value : ""];
    }),
  ) as ContactValues;
  const result = contactMessageSchema.safeParse(raw);
  if (result.success) return { success: true, data: result.data };

  const errors: ContactErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField;
    errors[field] ??= issue.message;
  }
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, raw[field].slice(0, CONTACT_LIMITS[field].max * 2)]),
  ) as ContactValues;
  return { success: false, errors, values };
}

/** Stores a validated message for the shop's team; returns its id. */
export async function saveContactMessage(
  db: Database,
  input: ContactMessageInput,
  now: Date = new Date(),
): Promise<{ id: number }> {
  return db
    .insertInto("contactMessages")
    .values({
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      createdAt: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}
