import { type Kysely, sql } from "kysely";

/**
 * Staff roles (issue 20): owner, admin and staff replace the one `admin` role. A shop that has
 * admins and no owner makes its first admin (the oldest account) the owner, so someone can still
 * reach the settings and the staff page; the other admins keep `admin`, which loses only those two.
 * Invitations the owner sent and that were not taken up yet (the invitee has not signed in) are
 * listed in `staff_invitations`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("staff_invitations")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("invited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`
    update users set role = 'owner'
    where id = (select id from users where role = 'admin' order by created_at, id limit 1)
      and not exists (select 1 from users where role = 'owner')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("staff_invitations").execute();
  await sql`update users set role = 'admin' where role in ('owner', 'staff')`.execute(db);
}
