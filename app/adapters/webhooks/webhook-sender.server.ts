import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Sends a webhook (decision 039): one POST, never into the shop's own network. Every address the
 * host resolves to is checked — loopback, private, link-local (cloud metadata: 169.254.169.254),
 * carrier-grade NAT, unspecified, multicast, and their IPv6 forms are refused — in the socket's own
 * lookup, so the address checked is the address connected to (a DNS answer that changes between a
 * check and the connection, rebinding, cannot slip through). `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE,
 * for development and the tests) lifts it. A timeout bounds the whole exchange, and at most
 * `maxBytes` of the answer are read (an excerpt is kept for the delivery log).
 */

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
// (IPv4 written as IPv6, ::ffff:a.b.c.d, is judged as the IPv4 address: isBlockedAddress)
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/** Whether an address is one a webhook may not be sent to (see above). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith("::ffff:")) {
    // an IPv4 address written as IPv6: judged as the IPv4 one
    const v4 = address.slice(7);
    if (isIP(v4) === 4) return BLOCKED.check(v4, "ipv4");
  }
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, an address inside a private network`);
  }
}

/** A lookup that answers only public addresses (all of them checked), else fails the connection. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((a) => isBlockedAddress(a.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), "", 0);
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Whether a URL may be an endpoint: http(s), no credentials, and its host not a private address. */
export async function checkEndpointUrl(
  raw: string,
  { allowPrivate }: { allowPrivate: boolean },
): Promise<{ ok: true; url: URL } | { ok: false; reason: "invalid" | "private" | "unresolved" }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    return { ok: false, reason: "invalid" };
  }
  if (allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isBlockedAddress(host) ? { ok: false, reason: "private" } : { ok: true, url };
  const addresses = await new Promise<LookupAddress[] | null>((resolve) =>
    dnsLookup(host, { all: true }, (error, list) => resolve(error ? null : list)),
  );
  if (!addresses || addresses.length === 0) return { ok: false, reason: "unresolved" };
  return addresses.some((a) => isBlockedAddress(a.address))
    ? { ok: false, reason: "private" }
    : { ok: true, url };
}

export interface SentWebhook {
  /** the answer's status; null when there was none (refused, timed out, blocked) */
  status: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

export async function sendWebhook(
  url: string,
  { headers, body }: { headers: Record<string, string>; body: string },
  {
    allowPrivate,
    timeoutMs = 10_000,
    maxBytes = 64 * 1024,
  }: { allowPrivate: boolean; timeoutMs?: number; maxBytes?: number },
): Promise<SentWebhook> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { status: null, excerpt: null, error: "invalid URL", durationMs: 0 };
  }
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && isBlockedAddress(host)) {
    return { status: null, excerpt: null, error: new BlockedAddressError(host, host).message, durationMs: 0 };
  }
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<SentWebhook>((resolve) => {
    const request = send(
      target,
      {
        method: "POST",
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < maxBytes) chunks.push(chunk.subarray(0, maxBytes - size));
          size += chunk.length;
          if (size >= maxBytes) response.destroy();
        });
        const done = () =>
          resolve({
            status: response.statusCode ?? null,
            excerpt: Buffer.concat(chunks).toString("utf8").slice(0, 500),
            error: null,
            durationMs: elapsed(),
          });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    request.on("error", (error) =>
      resolve({ status: null, excerpt: null, error: error.message.slice(0, 300), durationMs: elapsed() }),
    );
    request.end(body);
  });
}
