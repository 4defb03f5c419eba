import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOutbox } from "../../../tests/helpers/outbox.ts";
import { createProcessMailer, type ProcessMailer } from "./mail-process.server.ts";

const WORKER = new URL("./mail-worker.ts", import.meta.url);
const FROM = "Cartwheel <hello@cartwheel.example>";
let root: string;
let mailer: ProcessMailer | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cartwheel-mail-process-"));
});
afterEach(async () => {
  await mailer?.close();
  mailer = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe("process mailer (the real mail worker)", () => {
  it("writes each message to the outbox before send resolves, concurrent sends included", async () => {
    mailer = createProcessMailer(WORKER, { url: `file:${root}`, from: FROM });
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
      mailer = createProcessMailer(WORKER, { url: `smtp://127.0.0.1:${port}`, from: FROM });
      await expect(mailer.send({ to: "x@example.com", subject: "s", text: "t" })).rejects.toThrow();
      await expect(mailer.send({ to: "y@example.com", subject: "s", text: "t" })).rejects.toThrow();
    } finally {
      server.close();
    }
  });

  it("refuses the sends of a worker that stopped, and starts a new one for the next send", async () => {
    mailer = createProcessMailer(WORKER, { url: `file:${root}`, from: FROM });
    await mailer.send({ to: "first@example.com", subject: "1", text: "1" });
    const pending = mailer.send({ to: "lost@example.com", subject: "2", text: "2" });
    await mailer.close();
    await expect(pending).rejects.toThrow(/mail worker stopped/);
    await mailer.send({ to: "third@example.com", subject: "3", text: "3" });
    const recipients = (await readOutbox(root)).map((m) => m.to);
    expect(recipients).toContain("first@example.com");
    expect(recipients).toContain("third@example.com");
  });

  // decision 032: the mail process yields the CPU to the requests, and never outlives the app
  it.runIf(process.platform === "linux")(
    "runs at the lowest priority and exits when the app's process is killed (kill -9)",
    async () => {
      // an app of its own: a process that starts the mail process with one send, then waits
      const app = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const { createProcessMailer } = await import(${JSON.stringify(new URL("./mail-process.server.ts", import.meta.url).href)});
           const mailer = createProcessMailer(new URL(${JSON.stringify(WORKER.href)}), { url: "file:${root}", from: "a@example.com" });
           await mailer.send({ to: "ada@example.com", subject: "s", text: "t" });
           console.log("sent");
           setInterval(() => {}, 1000);`,
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          app.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("sent") && resolve());
          app.once("exit", (code) => reject(new Error(`the app exited (${code}) before its send`)));
        });
        const children = execFileSync("ps", ["--ppid", String(app.pid), "-o", "pid=,ni=,args="], {
          encoding: "utf8",
        })
          .trim()
          .split("\n")
          .map((line) => line.trim().split(/\s+/))
          .filter((fields) => fields.some((field) => field.endsWith("mail-worker.ts")));
        expect(children).toHaveLength(1);
        const [pid, nice] = children[0]!;
        expect(Number(nice)).toBe(19);
        expect((await readOutbox(root)).map((m) => m.to)).toEqual(["ada@example.com"]);

        app.kill("SIGKILL");
        const alive = () => {
          try {
            process.kill(Number(pid), 0);
            return true;
          } catch {
            return false;
          }
        };
        await expect.poll(alive, { timeout: 10_000 }).toBe(false);
      } finally {
        app.kill("SIGKILL");
      }
    },
  );
});
