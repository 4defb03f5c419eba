import { type Kysely, sql } from "kysely";

/**
 * The refunds the shop made before refunds were recorded as a workflow (migration 2100), for which
 * the books held no refund row (found by the upgrade fixtures, decision 029):
 * - cancelling a paid order refunded what was left of it through the gateway and set the order's
 *   refunded total, without a refund row: each such order gets a `cancel` refund, succeeded, of
 *   its refunded total less the refunds it has;
 * - a payment that went through for an order given up meanwhile was paid back (the test gateway's
 *   refund key `<order key>:lapsed`) without anything on the order: each gets a `lapsed` refund of
 *   what the gateway paid back, and its refunded total says so (a shop on Stripe then had no record
 *   of those either; they show in Stripe's dashboard, not here).
 * So for every order, what the gateway paid back equals what its refunds say (decision 025).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into order_refunds
      (order_id, idempotency_key, amount_cents, reason, restocked, includes_shipping,
       gateway_refund_id, actor, created_at, status, kind, return_id, payment_id, failure, settled_at)
    select orders.id, 'cancel:' || orders.idempotency_key,
           orders.refunded_cents - coalesce(booked.total, 0), 'Order cancelled', 0, 0,
           '', 'system', orders.updated_at, 'succeeded', 'cancel', null, orders.payment_reference, null,
           orders.updated_at
    from orders
    left join (select order_id, sum(amount_cents) as total from order_refunds
               where status = 'succeeded' group by order_id) as booked on booked.order_id = orders.id
    where orders.status = 'cancelled'
      and orders.refunded_cents > coalesce(booked.total, 0)
      and not exists (select 1 from order_refunds taken
                      where taken.idempotency_key = 'cancel:' || orders.idempotency_key)`.execute(db);

  await sql`insert into order_refunds
      (order_id, idempotency_key, amount_cents, reason, restocked, includes_shipping,
       gateway_refund_id, actor, created_at, status, kind, return_id, payment_id, failure, settled_at)
    select orders.id, 'lapsed:' || orders.idempotency_key, paid_back.amount_cents,
           'The payment arrived after the order was given up', 0, 0,
           're_test_' || paid_back.idempotency_key, 'system', paid_back.created_at, 'succeeded', 'lapsed',
           null, paid_back.authorization_id, null, paid_back.created_at
    from orders
    join test_gateway_refunds paid_back on paid_back.idempotency_key = orders.idempotency_key || ':lapsed'
    where not exists (select 1 from order_refunds taken
                      where taken.idempotency_key = 'lapsed:' || orders.idempotency_key)`.execute(db);
  await sql`update orders set refunded_cents = (
      select coalesce(sum(amount_cents), 0) from order_refunds
      where order_refunds.order_id = orders.id and order_refunds.status = 'succeeded')
    where exists (select 1 from order_refunds
                  where order_refunds.order_id = orders.id and order_refunds.kind = 'lapsed')`.execute(db);
}

export async function down(_db: Kysely<unknown>): Promise<void> {
  // the rows stand: they describe refunds that happened, and the older schema can hold them
}
