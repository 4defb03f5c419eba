import { z } from "zod";
import { toCents } from "../../lib/money.ts";
import { postedText as text } from "../../lib/posted-values.ts";
import { GROUP_LIMITS as LIMITS, GROUP_MESSAGES as M } from "./group-form.ts";

/**
 * The customer-group forms' zod schemas (parsed by the routes through Conform, decision 017). Each
 * refusal is an issue at its field; rules that need the database (a name taken, an e-mail that is
 * no customer's) are the domain's. Server only, like the other forms' schemas.
 */

type Refusals = [string, string][];

function refuseAll(ctx: z.RefinementCtx, refusals: Refusals) {
  for (const [field, message] of refusals) ctx.addIssue({ code: "custom", path: [field], message });
  return z.NEVER;
}

function checkDetails(form: Record<string, unknown>, refusals: Refusals) {
  const name = text(form.name).replace(/\s+/g, " ");
  if (name.length < 1 || name.length > LIMITS.name) refusals.push(["name", M.name]);
  const description = text(form.description);
  if (description.length > LIMITS.description) refusals.push(["description", M.description]);
  return { name, description };
}

/** "500", "$499.99", "1,000" → cents; null unless from 0.00 to the largest amount. */
export function spentOverCents(typed: string): number | null {
  const amount = typed.replace(/^[$€£]\s*/, "").replaceAll(",", "");
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(amount)) return null;
  const cents = toCents(amount);
  return cents <= LIMITS.amount * 100 ? cents : null;
}

/** The e-mails typed into "Add customers": separated by commas, semicolons, spaces or new lines. */
export function typedEmails(typed: string): string[] | null {
  const emails = [...new Set(typed.split(/[\s,;]+/).filter((email) => email !== ""))];
  if (emails.length < 1 || emails.length > LIMITS.emails) return null;
  return emails.every((email) => /^[^\s@]{1,64}@[^\s@]{1,189}$/.test(email) && email.length <= 254)
    ? emails
    : null;
}

/** The list page's form: a new group's name and description. */
export const newGroupSchema = z.looseObject({}).transform((form, ctx) => {
  const refusals: Refusals = [];
  const details = checkDetails(form, refusals);
  return refusals.length > 0 ? refuseAll(ctx, refusals) : details;
});

/**
 * The group page's forms, told apart by `intent`: `save` (name, description, the rule's amount —
 * empty: no rule), `add` (e-mails), `remove` (a member's account id), `refresh` (apply the rule
 * now), `delete` (confirmed). The CSV import is read as a stream by its own route.
 */
export const groupEditSchema = z.looseObject({}).transform((form, ctx) => {
  const intent = text(form.intent);
  const refusals: Refusals = [];
  switch (intent) {
    case "save": {
      const details = checkDetails(form, refusals);
      const typed = text(form.spentOver);
      const cents = typed === "" ? null : spentOverCents(typed);
      if (typed !== "" && cents === null) refusals.push(["spentOver", M.spentOver]);
      if (refusals.length > 0) return refuseAll(ctx, refusals);
      return {
        intent,
        ...details,
        rule: cents === null ? null : ({ type: "spent-over", cents } as const),
      } as const;
    }
    case "add": {
      const emails = typedEmails(text(form.emails));
      return emails ? ({ intent, emails } as const) : refuseAll(ctx, [["emails", M.emails]]);
    }
    case "remove": {
      const userId = text(form.userId);
      return /^[A-Za-z0-9_-]{1,100}$/.test(userId)
        ? ({ intent, userId } as const)
        : refuseAll(ctx, [["", "Unknown member."]]);
    }
    case "refresh":
      return { intent } as const;
    case "delete":
      return { intent, confirmed: text(form.confirm) === "yes" } as const;
    default:
      return refuseAll(ctx, [["", "Unknown action."]]);
  }
});
