import { z } from "zod";

export const TOAST_LIFETIME_MS = 5000;

export const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error", "warning", "info"]),
  message: z.string().max(500),
});

export type Toast = z.infer<typeof toastSchema>;
export type ToastType = Toast["type"];
