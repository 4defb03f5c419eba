/**
 * The contact form's fields, limits and texts, shared by the page and the server (free of zod so
 * the client bundle stays small; the schema is in contact-message.server.ts).
 */

export const CONTACT_FIELDS = ["name", "email", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_LIMITS = {
  name: { max: 100 },
  email: { max: 254 },
  subject: { max: 150 },
  message: { min: 10, max: 5000 },
} as const;

export const CONTACT_MESSAGES = {
  sent: "Thanks for your message! We'll reply within one business day.",
  nameRequired: "Please enter your name.",
  nameTooLong: `Your name must be at most ${CONTACT_LIMITS.name.max} characters.`,
  emailInvalid: "Please enter a valid e-mail address.",
  subjectRequired: "Please enter a subject.",
  subjectTooLong: `The subject must be at most ${CONTACT_LIMITS.subject.max} characters.`,
  messageRequired: "Please enter your message.",
  messageTooShort: `Your message must be at least ${CONTACT_LIMITS.message.min} characters.`,
  messageTooLong: `Your message must be at most ${CONTACT_LIMITS.message.max} characters.`,
} as const;

export type ContactValues = Record<ContactField, string>;

/** Messages sent per visitor address per hour (shared by all app processes through the database). */
export const CONTACT_RATE_LIMIT = { limit: 20, windowMs: 60 * 60_000 };

export const contactTooManyMessage = (minutes: number) =>
  `Too many messages. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`;
