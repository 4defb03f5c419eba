import { Worker } from "node:worker_threads";
import type { Mailer, MailMessage } from "./mail-message.ts";

/** What the app's thread posts to the mail worker, and what it answers. */
export interface MailRequest {
  id: number;
  message: MailMessage;
}
export type MailResponse = { id: number; messageId: string } | { id: number; error: string };

/**
 * E-mail is background work: the mail worker runs at this niceness above the app's (decision 032),
 * so when every core is busy the requests keep them and the messages (an invoice's PDF is ~1.5 ms of
 * CPU) wait a moment instead; when one is free it makes no difference. Where a thread cannot have its
 * own priority (not Linux) the worker keeps the process's.
 */
export const MAIL_THREAD_NICENESS = 10;

export interface ThreadMailer extends Mailer {
  /** ends the worker; sends still waiting are refused */
  close(): Promise<void>;
}

/**
 * A Mailer whose messages are built (nodemailer's MIME encoding) and delivered (the outbox's file
 * writes, the SMTP conversation) by a worker thread running `workerUrl` (mail-worker.ts), so the
 * request thread only posts the rendered message and waits: measured at ~2 ms of the request
 * thread per order confirmation otherwise. `send` resolves once the message went out, exactly as
 * the in-thread mailer does. The worker starts on the first send, does not keep the process
 * alive while idle, and is started again after it died (its sends fail and are retried by
 * their callers).
 */
export function createThreadMailer(workerUrl: URL, config: { url: string; from: string }): ThreadMailer {
  let current: MailThread | null = null;
  let nextId = 1;

  const start = (): MailThread => {
    const thread: MailThread = { worker: new Worker(workerUrl, { workerData: config }), waiting: new Map() };
    const { worker, waiting } = thread;
    worker.unref();
    const stopped = (error: Error) => {
      if (current === thread) current = null;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    worker.on("message", (response: MailResponse) => {
      const pending = waiting.get(response.id);
      if (!pending) return;
      waiting.delete(response.id);
      if (waiting.size === 0) worker.unref();
      if ("error" in response) pending.reject(new Error(response.error));
      else pending.resolve({ messageId: response.messageId });
    });
    worker.on("error", stopped);
    worker.on("exit", (code) => stopped(new Error(`the mail worker stopped (exit code ${code})`)));
    return thread;
  };

  return {
    send(message) {
      current ??= start();
      const { worker, waiting } = current;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (waiting.size === 1) worker.ref();
        worker.postMessage({ id, message } satisfies MailRequest);
      });
    },
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}

interface MailThread {
  worker: Worker;
  waiting: Map<number, { resolve: (sent: { messageId: string }) => void; reject: (error: Error) => void }>;
}
