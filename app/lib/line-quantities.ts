import { z } from "zod";

/**
 * A form's units per order line, posted as `qty.<line id>` (the refund form, the return form):
 * each line once, its units summed — `qty.2` and `qty.02` name the same line — lines of 0 left
 * out, in line order. The domain sums per line again (a caller may not come through a form).
 */
export const lineQuantitiesSchema = z
  .record(z.string().regex(/^\d{1,12}$/), z.coerce.number().int().min(0).max(100_000))
  .optional()
  .transform((record) => {
    const units = new Map<number, number>();
    for (const [line, quantity] of Object.entries(record ?? {})) {
      const itemId = Number(line);
      if (quantity > 0) units.set(itemId, (units.get(itemId) ?? 0) + quantity);
    }
    return [...units].sort(([a], [b]) => a - b).map(([itemId, quantity]) => ({ itemId, quantity }));
  });
