import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import { LINGER_LIMITS, type LingerLimits, lingerAfterAnswer } from "./lingering-close.ts";

/**
 * What a request must be before React Router sees it (every page and action goes through here,
 * so a new route cannot forget it):
 * - a method the shop answers: GET and HEAD read, POST acts (HTML forms know no other) — anything
 *   else is 405 with an `Allow` header (the REST API also takes DELETE and OPTIONS, without a body);
 * - a POST carries a form: `application/x-www-form-urlencoded`, or `multipart/form-data` with a
 *   boundary — anything else (JSON, XML, text/plain, no type at all) is 415; but a payment
 *   provider's webhook and the REST API (rules with `json`) carry JSON and nothing else;
 * - a body no larger than its route family allows (BODY_LIMITS): 413, from the Content-Length
 *   before a byte is read, or as soon as a chunked body passes the limit. The 413 goes out at once
 *   with `Connection: close`, and the rest of the body is then read and thrown away (at most 5 s
 *   and 32 MB more, LINGER_LIMITS) before the connection is closed, so a client still sending reads
 *   the 413 instead of a reset (lingering-close.ts);
 * - a multipart body that parses (small forms are read here whole, which the limit keeps cheap;
 *   the upload routes stream theirs through their own parser, which answers 400 itself) — else 400.
 * Routes then read `request.formData()` knowing it cannot fail.
 */

const KB = 1024;
const MB = 1024 * KB;

export interface BodyLimitRule {
  /** matched against the page path (a React Router data request's `.data` suffix removed) */
  pattern: RegExp;
  bytes: number;
  /** what the limit is for, in the 413 message */
  what: string;
  /** the route reads its body as a stream (uploads): it is not buffered here */
  streamed?: true;
  /** the route takes `application/json` (a payment provider's webhook, the REST API), and no form */
  json?: true;
}

/**
 * Body limits by route family; the first rule that matches wins. Text limits allow every field of
 * the family's forms at its maximum length even when each character is percent-encoded from
 * three UTF-8 bytes (9 bytes a character).
 */
export const BODY_LIMITS: readonly BodyLimitRule[] = [
  {
    // up to 10 images of 10 MB and the text fields (decision 006)
    pattern: /^\/admin\/products\/(new|\d+)$/,
    bytes: 10 * 10 * MB + 2 * MB,
    what: "a product form: at most 10 images of 10 MB each",
    streamed: true,
  },
  {
    pattern: /^\/admin\/products\/import$/,
    bytes: 5 * MB + 64 * KB,
    what: "a CSV import: at most 5 MB",
    streamed: true,
  },
  {
    // a customer group's CSV of e-mails (decision 034), or of SKUs and prices (decision 037)
    pattern: /^\/admin\/customer-groups\/\d+(\/prices)?\/import$/,
    bytes: 5 * MB + 64 * KB,
    what: "a CSV import: at most 5 MB",
    streamed: true,
  },
  { pattern: /^\/admin(\/|$)/, bytes: 64 * KB, what: "an admin form" },
  // Stripe's events are small; the raw body is what the signature is checked on
  { pattern: /^\/webhooks\/stripe$/, bytes: 512 * KB, what: "a webhook event", json: true },
  // the REST API (decision 038): JSON in, no forms; a product added with its images (base64)
  {
    pattern: /^\/api\/v1\/admin\/products$/,
    bytes: 22 * MB,
    what: "a product through the API: at most 4 images of 4 MB each",
    json: true,
  },
  { pattern: /^\/api\/v1\//, bytes: 64 * KB, what: "an API request", json: true },
  // a contact message (5 000 characters) or a review (2 000)
  { pattern: /^\/(contact|products\/[^/]+)$/, bytes: 64 * KB, what: "this form" },
  { pattern: /^/, bytes: 16 * KB, what: "this form" },
];

export const ALLOWED_METHODS = "GET, HEAD, POST";

/** The REST API's paths (decision 038). */
const API_PATH = /^\/api\/v1\//;

/** The page a request is for: `/cart.data` (a client-side submission) → `/cart`, `/_root.data` → `/`. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

export function bodyLimitFor(pathname: string): BodyLimitRule {
  const path = pagePathOf(pathname);
  // the last rule matches everything
  return BODY_LIMITS.find((rule) => rule.pattern.test(path)) ?? BODY_LIMITS[BODY_LIMITS.length - 1]!;
}

type FormType = "urlencoded" | "multipart";

/** The form encoding of a Content-Type header, or null for anything that is not a form. */
export function formTypeOf(contentType: string | undefined): FormType | null {
  if (!contentType) return null;
  const [type = "", ...params] = contentType.split(";").map((part) => part.trim());
  switch (type.toLowerCase()) {
    case "application/x-www-form-urlencoded":
      return "urlencoded";
    case "multipart/form-data": {
      // RFC 2046: 1–70 characters, not ending in a space; quoted or not
      const boundary = params
        .map((param) => /^boundary=(?:"([^"]{1,70})"|([^\s";]{1,70}))$/i.exec(param))
        .find(Boolean);
      return boundary ? "multipart" : null;
    }
    default:
      return null;
  }
}

