import { z } from "zod";
import { BACKUP_LIMITS, BACKUP_MESSAGES as M } from "./backup-form.ts";

/**
 * The backup page's forms (parsed by the route through Conform): "save" the schedule, or "run" a
 * backup now. Server only, like the other admin forms' schemas.
 */
const text = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim());

const destination = text().refine((value) => {
  if (value === "") return true;
  if (value.length > BACKUP_LIMITS.destination || /[\p{Cc}]/u.test(value)) return false;
  if (value.startsWith("s3://")) return true; // the bucket and prefix rules are the domain's (backupLocation)
  return value.startsWith("/") && !value.split("/").includes("..");
}, M.destination);

export const backupActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save"),
    /** a checkbox: "on" when ticked, absent otherwise */
    enabled: z
      .string()
      .optional()
      .transform((value) => value === "on"),
    hour: text().pipe(
      z
        .string()
        .regex(/^\d{1,2}$/, M.hour)
        .transform(Number)
        .refine((h) => h <= 23, M.hour),
    ),
    keep: text().pipe(
      z
        .string()
        .regex(/^\d{1,4}$/, M.keep)
        .transform(Number)
        .refine((n) => n >= 1 && n <= BACKUP_LIMITS.keep, M.keep),
    ),
    destination,
  }),
  z.object({ intent: z.literal("run") }),
]);
