/**
 * A small HTTP/1.1 client for load that a browser would make one visitor at a time (form posts with
 * cookies, no redirect following): node:http over a keep-alive agent, so the client costs little
 * CPU next to the server it measures. Used by the checkout section.
 */
import { Agent, request } from "node:http";

export interface Reply {
  status: number;
  location: string | null;
  setCookie: string[];
  body: string;
}

/** A keep-alive agent holding at most `sockets` connections (requests beyond that queue in the client). */
export const keepAliveAgent = (sockets: number) =>
  new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: "fifo" });

/** One request; the body is always read in full (so the socket goes back to the pool). */
export function send(
  agent: Agent,
  url: string,
  method: "GET" | "POST",
  headers: Record<string, string>,
  body?: string,
  timeoutMs = 30_000,
): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = request(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: payload ? { ...headers, "content-length": String(payload.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            location: typeof res.headers.location === "string" ? res.headers.location : null,
            setCookie: res.headers["set-cookie"] ?? [],
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** A browser's cookie jar for one origin, reduced to name=value pairs (Max-Age=0 deletes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  store(setCookie: string[]): void {
    for (const line of setCookie) {
      const end = line.indexOf(";");
      const pair = end === -1 ? line : line.slice(0, end);
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      if (/;\s*max-age=0\b|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
  }
}

/** Nearest-rank percentile of ascending `sorted` (ms); null for no samples. */
export function percentile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
}