export function requestGuard({ linger = LINGER_LIMITS }: { linger?: LingerLimits } = {}): MiddlewareHandler {
  /** 413, then the rest of the body is read and dropped before the connection closes (see above). */
  const refuseTooLarge = (
    c: Context,
    rule: BodyLimitRule,
    rest?: ReadableStreamDefaultReader<Uint8Array>,
  ) => {
    const { incoming } = (c.env ?? {}) as Partial<HttpBindings>;
    if (incoming) lingerAfterAnswer(incoming, rest ?? c.req.raw.body?.getReader(), linger);
    return c.text(`Request too large: ${rule.what} is at most ${formatBytes(rule.bytes)}.`, 413, {
      Connection: "close",
    });
  };
  /** The declared size over the rule's limit (a body with a Content-Length and not chunked). */
  const declaredOver = (c: Context, rule: BodyLimitRule) =>
    Number(c.req.header("Content-Length") ?? 0) > rule.bytes;
  /**
   * Small bodies: by the declared size before a byte is read, or (chunked) read here as they arrive
   * and refused as soon as they pass the limit; the bytes read are handed on to the route.
   */
  const withinLimit = async (c: Context, rule: BodyLimitRule, next: () => Promise<void>) => {
    const headers = c.req.raw.headers;
    if (headers.has("Content-Length") && !headers.has("Transfer-Encoding")) {
      return declaredOver(c, rule) ? refuseTooLarge(c, rule) : next();
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const read = await readWithin(body, rule.bytes);
    if ("rest" in read) return refuseTooLarge(c, rule, read.rest);
    c.req.raw = new Request(c.req.raw, { body: read.bytes });
    return next();
  };
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    // the REST API also takes DELETE (no body) and a browser's CORS preflight (decision 038)
    if ((method === "DELETE" || method === "OPTIONS") && API_PATH.test(c.req.path)) {
      // by its headers: node's adapter gives every such request a body stream, empty or not
      const sized = Number(c.req.header("Content-Length") ?? 0) > 0 || c.req.header("Transfer-Encoding");
      return sized ? c.text("This request takes no body.", 400) : next();
    }
    if (method !== "POST") {
      return c.text(`Method ${method.slice(0, 20)} is not allowed here.`, 405, { Allow: ALLOWED_METHODS });
    }
    const contentType = c.req.header("Content-Type");
    const rule = bodyLimitFor(c.req.path);
    if (rule.json) {
      if (declaredOver(c, rule)) return refuseTooLarge(c, rule);
      const json = /^application\/json\s*(;|$)/i.test(contentType ?? "");
      return json ? withinLimit(c, rule, next) : c.text("Unsupported content type: send JSON.", 415);
    }
    const type = formTypeOf(contentType);
    if (!type) {
      return c.text(
        "Unsupported content type: send a form (application/x-www-form-urlencoded or multipart/form-data).",
        415,
      );
    }
    if (rule.streamed) {
      // Uploads are never buffered here: a declared size over the limit is refused at once, and the
      // route's streaming parser cuts a chunked body off at the same limit (maxTotalSize).
      return declaredOver(c, rule) ? refuseTooLarge(c, rule) : next();
    }
    return withinLimit(c, rule, async () => {
      if (type === "multipart") {
        const bytes = await c.req.raw.arrayBuffer();
        try {
          await new Response(bytes, { headers: { "Content-Type": contentType ?? "" } }).formData();
        } catch {
          c.res = c.text("The form could not be read (malformed multipart body).", 400);
          return;
        }
        c.req.raw = new Request(c.req.raw, { body: bytes });
      }
      await next();
    });
  };
}

/**
 * A body read up to `limit` bytes: all of it, or — as soon as it passes the limit — the reader,
 * which still has the rest.
 */
async function readWithin(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer> } | { rest: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return { rest: reader };
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}

function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}
