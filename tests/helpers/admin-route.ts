import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RouterContextProvider } from "react-router";
import type { Auth } from "../../app/adapters/auth/auth.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import { assembleServices } from "../../app/composition.server.ts";
import { servicesContext } from "../../app/context.ts";
import type { Database } from "../../app/db/database.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { getToast } from "../../app/http/toast.server.ts";
import { requestContext } from "./route-harness.ts";

/**
 * Calling an admin route's action (its request carrying ADMIN_COOKIE) on a test's own database (either engine) and file store, as a
 * signed-in admin: the context carries the app's services assembled over the test's database and
 * file store (mail into a scratch directory), with an auth that knows only that admin (any request
 * with a session cookie is theirs), and `log` if the test listens for failed uploads. The answer is read back as the page would show it.
 */
export const ADMIN_COOKIE = "cartwheel.session_token=admin-test";

export function adminContext(
  services: {
    db: Database;
    files: FileStore;
    log?: (message: string, detail: Record<string, unknown>) => void;
  },
  admin: { id: string; email: string },
): RouterContextProvider {
  const auth = {
    api: {
      getSession: async () => ({ user: { id: admin.id, name: "Admin", email: admin.email, role: "admin" } }),
    },
  };
  const config = parseEnv({ ...process.env, SEED_ON_EMPTY: "false" });
  const mailDir = join(tmpdir(), "cartwheel-admin-route-mail"); // written only if a route sends mail
  const app = assembleServices(config, {
    db: services.db,
    files: services.files,
    mail: createMailer(`file:${mailDir}`, { from: "shop@example.com" }),
  });
  const context = requestContext();
  context.set(servicesContext, { ...app, ...services, auth: auth as unknown as Auth });
  return context;
}

/** What an admin form's action answered, as the page shows it. */
export type AdminAnswer =
  | { ok: true; status: number; location: string | null; message: string | undefined }
  | {
      ok: false;
      status: number;
      /** the form's message */
      message: string | undefined;
      /** the first message beside each field */
      fieldErrors: Record<string, string | undefined>;
      /** the values the form shows again */
      values: Record<string, unknown>;
      details: string[];
      intent?: string | null;
    };

type Action = (args: never) => unknown;

export async function adminAction(
  action: Action,
  request: Request,
  context: RouterContextProvider,
  params: Record<string, string> = {},
): Promise<AdminAnswer> {
  const answer = await (action as (args: unknown) => Promise<unknown>)({ request, params, context });
  if (answer instanceof Response) {
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("cw_toast="));
    const { toast } = cookie
      ? await getToast(new Request("http://shop.test/", { headers: { Cookie: cookie.split(";")[0]! } }))
      : { toast: null };
    return {
      ok: true,
      status: answer.status,
      location: answer.headers.get("Location"),
      message: toast?.message,
    };
  }
  const { data, init } = answer as {
    data: {
      intent?: string | null;
      result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> | null };
      details?: string[];
    };
    init: { status?: number } | null;
  };
  const { "": form, ...fields } = data.result.error ?? {};
  return {
    ok: false,
    status: init?.status ?? 200,
    message: form?.[0],
    fieldErrors: Object.fromEntries(Object.entries(fields).map(([name, messages]) => [name, messages?.[0]])),
    values: data.result.initialValue ?? {},
    details: data.details ?? [],
    ...("intent" in data ? { intent: data.intent } : {}),
  };
}
