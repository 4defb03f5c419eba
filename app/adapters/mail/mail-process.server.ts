import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Mailer, MailMessage } from "./mail-message.ts";

/** What the app's thread posts to the mail worker, and what it answers. */
export interface MailRequest {
  id: number;
  message: MailMessage;
}
export type MailResponse = { id: number; messageId: string } | { id: number; error: string };

export interface ProcessMailer extends Mailer {
  /** ends the worker; sends still waiting are refused */
  close(): Promise<void>;
}

/**
 * A Mailer whose messages are built (nodemailer's MIME encoding, an invoice's PDF) and delivered
 * (the outbox's file writes, the SMTP conversation) by a child process running `workerUrl`
 * (mail-worker.ts) at a low priority (decision 032), so the app's thread only sends the rendered
 * message and waits, and under a full CPU the requests come first. A process rather than a thread:
 * a niced thread shares the app's locks (its message port, the allocator) and, starved, held up the
 * requests it was meant to yield to. `send` resolves once the message went out, exactly as the
 * in-process mailer does. The worker starts on the first send, does not keep the app alive while
 * idle, exits when the app's process goes (its IPC channel closes, even after kill -9), and is
 * started again after it died (its sends fail and are retried by their callers).
 */
export function createProcessMailer(workerUrl: URL, config: { url: string; from: string }): ProcessMailer {
  let current: MailProcess | null = null;
  let nextId = 1;

  const start = (): MailProcess => {
    const child = fork(fileURLToPath(workerUrl), [], {
      serialization: "advanced",
      // none of the app's Node flags (an --eval's --input-type, a profiler's): it runs one file
      execArgv: [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, CARTWHEEL_MAIL_WORKER: JSON.stringify(config) },
    });
    const thread: MailProcess = { worker: child, waiting: new Map() };
    const { waiting } = thread;
    const idle = (quiet: boolean) => {
      if (quiet) {
        child.unref();
        child.channel?.unref();
      } else {
        child.ref();
        child.channel?.ref();
      }
    };
    idle(true);
    const stopped = (error: Error) => {
      if (current === thread) current = null;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    child.on("message", (response: MailResponse) => {
      const pending = waiting.get(response.id);
      if (!pending) return;
      waiting.delete(response.id);
      if (waiting.size === 0) idle(true);
      if ("error" in response) pending.reject(new Error(response.error));
      else pending.resolve({ messageId: response.messageId });
    });
    child.on("error", stopped);
    child.on("exit", (code) => stopped(new Error(`the mail worker stopped (exit code ${code})`)));
    return thread;
  };

  return {
    send(message) {
      current ??= start();
      const { worker, waiting } = current;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (waiting.size === 1) {
          worker.ref();
          worker.channel?.ref();
        }
        worker.send({ id, message } satisfies MailRequest, (error) => {
          if (!error) return;
          waiting.delete(id);
          reject(error);
        });
      });
    },
    async close() {
      const thread = current;
      current = null;
      if (!thread || thread.worker.exitCode !== null) return;
      const exited = new Promise((resolve) => thread.worker.once("exit", resolve));
      thread.worker.kill();
      await exited;
    },
  };
}

interface MailProcess {
  worker: ChildProcess;
  waiting: Map<number, { resolve: (sent: { messageId: string }) => void; reject: (error: Error) => void }>;
}
