import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readOutbox } from "../../../tests/helpers/outbox.ts";
import { logger } from "../logger.server.ts";
import type { ProcessMailer } from "./mail-process.server.ts";
import { createMailer, mailFrom, SMTP_TIMEOUTS_MS, smtpUrlWithTimeouts } from "./mailer.server.ts";

const FROM = "Cartwheel <hello@cartwheel.example>";
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cartwheel-mail-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
  rmSync(root, { recursive: true, force: true });
});

describe("file mailer", () => {
  it("writes each message as an .eml file into a directory it creates", async () => {
    const dir = join(root, "nested", "mail");
    const mailer = createMailer(`file:${dir}`, { from: FROM });
    const { messageId } = await mailer.send({
      to: "shopper@example.com",
      subject: "Your order CW-1234",
      text: "Thanks for your order.",
      html: "<p>Thanks for your order.</p>",
    });

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    const raw = readFileSync(join(dir, files[0]!), "utf8");
    expect(raw).toMatch(/^From: Cartwheel <hello@cartwheel\.example>\r\n/m);
    expect(raw).toContain(`Message-ID: ${messageId}\r\n`);
    expect(raw).toMatch(/^MIME-Version: 1\.0\r$/m);
    expect(messageId).toMatch(/^<.+@cartwheel\.example>$/);

    expect(await readOutbox(dir)).toEqual([
      {
        file: files[0],
        to: "shopper@example.com",
        subject: "Your order CW-1234",
        text: "Thanks for your order.",
        html: "<p>Thanks for your order.</p>",
      },
    ]);
  });

  it("round-trips non-ASCII subjects and bodies, long lines and trailing spaces", async () => {
    const mailer = createMailer(`file:${root}`, { from: FROM });
    const subject = "Bestellung bestätigt ✓ — Ihr Paket ist unterwegs, danke schön für Ihren Einkauf bei uns";
    const text = `Grüße aus Köln — ${"lange Zeile ".repeat(20)}\nZweite Zeile mit Leerzeichen am Ende   \n\nEnde ✓`;
    const html = `<p>Grüße — <a href="https://shop.example/orders/CW-1?e=a%40b.c&x=1">Bestellung</a></p>`;
    await mailer.send({ to: "kunde@example.com", subject, text, html });
    const [message] = await readOutbox(root);
    expect(message).toMatchObject({ subject, text, html });
  });

  it("round-trips a body that nodemailer encodes as base64", async () => {
    const mailer = createMailer(`file:${root}`, { from: FROM });
    const text = "注文ありがとうございます。".repeat(10);
    await mailer.send({ to: "a@example.com", subject: "ご注文", text });
    expect((await readOutbox(root))[0]).toMatchObject({ subject: "ご注文", text, html: null });
  });

  it("sends plain text alone when there is no html", async () => {
    const mailer = createMailer(`file:${root}`, { from: FROM });
    await mailer.send({ to: "a@example.com", subject: "Reset your password", text: "Open the link." });
    const [message] = await readOutbox(root);
    expect(message).toMatchObject({ subject: "Reset your password", text: "Open the link.", html: null });
    expect(readFileSync(join(root, message!.file), "utf8")).not.toContain("multipart");
  });

  it("lists messages oldest first, newest last", async () => {
    const mailer = createMailer(`file:${root}`, { from: FROM });
    for (let i = 1; i <= 5; i++)
      await mailer.send({ to: `n${i}@example.com`, subject: `Message ${i}`, text: `${i}` });
    const messages = await readOutbox(root);
    expect(messages.map((m) => m.subject)).toEqual([
      "Message 1",
      "Message 2",
      "Message 3",
      "Message 4",
      "Message 5",
    ]);
    expect(messages.map((m) => m.to)).toEqual([1, 2, 3, 4, 5].map((i) => `n${i}@example.com`));
  });

  it("accepts file:// URLs and gives unique message ids", async () => {
    const mailer = createMailer(`file://${root}/via-url`, { from: FROM });
    const a = await mailer.send({ to: "a@example.com", subject: "A", text: "a" });
    const b = await mailer.send({ to: "b@example.com", subject: "B", text: "b" });
    expect(a.messageId).not.toBe(b.messageId);
    expect(readdirSync(join(root, "via-url"))).toHaveLength(2);
  });

  it("logs who and what was sent, never the body", async () => {
    const info = vi.spyOn(logger, "info");
    const mailer = createMailer(`file:${root}`, { from: FROM });
    const { messageId } = await mailer.send({
      to: "shopper@example.com",
      subject: "Reset your password",
      text: "secret-reset-token-text",
      html: "<p>secret-reset-token-html</p>",
    });
    expect(info).toHaveBeenCalledTimes(1);
    const [fields, msg] = info.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(fields).toEqual({
      mail: { to: "shopper@example.com", subject: "Reset your password", messageId, transport: "file" },
    });
    expect(msg).toBe("mail sent");
    expect(JSON.stringify(info.mock.calls)).not.toContain("secret-reset-token");
  });

  it("an outbox that was never written to is empty", async () => {
    expect(await readOutbox(join(root, "nothing-yet"))).toEqual([]);
  });
});

