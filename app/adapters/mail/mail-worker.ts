/**
 * Worker-thread entry: builds and sends the messages a thread mailer (mail-thread.server.ts)
 * hands it, through the mailer MAIL_URL names (file outbox or SMTP). Started by the app's thread
 * when the server gave it this file's URL (server/main.ts); Node runs it from source.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { MailRequest, MailResponse } from "./mail-thread.server.ts";
import { createMailer } from "./mailer.server.ts";

/**
 * E-mail is background work: this thread runs at a lower priority than the one answering requests
 * (nice MAIL_THREAD_NICENESS; decision 032), so when every core is busy the checkout keeps them and
 * the messages (an invoice's PDF is ~1.5 ms of CPU) wait a moment instead; when one is free it makes
 * no difference. On Linux a thread's niceness is its own (setpriority on its thread id); elsewhere
 * the thread keeps the process's priority.
 */
export const MAIL_THREAD_NICENESS = 10;

function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, MAIL_THREAD_NICENESS);
  } catch {
    // not Linux (no /proc/thread-self): the same priority as the requests
  }
}
lowerThisThreadsPriority();

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
