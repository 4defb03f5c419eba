import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import { CONTACT_FIELDS, CONTACT_LIMITS, type ContactValues, CONTACT_MESSAGES as M } from "./contact-form.ts";

/** Browsers send textarea line breaks as CRLF; count (and store) them as one character, as maxlength does. */
const normalizedText = (required: string) =>
  z.string({ error: required }).transform((value) => value.replace(/\r\n?/g, "\n").trim());

export const contactMessageSchema = z.object({
  name: normalizedText(M.nameRequired).pipe(
    z.string({ error: M.nameRequired }).min(1, M.nameRequired).max(CONTACT_LIMITS.name.max, M.nameTooLong),
  ),
  email: z
    .string({ error: M.emailInvalid })
    .trim()
    .max(CONTACT_LIMITS.email.max, M.emailInvalid)
    .pipe(z.email({ error: M.emailInvalid })),
  subject: normalizedText(M.subjectRequired).pipe(
    z
      .string({ error: M.subjectRequired })
      .min(1, M.subjectRequired)
      .max(CONTACT_LIMITS.subject.max, M.subjectTooLong),
  ),
  message: normalizedText(M.messageRequired).pipe(
    z
      .string({ error: M.messageRequired })
      .min(1, M.messageRequired)
      .min(CONTACT_LIMITS.message.min, M.messageTooShort)
      .max(CONTACT_LIMITS.message.max, M.messageTooLong),
  ),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

/** A refused form's values as echoed back beside it: each cut to twice its limit (never an enormous value in full). */
export function boundContactValues(values: Record<string, unknown> | undefined): Partial<ContactValues> {
  const bounded: Partial<ContactValues> = {};
  for (const field of CONTACT_FIELDS) {
    const value = values?.[field];
    if (typeof value === "string") bounded[field] = value.slice(0, CONTACT_LIMITS[field].max * 2);
  }
  return bounded;
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
