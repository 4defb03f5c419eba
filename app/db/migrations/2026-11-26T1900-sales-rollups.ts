import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The dashboard's rollups (issue 20, decision 021): sales per closed UTC day, and per product per
 * day and per month, filled on first use (domain/reports/sales-rollups.server.ts). A change to an
 * order or its lines deletes the rollups of the order's day and month (these triggers), so the
 * next read computes them again from the orders: a rollup is either right or absent. Today is never
 * rolled up (read live), so a checkout's trigger finds nothing to delete.
 */
const TABLES = `
  create table sales_days (
    day text primary key,
    revenue_cents bigint not null,
    refunds_cents bigint not null,
    orders integer not null,
    units integer not null
  );
  create table sales_product_days (
    day text not null,
    product_key text not null,
    product_id integer,
    name text not null,
    units integer not null,
    revenue_cents bigint not null,
    primary key (day, product_key)
  );
  create table sales_months (month text primary key);
  create table sales_product_months (
    month text not null,
    product_key text not null,
    product_id integer,
    name text not null,
    units integer not null,
    revenue_cents bigint not null,
    primary key (month, product_key)
  )`;

/** The statements that forget a day (and its month), given an expression for the order's created_at. */
const forget = (createdAt: string) => `
  delete from sales_days where day = substr(${createdAt}, 1, 10);
  delete from sales_product_days where day = substr(${createdAt}, 1, 10);
  delete from sales_months where month = substr(${createdAt}, 1, 7);
  delete from sales_product_months where month = substr(${createdAt}, 1, 7);`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of TABLES.split(";")) await sql.raw(statement).execute(db);
  if (engineOf(db) === "postgres") {
    await sql
      .raw(`create function sales_rollups_forget_order() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then ${forget("old.created_at")} end if;
          if tg_op in ('UPDATE', 'INSERT') then ${forget("new.created_at")} end if;
          return null;
        end $$`)
      .execute(db);
    await sql
      .raw(`create trigger orders_sales_rollups
        after insert or delete or update of status, total_cents, refunded_cents, created_at on orders
        for each row execute function sales_rollups_forget_order()`)
      .execute(db);
    await sql
      .raw(`create function sales_rollups_forget_item() returns trigger language plpgsql as $$
        declare placed text;
        begin
          select created_at into placed from orders
            where id = (case when tg_op = 'DELETE' then old.order_id else new.order_id end);
          if placed is not null then ${forget("placed")} end if;
          return null;
        end $$`)
      .execute(db);
    await sql
      .raw(`create trigger order_items_sales_rollups
        after insert or delete or update of quantity, line_total_cents, product_id on order_items
        for each row execute function sales_rollups_forget_item()`)
      .execute(db);
  } else {
    const item = (row: "new" | "old") => forget(`(select created_at from orders where id = ${row}.order_id)`);
    const triggers = [
      `create trigger orders_sales_insert after insert on orders begin ${forget("new.created_at")} end`,
      `create trigger orders_sales_delete after delete on orders begin ${forget("old.created_at")} end`,
      `create trigger orders_sales_update after update of status, total_cents, refunded_cents, created_at on orders
        begin ${forget("old.created_at")} ${forget("new.created_at")} end`,
      `create trigger order_items_sales_insert after insert on order_items begin ${item("new")} end`,
      `create trigger order_items_sales_delete after delete on order_items begin ${item("old")} end`,
      `create trigger order_items_sales_update after update of quantity, line_total_cents, product_id on order_items
        begin ${item("old")} ${item("new")} end`,
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists orders_sales_rollups on orders`.execute(db);
    await sql`drop trigger if exists order_items_sales_rollups on order_items`.execute(db);
    await sql`drop function if exists sales_rollups_forget_order()`.execute(db);
    await sql`drop function if exists sales_rollups_forget_item()`.execute(db);
  } else {
    for (const name of [
      "orders_sales_insert",
      "orders_sales_delete",
      "orders_sales_update",
      "order_items_sales_insert",
      "order_items_sales_delete",
      "order_items_sales_update",
    ]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  for (const table of ["sales_product_months", "sales_months", "sales_product_days", "sales_days"]) {
    await sql`drop table if exists ${sql.id(table)}`.execute(db);
  }
}
