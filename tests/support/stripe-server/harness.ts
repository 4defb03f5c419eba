import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { type StripeServerOptions, startStripeServer } from "./index.ts";

/**
 * For this folder's own tests: the server, the official SDK pointed at it, and a webhook endpoint
 * that records raw bodies. Tests reach the API only through the SDK and the pages through fetch.
 */

export const RETURN_URL = "http://shop.test/checkout/return?order=7";

export interface Received {
  body: string;
  signature: string;
}

/** A webhook endpoint: records each raw body; answers the queued statuses first, then 200. */
export async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["stripe-signature"]),
      });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startHarness(options: StripeServerOptions = {}) {
  const receiver = await startReceiver();
  const server = await startStripeServer({
    webhookUrl: receiver.url,
    webhookRetryDelaysMs: [5, 5, 5],
    ...options,
  });
  const stripe = new Stripe("sk_test_cartwheel", { ...server.stripeConfig, maxNetworkRetries: 0 });
  return {
    receiver,
    server,
    stripe,
    /** the delivered events, each verified with the SDK, whose object has this id */
    deliveredFor(objectId: string): Stripe.Event[] {
      return receiver.received
        .map((item) => stripe.webhooks.constructEvent(item.body, item.signature, server.webhookSecret))
        .filter((event) => (event.data.object as { id?: string }).id === objectId);
    },
    /** a PaymentIntent paid with pm_card_visa */
    paid(amount = 5000, metadata: Record<string, string> = {}) {
      return stripe.paymentIntents.create({
        amount,
        currency: "eur",
        metadata,
        payment_method: "pm_card_visa",
        confirm: true,
        return_url: RETURN_URL,
      });
    },
    async close() {
      await server.close();
      await receiver.close();
    },
  };
}

export async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** GET a page of the server: its HTML, its form's absolute action and hidden fields. */
export async function openForm(url: string) {
  const response = await fetch(url);
  const html = await response.text();
  const action = html.match(/<form method="post" action="([^"]+)"/)?.[1];
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
  return { response, html, action: action ? new URL(action, url).toString() : "", hidden };
}

/** POST a form as a browser without JavaScript would, without following the redirect. */
export function postForm(url: string, fields: Record<string, string>) {
  return fetch(url, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
}

/** Every visible input has an id and a <label for> naming it. */
export function unlabelledInputs(html: string): string[] {
  const inputs = [...html.matchAll(/<input ([^>]*)>/g)]
    .map((m) => m[1] as string)
    .filter((a) => !a.includes('type="hidden"'));
  return inputs.filter((attributes) => {
    const id = attributes.match(/id="([^"]+)"/)?.[1];
    return !id || !html.includes(`<label for="${id}">`);
  });
}
