import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOutbox } from "../../../tests/helpers/outbox.ts";
import { createThreadMailer, MAIL_THREAD_NICENESS, type ThreadMailer } from "./mail-thread.server.ts";

const WORKER = new URL("./mail-worker.ts", import.meta.url);
const FROM = "Cartwheel <hello@cartwheel.example>";
let root: string;
let mailer: ThreadMailer | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cartwheel-mail-thread-"));
});
afterEach(async () => {
  await mailer?.close();
  mailer = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe("thread mailer (the real mail worker)", () => {
  it("writes each message to the outbox before send resolves, concurrent sends included", async () => {
    mailer = createThreadMailer(WORKER, { url: `file:${root}`, from: FROM });
    const sent = await Promise.all(
      ["a", "b", "c"].map((who) =>
        mailer!.send({
          to: `${who}@example.com`,
          subject: `Order for ${who} ✓`,
          text: `Hello ${who}`,
          html: `<p>${who}</p>`,
        }),
      ),
    );
    expect(new Set(sent.map((s) => s.messageId)).size).toBe(3);
    for (const { messageId } of sent) expect(messageId).toMatch(/^<.+@cartwheel\.example>$/);
    const outbox = await readOutbox(root);
    expect(
      outbox
        .map(({ to, subject, text, html }) => ({ to, subject, text, html }))
        .sort((x, y) => x.to.localeCompare(y.to)),
    ).toEqual(
      ["a", "b", "c"].map((who) => ({
        to: `${who}@example.com`,
        subject: `Order for ${who} ✓`,
        text: `Hello ${who}`,
        html: `<p>${who}</p>`,
      })),
    );
  });

  it("rejects a send the mail server refuses, and keeps working after it", async () => {
    // a server that closes every connection at once: the SMTP greeting never comes
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      mailer = createThreadMailer(WORKER, { url: `smtp://127.0.0.1:${port}`, from: FROM });
      await expect(mailer.send({ to: "x@example.com", subject: "s", text: "t" })).rejects.toThrow();
      await expect(mailer.send({ to: "y@example.com", subject: "s", text: "t" })).rejects.toThrow();
    } finally {
      server.close();
    }
  });

  it("refuses the sends of a worker that stopped, and starts a new one for the next send", async () => {
    mailer = createThreadMailer(WORKER, { url: `file:${root}`, from: FROM });
    await mailer.send({ to: "first@example.com", subject: "1", text: "1" });
    const pending = mailer.send({ to: "lost@example.com", subject: "2", text: "2" });
    await mailer.close();
    await expect(pending).rejects.toThrow(/mail worker stopped/);
    await mailer.send({ to: "third@example.com", subject: "3", text: "3" });
    const recipients = (await readOutbox(root)).map((m) => m.to);
    expect(recipients).toContain("first@example.com");
    expect(recipients).toContain("third@example.com");
  });

  // decision 032: e-mail yields the CPU to the requests when every core is busy
  it.runIf(process.platform === "linux")(
    "runs the mail worker at a lower priority than this thread",
    async () => {
      mailer = createThreadMailer(WORKER, { url: `file:${root}`, from: FROM });
      await mailer.send({ to: "nice@example.com", subject: "s", text: "t" });
      const niceness = (tid: string) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
      const threads = readdirSync("/proc/self/task");
      const ours = niceness(String(process.pid));
      // Node names its worker threads so (the test runner's own, if any, among them)
      const worker = threads.filter(
        (tid) => readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "WorkerThread",
      );
      expect(worker.length).toBeGreaterThan(0);
      expect(worker.map(niceness)).toContain(ours + MAIL_THREAD_NICENESS);
    },
  );
});
