import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import nodemailer from "nodemailer";
import type { Env } from "../../env.server.ts";
import { recordMail } from "../../infra/metrics.server.ts";
import { logger } from "../logger.server.ts";
import type { Mailer, MailMessage } from "./mail-message.ts";
import { createProcessMailer } from "./mail-process.server.ts";

/**
 * `file:<dir>` writes each message as an RFC 822 `.eml` file into the directory (created when
 * missing); `smtp://…` / `smtps://…` sends through that server (credentials and options in the URL).
 */
export function createMailer(url: string, { from }: { from: string }): Mailer {
  if (url.startsWith("file:")) return countedMailer(createFileMailer(url.replace(/^file:(\/\/)?/, ""), from));
  if (url.startsWith("smtp://") || url.startsWith("smtps://"))
    return countedMailer(createSmtpMailer(url, from));
  throw new Error(`MAIL_URL scheme not supported: ${url.split(":")[0]}`);
}

function createFileMailer(directory: string, from: string): Mailer {
  const root = resolve(directory);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  let ready: Promise<unknown> | undefined;
  return {
    async send(message) {
      const info = await transport.sendMail(await nodemailerMessage(from, message));
      ready ??= mkdir(root, { recursive: true });
      await ready;
      const name = `${fileTimestamp()}-${randomBytes(6).toString("hex")}.eml`;
      // Written under a temporary name first, so a reader never sees half a message.
      const temporary = join(root, `.${name}.tmp`);
      await writeFile(temporary, info.message as Buffer);
      await rename(temporary, join(root, name));
      logSent(message, info.messageId, "file");
      return { messageId: info.messageId };
    },
  };
}

/** The message as nodemailer takes it: attachments as bytes, a PDF's layout rendered here. */
async function nodemailerMessage(from: string, { attachments, ...message }: MailMessage) {
  if (!attachments?.length) return { from, ...message };
  // loaded on the first attachment, not at start (the PDF library and its fonts)
  const { renderPdf } = await import("../pdf/render-pdf.server.ts");
  return {
    from,
    ...message,
    attachments: await Promise.all(
      attachments.map(async ({ filename, contentType, content }) => ({
        filename,
        contentType,
        content: Buffer.from("pdf" in content ? await renderPdf(content.pdf) : content),
      })),
    ),
  };
}

let lastFileTime = 0;
/** The send time without colons; strictly increasing within the process, so file names sort in send order. */
function fileTimestamp(): string {
  lastFileTime = Math.max(Date.now(), lastFileTime + 1);
  return new Date(lastFileTime).toISOString().replace(/:/g, "");
}

/**
 * Bounds on one SMTP send (nodemailer waits up to 2 minutes to connect and 10 for an idle
 * socket by default): Place Order waits for its confirmation, and the resend job's grace time
 * (CONFIRMATION_RETRY) must outlast an attempt. Options in MAIL_URL's query win.
 */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The SMTP URL with the default timeouts added where it sets none. */
export function smtpUrlWithTimeouts(url: string): string {
  const parsed = new URL(url);
  for (const [option, ms] of Object.entries(SMTP_TIMEOUTS_MS)) {
    if (!parsed.searchParams.has(option)) parsed.searchParams.set(option, String(ms));
  }
  return parsed.toString();
}

function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrlWithTimeouts(url));
  return {
    async send(message) {
      const info = await transport.sendMail(await nodemailerMessage(from, message));
      logSent(message, info.messageId, "smtp");
      return { messageId: info.messageId };
    },
  };
}

/** Who and what, never the body (it can hold reset links and order details). */
function logSent(message: MailMessage, messageId: string, transport: "file" | "smtp"): void {
  logger.info({ mail: { to: message.to, subject: message.subject, messageId, transport } }, "mail sent");
}

/** `Shop Name <address>`, the name quoted when it holds characters special in an address header. */
export function mailFrom(name: string, address: string): string {
  const display = /[()<>[\]:;@\\,."]/.test(name) ? `"${name.replace(/["\\]/g, "\\$&")}"` : name;
  return `${display} <${address}>`;
}

let mailWorkerUrl: URL | null = null;

/**
 * Messages are then built and sent by a child process running this file (mail-worker.ts; the
 * server passes the source file's URL, which the bundle cannot know); without it, in the app's
 * process. Call before the services are opened.
 */
export function setMailWorker(url: URL): void {
  mailWorkerUrl = url;
}

/** The shop's mailer from MAIL_URL (a relative file: path is taken from the working directory). */
export function createShopMailer(config: Pick<Env, "MAIL_URL" | "SHOP_NAME" | "CONTACT_EMAIL">): Mailer {
  let url = config.MAIL_URL;
  if (url.startsWith("file:")) {
    const path = url.replace(/^file:(\/\/)?/, "");
    url = `file:${isAbsolute(path) ? path : resolve(process.cwd(), path)}`;
  }
  const from = mailFrom(config.SHOP_NAME, config.CONTACT_EMAIL);
  return mailWorkerUrl
    ? countedMailer(createProcessMailer(mailWorkerUrl, { url, from }))
    : createMailer(url, { from });
}

/**
 * The mailer with each message counted as queued, then sent or failed (decision 027); with metrics
 * off each count is one global read. The mail process's mailer counts nothing (it has no
 * metrics): the app counts what it hands the worker.
 */
function countedMailer<M extends Mailer>(mailer: M): M {
  return {
    ...mailer,
    async send(message) {
      recordMail("queued");
      try {
        const sent = await mailer.send(message);
        recordMail("sent");
        return sent;
      } catch (error) {
        recordMail("failed");
        throw error;
      }
    },
  };
}
