/**
 * Customer groups' words and shapes (Admin → Customer groups, issue 31, decision 034): a group's
 * limits, its rule, the messages its pages show. Pure (the pages' client code imports it); the rules
 * that read the database are customer-groups.server.ts's (and its members' and rules' modules), the forms' schemas group-schema.server.ts's.
 */
import { type Currency, formatMoney } from "../../lib/money.ts";

export const GROUP_LIMITS = {
  name: 80,
  description: 500,
  /** e-mails typed at once in "Add customers" */
  emails: 100,
  /** the largest "spent over" amount, in the currency's units */
  amount: 10_000_000,
} as const;

/** A group's rule: its members with source 'rule' are the customers it holds for. */
export type GroupRule = { type: "spent-over"; cents: number };

export type GroupMemberSource = "hand" | "csv" | "rule";

export const SOURCE_LABELS: Record<GroupMemberSource, string> = {
  hand: "Added by hand",
  csv: "Imported (CSV)",
  rule: "By the rule",
};

/** "Customers who spent over $500.00 (paid orders, net of refunds)". */
export function ruleText(rule: GroupRule | null, currency: Currency): string {
  if (!rule) return "No rule: members are added by hand or by CSV.";
  return `Customers who spent over ${formatMoney(rule.cents, currency)} (placed orders, net of refunds)`;
}

/** One line of a CSV import that named no customer (its 1-based line number). */
export interface CsvLineProblem {
  line: number;
  message: string;
}

export const GROUP_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  name: `Enter a name of 1 to ${GROUP_LIMITS.name} characters.`,
  description: `Keep the description under ${GROUP_LIMITS.description} characters.`,
  nameTaken: (name: string) => `Another group is already called ${name}.`,
  spentOver: "Enter an amount like 500 or 499.99, or leave it empty for no rule.",
  emails: `Enter 1 to ${GROUP_LIMITS.emails} e-mail addresses, separated by commas or new lines.`,
  unknownEmails: (emails: readonly string[]) =>
    emails.length === 1
      ? `No customer has the e-mail ${emails[0]}.`
      : `No customer has these e-mails: ${emails.join(", ")}.`,
  notFound: "This group no longer exists.",
  forbidden: "Your role may not manage customer groups.",
  created: (name: string) => `Group ${name} created`,
  saved: (name: string) => `Group ${name} saved`,
  unchanged: "Nothing changed",
  deleted: (name: string) => `Group ${name} deleted`,
  deleteUnconfirmed: "The group was not deleted: confirm with “Yes, delete group” to delete it.",
  added: (count: number) =>
    count === 0 ? "They are already members" : `${count} ${count === 1 ? "customer" : "customers"} added`,
  removed: (email: string) => `${email} removed from the group`,
  refreshed: (added: number, removed: number) => `Rule applied: ${added} added, ${removed} removed`,
  imported: (added: number, problems: number) =>
    `${added} ${added === 1 ? "customer" : "customers"} added from the file` +
    (problems > 0 ? `; ${problems} ${problems === 1 ? "line names" : "lines name"} no customer` : ""),
  noFile: "Choose a CSV file of e-mail addresses.",
  tooLarge: "The file is too large: at most 5 MB.",
  unreadableUpload: "The upload could not be read: choose the file again.",
  notText: "The file is not UTF-8 text: save it as CSV (UTF-8).",
  emptyFile: "The file holds no e-mail addresses.",
  unknownLine: (email: string) => `no customer has the e-mail ${email}`,
  notEmail: (text: string) => `“${text.slice(0, 60)}” is not an e-mail address`,
  noRule: "This group has no rule to apply.",
  inUse: (promotions: readonly string[]) =>
    `The group was not deleted: ${promotions.length === 1 ? "promotion" : "promotions"} ${promotions.join(", ")} ${promotions.length === 1 ? "is" : "are"} for this group. Take it out of their conditions first.`,
} as const;
