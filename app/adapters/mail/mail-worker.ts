/**
 * Worker-thread entry: builds and sends the messages a thread mailer (mail-thread.server.ts)
 * hands it, through the mailer MAIL_URL names (file outbox or SMTP). Started by the app's thread
 * when the server gave it this file's URL (server/main.ts); Node runs it from source.
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { MAIL_THREAD_NICENESS, type MailRequest, type MailResponse } from "./mail-thread.server.ts";
import { createMailer } from "./mailer.server.ts";

/** Linux: a thread's niceness is its own (setpriority on its thread id), decision 032. */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isSafeInteger(threadId) || threadId <= 0) return;
    // above the app's own (the process's main thread), at most the lowest priority there is
    setPriority(threadId, Math.min(19, getPriority() + MAIL_THREAD_NICENESS));
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
