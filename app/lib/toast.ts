/** Toast types and lifetime, shared by server and browser. Kept free of zod so the client bundle stays small. */
export const TOAST_LIFETIME_MS = 5000;

export const TOAST_TYPES = ["success", "error", "warning", "info"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export interface Toast {
  id: string;
  type: ToastType;
  message: string;
}
