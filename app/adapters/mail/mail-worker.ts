/**
 * Worker-thread entry: builds and sends the messages a thread mailer (mail-thread.server.ts)
 * hands it, through the mailer MAIL_URL names (file outbox or SMTP). Started by the app's thread
 * when the server gave it this file's URL (server/main.ts); Node runs it from source.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { MailRequest, MailResponse } from "./mail-thread.server.ts";
import { createMailer } from "./mailer.server.ts";

const { url, from } = workerData as { url: string; from: string };
const mailer = createMailer(url, { from });
const port = parentPort;
if (!port) throw new Error("mail-worker.ts runs as a worker thread");

port.on("message", async ({ id, message }: MailRequest) => {
  let response: MailResponse;
  try {
    const { messageId } = await mailer.send(message);
    response = { id, messageId };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
