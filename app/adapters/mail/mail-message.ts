import type { PdfLayout } from "../pdf/pdf-layout.ts";

/** Outgoing mail (order confirmations, password resets): a transport and what it sends. */
export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

/**
 * A file sent with the message: its bytes, or a PDF's layout that the mailer renders where it
 * builds the message (the mail process, off the request's thread: an invoice's PDF).
 */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array | { pdf: PdfLayout };
}
