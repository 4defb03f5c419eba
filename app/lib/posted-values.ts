/**
 * A form's posted values as Conform reads them (nested names become objects, repeated names lists),
 * read by the schemas that check a whole form at once (zone-schema, promotion-schema): each helper
 * takes whatever was posted and gives the shape the rule expects, anything else as empty.
 */

/** A posted text (a repeated name or an object is no text): trimmed. */
export const postedText = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** A posted list: a repeated name, one value, or none. */
export const postedList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === "" ? [] : [value];

/** A posted group of fields (`target.refs`, `target.brands` → `target`), or none. */
export const postedRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
