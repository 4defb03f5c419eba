import type { Database } from "../../db/database.server.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import type { Mailer } from "../mail/mail-message.ts";
import type { Auth } from "./auth.server.ts";
import { type AuthSession, authHeaders, sessionCookiesOf } from "./auth-session.ts";

/**
 * Changing the e-mail address is confirmed by a link sent to the new address (Better Auth's
 * change-email flow, its token a signed JWT bound to the user and to the current address, valid
 * for an hour). The link goes to our own /account/confirm-email page, which asks for one click
 * (a POST: mail scanners that fetch links change nothing).
 */

/**
 * Queues the link's e-mail (after the answer: the request's timing must not tell free from taken),
 * naming the shop as it is named when the e-mail is written.
 */
export function queueEmailChangeLink(
  mailer: Mailer,
  shop: () => Promise<{ shopName: string; publicUrl: string }>,
  { newEmail, name, token }: { newEmail: string; name: string; token: string },
) {
  runAfterResponse("email-change-link", async () => {
    const env = await shop();
    const link = new URL(
      `/account/confirm-email?token=${encodeURIComponent(token)}`,
      env.publicUrl,
    ).toString();
    await mailer.send({
      to: newEmail,
      subject: `Confirm your new ${env.shopName} e-mail address`,
      text: [
        `Hello ${name},`,
        "",
        `Someone (hopefully you) asked to make ${newEmail} the e-mail address of their ${env.shopName} account.`,
        `To confirm, open this link within the next hour: ${link}`,
        "",
        "If you did not ask for this, ignore this e-mail: nothing changes.",
        "",
        `— ${env.shopName}`,
      ].join("\n"),
    });
  });
}

export type EmailChangeRefusal = { code: "invalid" | "other-account" | "taken" };

/** Better Auth's error code ("TOKEN_EXPIRED", …) of a refused API call, if it has one. */
function errorCode(error: unknown): string | undefined {
  const body = (error as { body?: { code?: unknown } } | null)?.body;
  return typeof body?.code === "string" ? body.code : undefined;
}

/** The `updateTo` of a token Better Auth has already verified (read, not checked, here). */
function newAddressOf(token: string): string | null {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    const updateTo = (payload as { updateTo?: unknown }).updateTo;
    return typeof updateTo === "string" ? updateTo : null;
  } catch {
    return null;
  }
}

/**
 * Opens a change-email link (as the browser's `session`, if signed in): the address changes (the session cookie is refreshed when the owner
 * is signed in here). An expired, used or forged link is `invalid` (a used one no longer matches
 * the account's current address); a browser signed in as someone else gets `other-account`; an
 * address another account took meanwhile is `taken` — only the owner of that address sees this.
 */
export async function confirmEmailChange(
  deps: { auth: Auth; db: Database },
  token: string,
  session: AuthSession,
): Promise<Result<{ sessionCookies: string[] }, EmailChangeRefusal>> {
  if (token === "" || token.length > 2_000) return fail({ code: "invalid" });
  try {
    const { headers } = await deps.auth.api.verifyEmail({
      query: { token },
      headers: authHeaders(session),
      returnHeaders: true,
    });
    return ok({ sessionCookies: sessionCookiesOf(headers) });
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_USER") return fail({ code: "other-account" });
    if (code !== undefined) return fail({ code: "invalid" });
    // not Better Auth's refusal: the token was good and the update failed — the unique e-mail?
    const address = newAddressOf(token);
    if (address) {
      const owner = await deps.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", address)
        .executeTakeFirst();
      if (owner) return fail({ code: "taken" });
    }
    throw error;
  }
}
