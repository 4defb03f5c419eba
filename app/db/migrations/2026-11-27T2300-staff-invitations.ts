import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Staff invitations need proof of the address (decision 024). An invitation becomes its own row:
 * the address, the role it gives, a SHA-256 of its link's token (never the token), who sent it,
 * when, and when it expires; one per address. No account is made or changed until the link is
 * used.
 *
 * The old invitations (migration 1600) were accounts made with the role already set and a Better
 * Auth password-reset token as the link, listed in `staff_invitations` until the invitee first
 * signed in. Those invitees have never signed in: they go back to `customer`, their sessions and
 * `reset-password:` tokens are deleted (the links stop working) and the owner invites them again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from verifications
    where identifier like 'reset-password:%'
      and value in (select user_id from staff_invitations)
  `.execute(db);
  await sql`delete from sessions where user_id in (select user_id from staff_invitations)`.execute(db);
  await sql`
    update users set role = 'customer'
    where id in (select user_id from staff_invitations)
      and role in ('owner', 'admin', 'staff')
  `.execute(db);
  await db.schema.dropTable("staff_invitations").execute();

  await db.schema
    .createTable("staff_invitations")
    .addColumn("id", engineOf(db) === "postgres" ? "serial" : "integer", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'admin', 'staff')`))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

/** Back to migration 1600's table, empty (the open invitations are dropped: invite again). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("staff_invitations").execute();
  await db.schema
    .createTable("staff_invitations")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("invited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}
