/**
 * A shop process's webhook delivery, alone (tests/integration/webhook-delivery-processes.test.ts):
 * what the background job does every few seconds — look for work by reads, take the
 * `webhook-delivery` lease, fan out and send — in a tight loop, to receivers on 127.0.0.1 (allowed
 * as WEBHOOKS_ALLOW_PRIVATE allows it). Runs until killed, or until its stdin closes.
 *
 *   node tests/helpers/webhook-delivery-worker.ts <databaseUrl> <leaseTtlMs>
 *
 * Prints "ready" once its database is open.
 */
import { sendWebhook } from "../../app/adapters/webhooks/webhook-sender.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { deliverWebhooks, hasWebhookWork } from "../../app/domain/integrations/webhooks.server.ts";
import { withJobLease } from "../../app/jobs/job-lease.server.ts";

const [databaseUrl, ttl] = process.argv.slice(2);
const db = createDatabase(databaseUrl!, { poolSize: 4 });
let running = true;
process.stdin.on("end", () => {
  running = false;
});
process.stdin.resume();
console.log("ready");
while (running) {
  if (await hasWebhookWork(db)) {
    await withJobLease(db, "webhook-delivery", { ttlMs: Number(ttl) }, () =>
      deliverWebhooks(db, {
        send: (url, request) => sendWebhook(url, request, { allowPrivate: true, timeoutMs: 5_000 }),
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
await db.destroy();
console.log("done");
