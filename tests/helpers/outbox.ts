import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface OutboxMessage {
  /** the .eml file name inside the directory */
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** the files sent with it (a part with a file name), as bytes; absent when there are none */
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

/**
 * The messages the file mailer wrote into `dir` (MAIL_URL=file:<dir>), oldest first, newest last.
 * A small MIME reader for what nodemailer writes (headers, encoded words, quoted-printable and
 * base64 parts, nested multipart) — enough for tests, not a general mail parser.
 * A directory that does not exist yet holds no messages.
 */
export async function readOutbox(dir: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  // File names start with an ISO timestamp, so name order is send order.
  const files = names.filter((name) => name.endsWith(".eml") && !name.startsWith(".")).sort();
  return Promise.all(
    files.map(async (file) => {
      const part = parsePart((await readFile(join(dir, file), "utf8")).replace(/\r\n/g, "\n"));
      const bodies = {
        text: null as string | null,
        html: null as string | null,
        attachments: [] as Attachment[],
      };
      collectBodies(part, bodies);
      return {
        file,
        to: decodeWords(part.headers.get("to") ?? ""),
        subject: decodeWords(part.headers.get("subject") ?? ""),
        text: bodies.text ?? "",
        html: bodies.html,
        ...(bodies.attachments.length > 0 ? { attachments: bodies.attachments } : {}),
      };
    }),
  );
}

type Attachment = NonNullable<OutboxMessage["attachments"]>[number];

interface Part {
  headers: Map<string, string>;
  body: string;
}

function parsePart(raw: string): Part {
  const split = raw.indexOf("\n\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectBodies(
  part: Part,
  found: { text: string | null; html: string | null; attachments: Attachment[] },
  topLevel = true,
): void {
  const contentType = part.headers.get("content-type") ?? "text/plain";
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    const sections = part.body.split(`--${boundary}`);
    // sections[0] is the preamble; the one after the closing "--boundary--" starts with "--"
    for (const section of sections.slice(1)) {
      if (section.startsWith("--")) break;
      // the line breaks around a section belong to the boundary lines
      collectBodies(parsePart(section.replace(/^\n/, "").replace(/\n$/, "")), found, false);
    }
    return;
  }
  const encoding = part.headers.get("content-transfer-encoding") ?? "7bit";
  const filename = /filename="?([^";]+)"?/i.exec(part.headers.get("content-disposition") ?? "")?.[1];
  if (filename) {
    const content = /base64/i.test(encoding)
      ? Buffer.from(part.body.replace(/\s+/g, ""), "base64")
      : Buffer.from(part.body, "utf8");
    found.attachments.push({ filename: decodeWords(filename), contentType: type, content });
    return;
  }
  const decoded = decodeBody(part.body, encoding);
  // a single-part message ends with the line break nodemailer adds after the body
  const text = topLevel ? decoded.replace(/\n$/, "") : decoded;
  if (type === "text/plain" && found.text === null) found.text = text;
  if (type === "text/html" && found.html === null) found.html = text;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.trim().toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return qpBytes(body.replace(/=\n/g, "")).toString("utf8");
    default:
      return body;
  }
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=); adjacent ones are joined byte-wise. */
function decodeWords(value: string): string {
  const joined = value.replace(/\?=\s+=\?/g, "?==?");
  return joined.replace(/(?:=\?[^?]+\?[QqBb]\?[^?]*\?=)+/g, (run) => {
    const chunks = [...run.matchAll(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g)].map(([, kind, data]) =>
      kind!.toUpperCase() === "B" ? Buffer.from(data!, "base64") : qpBytes(data!.replace(/_/g, " ")),
    );
    return Buffer.concat(chunks).toString("utf8");
  });
}
