import { z } from "zod";
import { API_SCOPES, type ApiScope } from "../../lib/api-scopes.ts";
import { endOfDayIn } from "../../lib/time-zones.ts";
import { API_KEY_LIMITS, API_KEY_MESSAGES as M } from "./api-key-form.ts";
import type { ApiKeyInput } from "./api-keys.server.ts";

const text = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim());

/**
 * The API keys page's forms: a new key (a name, its kind, a secret key's scopes — at least one —
 * and an optional last day, through which it works on the shop's clocks), or revoking one by id.
 */
export function apiKeyFormSchema({ timeZone, now = new Date() }: { timeZone: string; now?: Date }) {
  return z.discriminatedUnion("intent", [
    z
      .object({
        intent: z.literal("create"),
        name: text().pipe(z.string().min(1, M.name).max(API_KEY_LIMITS.nameMax, M.name)),
        kind: z.enum(["secret", "publishable"]),
        scopes: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
          .pipe(z.array(z.enum(API_SCOPES as [ApiScope, ...ApiScope[]])).max(API_SCOPES.length)),
        expiresOn: text().pipe(
          z.string().transform((day, ctx) => {
            if (day === "") return null;
            const at = endOfDayIn(day, timeZone);
            if (!at || Date.parse(at) <= now.getTime()) {
              ctx.addIssue({ code: "custom", message: M.expiresOn });
              return z.NEVER;
            }
            return new Date(at);
          }),
        ),
      })
      .superRefine((form, ctx) => {
        if (form.kind === "secret" && form.scopes.length === 0) {
          ctx.addIssue({ code: "custom", path: ["scopes"], message: M.scopes });
        }
      })
      .transform((form): { intent: "create"; key: ApiKeyInput } => ({
        intent: "create",
        key: {
          name: form.name,
          kind: form.kind,
          scopes: form.kind === "secret" ? form.scopes : [],
          expiresAt: form.expiresOn,
        },
      })),
    z.object({
      intent: z.literal("revoke"),
      id: z.coerce.number().int().positive(),
      confirm: z.string().optional(),
    }),
  ]);
}
