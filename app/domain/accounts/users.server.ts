import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { ROLES, type Role } from "../../lib/staff-roles.ts";

const userInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("not a valid e-mail address")),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
  name: z.string().trim().max(100).optional(),
});

export type UserInput = z.input<typeof userInput>;

export type CreateUserResult = Result<
  { created: boolean; userId: string; email: string; role: Role },
  /** the input broke the rules: one line per problem ("password: must be at least 8 characters") */
  { code: "invalid"; problems: string[] }
>;

/**
 * Creates a user with this e-mail, password and role, or — when the e-mail exists — sets its
 * password and role (promote or demote). For operators (the CLI) and the demo seed only: the
 * role never comes from a visitor.
 */
export async function createOrUpdateUser(
  { auth, db }: { auth: Auth; db: Database },
  input: UserInput,
): Promise<CreateUserResult> {
  const parsed = userInput.safeParse(input);
  if (!parsed.success) {
    return fail({
      code: "invalid",
      problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    });
  }
  const { email, password, role } = parsed.data;
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  let userId: string;
  if (existing) {
    userId = existing.id;
    const context = await auth.$context;
    await context.internalAdapter.updatePassword(userId, await context.password.hash(password));
  } else {
    const name = parsed.data.name || email.split("@")[0] || email;
    const { user } = await auth.api.signUpEmail({ body: { name, email, password } });
    userId = user.id;
  }
  await db.updateTable("users").set({ role }).where("id", "=", userId).execute();
  return ok({ created: !existing, userId, email, role });
}

/** The demo shop's owner (every permission), for local use only (README). */
export const DEMO_ADMIN = {
  email: "admin@cartwheel.example",
  password: "cartwheel-admin",
  name: "Shop Admin",
};
