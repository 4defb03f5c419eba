/**
 * Mail process entry: builds and sends the messages a process mailer (mail-process.server.ts)
 * hands it over IPC, through the mailer MAIL_URL names (file outbox or SMTP). Forked by the app's
 * process when the server gave it this file's URL (server/main.ts); Node runs it from source.
 */
import { setPriority } from "node:os";
import type { MailRequest, MailResponse } from "./mail-process.server.ts";
import { createMailer } from "./mailer.server.ts";

/**
 * E-mail is background work: this process runs at the lowest priority (nice 19; decision 032), so
 * when every core is busy the requests keep them and the messages (an invoice's PDF is ~1.5 ms of
 * CPU) wait a moment instead; when a core is free it makes no difference.
 */
export const MAIL_WORKER_NICENESS = 19;

try {
  setPriority(0, MAIL_WORKER_NICENESS);
} catch {
  // a platform that refuses: the same priority as the requests
}

const { url, from } = JSON.parse(process.env.CARTWHEEL_MAIL_WORKER ?? "{}") as { url: string; from: string };
const mailer = createMailer(url, { from });
if (!process.send) throw new Error("mail-worker.ts runs as a child process with an IPC channel");
// the app's process went away (even kill -9): nothing is left to send for
process.on("disconnect", () => process.exit(0));

process.on("message", async ({ id, message }: MailRequest) => {
  let response: MailResponse;
  try {
    const { messageId } = await mailer.send(message);
    response = { id, messageId };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  process.send?.(response);
});
