/** Outgoing mail (order confirmations, password resets): a transport and what it sends. */
export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
