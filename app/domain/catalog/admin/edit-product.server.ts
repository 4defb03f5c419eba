import { z } from "zod";
import type { FileStore } from "../../../adapters/files/file-store.ts";
import type { Database } from "../../../db/database.server.ts";
import { fail, type Result } from "../../../lib/result.ts";
import type { Actor } from "../../audit/audit-log.server.ts";
import { checkImageUploads, type ImagesRefusal } from "./add-product.server.ts";
import { addImages, type Upload } from "./product-images.server.ts";

export const EDIT_MESSAGES = {
  updated: "Product updated",
  stockUpdated: "Stock updated",
  stockInvalid: "Enter a whole number to add (or a negative one to remove), for example 5 or -2.",
  stockNegative: "Stock cannot go below 0.",
  stockPerVariant: "This product comes in several variants: change the stock of each variant.",
  pricePerVariant: "This product comes in several variants: change the price of each variant.",
  weightPerVariant: "This product comes in several variants: set the weight of each variant.",
  variantDeleted: "Variant deleted",
  variantArchived: "Variant archived (its orders keep it)",
  lastVariant: "A product needs at least one variant.",
  removeUnconfirmed: "Please confirm removing the variant.",
  imagesAdded: "Images added",
  imageMoved: "Image moved",
  imageRemoved: "Image removed",
  lastImage: "A product needs at least one image.",
  notFound: "This product no longer exists.",
  badRequest: "Unknown action.",
} as const;

/** The edit page's forms, one intent each: the details, stock, and the image gallery. */
export const EDIT_INTENTS = [
  "update",
  "stock",
  "remove-variant",
  "options",
  "variants",
  "bulk-variants",
  "add-images",
  "move-image",
  "remove-image",
] as const;
export type EditIntent = (typeof EDIT_INTENTS)[number];

/** Which of the page's forms was posted, read as the form's own schema then reads it. */
export const editIntentSchema = z.object({ intent: z.enum(EDIT_INTENTS) });

/** The stock form: a change (not a new level) such as 5 or -2, never 0. */
export const stockChangeSchema = z.object({
  delta: z
    .string({ error: EDIT_MESSAGES.stockInvalid })
    .trim()
    .regex(/^[+-]?\d{1,7}$/, EDIT_MESSAGES.stockInvalid)
    .transform(Number)
    .refine((delta) => delta !== 0, EDIT_MESSAGES.stockInvalid),
});

/** Removing a variant (confirmed first: lib/confirm.ts). */
export const variantRemovalSchema = z.object({
  variantId: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .transform(Number),
  /** the confirm step's field (lib/confirm.ts): removing only from there */
  confirm: z.string().optional(),
});

/** Move an image a place up or down, or remove it. */
export const imageActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("move-image"),
    imageId: z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
    direction: z.enum(["up", "down"]),
  }),
  z.object({
    intent: z.literal("remove-image"),
    imageId: z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  }),
]);

/** Adds images at the end of a product's gallery: checked by content, stored, or nothing. */
export async function addProductImages(
  deps: { db: Database; files: FileStore; log?: (message: string, detail: Record<string, unknown>) => void },
  { id, uploads, actor }: { id: number; uploads: Upload[]; actor: Actor },
): Promise<Result<void, ImagesRefusal | { code: "not-found" } | { code: "not-an-image"; detail: string }>> {
  const checked = checkImageUploads(uploads);
  if (!checked.ok) return checked;
  const result = await addImages(deps, { id, uploads, actor });
  if (result.ok) return result;
  const error = result.error;
  switch (error.code) {
    case "not-found":
      return fail({ code: "not-found" });
    case "rejected-type":
      // passed the content check, but its decoder says otherwise
      return fail({ code: "not-an-image", detail: error.detail });
    case "upload-failed":
      return fail({ code: "upload-failed", detail: error.detail });
    case "failed":
      return fail({ code: "failed" });
  }
}
