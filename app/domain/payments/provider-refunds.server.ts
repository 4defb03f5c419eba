import { logger } from "../../adapters/logger.server.ts";
import { findRefundByKey, refundKeyOf } from "./idempotency.server.ts";
import { notify, type RefundServices, settleRefund } from "./refund-settlement.server.ts";

/** Thrown inside the transaction when the refund would pass what was paid: rolled back. */
class PastWhatWasPaid extends Error {}

/**
 * A refund made at the provider rather than through the shop (its dashboard): recorded once by the
 * provider's refund id, succeeded at once (the money has moved), never past what was paid; the
 * order's status follows where its transition table allows. The customer is e-mailed.
 */
export async function recordProviderRefund(
  services: RefundServices,
  {
    orderId,
    paymentId,
    providerRefund,
    now = new Date(),
  }: { orderId: number; paymentId: string; providerRefund: { id: string; amountCents: number }; now?: Date },
): Promise<boolean> {
  const key = refundKeyOf.provider(providerRefund.id);
  if (await findRefundByKey(services.db, key)) return false;
  const at = now.toISOString();
  const settled = await services.db
    .transaction()
    .execute(async (trx) => {
      const inserted = await trx
        .insertInto("orderRefunds")
        .values({
          orderId,
          idempotencyKey: key,
          amountCents: providerRefund.amountCents,
          reason: "Refunded at the payment provider",
          restocked: 0,
          gatewayRefundId: "",
          actor: "payment-provider",
          createdAt: at,
          status: "pending",
          kind: "provider",
          returnId: null,
          paymentId,
        })
        .onConflict((oc) => oc.column("idempotencyKey").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!inserted) return null;
      const promised = await trx
        .updateTable("orders")
        .set((eb) => ({ refundPendingCents: eb("refundPendingCents", "+", providerRefund.amountCents) }))
        .where("id", "=", orderId)
        .where((eb) => eb(eb("refundedCents", "+", providerRefund.amountCents), "<=", eb.ref("totalCents")))
        .executeTakeFirst();
      if (Number(promised.numUpdatedRows) !== 1) {
        // the books would pass what was paid: nothing is recorded, an operator must look
        logger.error({ orderId, refund: providerRefund.id }, "a provider refund would pass what was paid");
        throw new PastWhatWasPaid();
      }
      return settleRefund(trx, inserted.id, { status: "succeeded", gatewayRefundId: providerRefund.id }, now);
    })
    .catch((error: unknown) => {
      if (error instanceof PastWhatWasPaid) return null;
      throw error;
    });
  if (!settled) return false;
  await notify(services, settled).catch((error: unknown) =>
    logger.warn({ err: error, refund: providerRefund.id }, "refund e-mail failed"),
  );
  return true;
}