describe("SMTP mailer", () => {
  /** A real SMTP server on a free port (nodemailer's smtp-server) that keeps what it receives. */
  async function startSmtpServer() {
    const received: { from: string; to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        let raw = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          raw += chunk;
        });
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as AddressInfo;
    return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it("delivers over SMTP: envelope, headers and body as the shopper's mail client sees them, and logs the send", async () => {
    const smtp = await startSmtpServer();
    const info = vi.spyOn(logger, "info");
    try {
      const mailer = createMailer(`smtp://127.0.0.1:${smtp.port}`, { from: FROM });
      const { messageId } = await mailer.send({
        to: "shopper@example.com",
        subject: "Your order CW-1234",
        text: "Thanks for your order.",
      });
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail!.from).toBe("hello@cartwheel.example");
      expect(mail!.to).toEqual(["shopper@example.com"]);
      expect(mail!.raw).toMatch(/^From: Cartwheel <hello@cartwheel\.example>\r$/m);
      expect(mail!.raw).toMatch(/^To: shopper@example\.com\r$/m);
      expect(mail!.raw).toMatch(/^Subject: Your order CW-1234\r$/m);
      expect(mail!.raw).toContain("Thanks for your order.");
      // the id the shop keeps is the one the message carries
      expect(mail!.raw).toContain(`Message-ID: ${messageId}`);
      expect(info).toHaveBeenCalledWith(
        { mail: { to: "shopper@example.com", subject: "Your order CW-1234", messageId, transport: "smtp" } },
        "mail sent",
      );
    } finally {
      await smtp.close();
    }
  });

  it("fails a send the server refuses, with the server's answer", async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const mailer = createMailer(`smtp://127.0.0.1:${port}`, { from: FROM });
      await expect(mailer.send({ to: "nobody@example.com", subject: "Hi", text: "x" })).rejects.toThrow(
        /mailbox unavailable/,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("bounds connecting, the greeting and an idle socket unless MAIL_URL sets them", () => {
    const options = (url: string) =>
      (
        nodemailer.createTransport(smtpUrlWithTimeouts(url)) as unknown as {
          options: Record<string, unknown>;
        }
      ).options;
    expect(options("smtps://user:p%40ss@mail.example.com:465")).toMatchObject({
      host: "mail.example.com",
      port: 465,
      secure: true,
      auth: { user: "user", pass: "p@ss" },
      ...SMTP_TIMEOUTS_MS,
    });
    expect(options("smtp://127.0.0.1:2525?socketTimeout=5000&connectionTimeout=0")).toMatchObject({
      ...SMTP_TIMEOUTS_MS,
      socketTimeout: 5000,
      connectionTimeout: 0,
    });
  });

  it("builds a real SMTP transport from the URL without connecting", () => {
    expect(() => createMailer("smtps://user:pass@mail.example.com:465", { from: FROM })).not.toThrow();
  });

  it("lets a failed delivery reject without logging it as sent", async () => {
    vi.spyOn(nodemailer, "createTransport").mockReturnValue({
      sendMail: vi.fn().mockRejectedValue(new Error("connect ECONNREFUSED 127.0.0.1:2525")),
    } as unknown as ReturnType<typeof nodemailer.createTransport>);
    const info = vi.spyOn(logger, "info");
    const mailer = createMailer("smtp://127.0.0.1:2525", { from: FROM });
    await expect(mailer.send({ to: "a@example.com", subject: "S", text: "T" })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(info).not.toHaveBeenCalled();
  });
});

describe("createMailer", () => {
  it.each(["sendmail:/usr/sbin/sendmail", "https://mail.example.com", "./data/mail"])(
    "refuses the unsupported URL %j",
    (url) => {
      expect(() => createMailer(url, { from: FROM })).toThrow(/not supported/);
    },
  );
});

describe("mailFrom", () => {
  it.each([
    ["Cartwheel", "hello@cartwheel.example", "Cartwheel <hello@cartwheel.example>"],
    ["Bob's Bikes", "bob@example.com", "Bob's Bikes <bob@example.com>"],
    ["Smith, Jones & Co.", "shop@example.com", '"Smith, Jones & Co." <shop@example.com>'],
    ['The "Best" Shop', "shop@example.com", '"The \\"Best\\" Shop" <shop@example.com>'],
  ])("%j + %s → %s", (name, address, header) => {
    expect(mailFrom(name, address)).toBe(header);
  });

  it("keeps a comma in the shop name from splitting the sender", async () => {
    const mailer = createMailer(`file:${root}`, { from: mailFrom("Smith, Jones & Co.", "shop@example.com") });
    await mailer.send({ to: "a@example.com", subject: "S", text: "T" });
    const [message] = await readOutbox(root);
    expect(readFileSync(join(root, message!.file), "utf8")).toMatch(
      /^From: "Smith, Jones & Co\." <shop@example\.com>\r$/m,
    );
  });
});

describe("createShopMailer", () => {
  it("builds the mailer from MAIL_URL, a relative path taken from the working directory", async () => {
    const dir = join(root, "outbox");
    vi.resetModules();
    const { createShopMailer } = await import("./mailer.server.ts");

    const mailer = createShopMailer({
      MAIL_URL: `file:${relative(process.cwd(), dir)}`,
      SHOP_NAME: "Test Shop",
      CONTACT_EMAIL: "shop@example.com",
    });
    await mailer.send({ to: "a@example.com", subject: "Configured", text: "T" });
    const [message] = await readOutbox(dir);
    expect(message?.subject).toBe("Configured");
    expect(readFileSync(join(dir, message!.file), "utf8")).toMatch(
      /^From: Test Shop <shop@example\.com>\r$/m,
    );
  });

  it("hands the messages to the mail worker once the server named it (setMailWorker)", async () => {
    const dir = join(root, "worker-outbox");
    vi.resetModules();
    const { createShopMailer, setMailWorker } = await import("./mailer.server.ts");
    setMailWorker(new URL("./mail-worker.ts", import.meta.url));

    const mailer = createShopMailer({
      MAIL_URL: `file:${dir}`,
      SHOP_NAME: "Worker Shop",
      CONTACT_EMAIL: "shop@example.com",
    }) as ProcessMailer;
    expect(mailer.close).toBeTypeOf("function");
    try {
      await mailer.send({ to: "b@example.com", subject: "From the worker", text: "T" });
    } finally {
      await mailer.close();
    }
    const [message] = await readOutbox(dir);
    expect(message?.subject).toBe("From the worker");
    expect(readFileSync(join(dir, message!.file), "utf8")).toMatch(
      /^From: Worker Shop <shop@example\.com>\r$/m,
    );
  });
});
