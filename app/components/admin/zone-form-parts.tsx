import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

/** The zone form's small parts (zone-fields.tsx, zone-method-fields.tsx): a labelled field, notes, styles. */

export const INPUT = "mt-1 block w-full rounded-lg border px-3 py-2 text-gray-900";
export const SMALL_BUTTON =
  "rounded-lg border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100";
export const REMOVE_BUTTON =
  "rounded-lg border border-red-700 bg-white px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50";

/** A list button's props (Conform's insert or remove intent: a submit button, so it works without JavaScript). */
export type ButtonProps = { name: string; value: string; form: string; formNoValidate: boolean };

export const asList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : typeof value === "string"
      ? [value]
      : [];
export const asText = (value: unknown): string => (typeof value === "string" ? value : "");

/** A labelled input with its hint or message below it (the label may hold visually hidden context). */
export function Field({
  field,
  id,
  label,
  hint,
  required = false,
  inputMode,
  maxLength,
  className = "",
}: {
  field: FieldMetadata<string>;
  id: string;
  label: ReactNode;
  hint?: string;
  required?: boolean;
  inputMode?: "decimal" | "numeric" | "text";
  maxLength?: number;
  className?: string;
}) {
  const error = field.errors?.[0];
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`min-w-0 ${className}`}>
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        key={field.key}
        id={id}
        name={field.name}
        type="text"
        inputMode={inputMode}
        maxLength={maxLength}
        required={required}
        defaultValue={asText(field.initialValue)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${INPUT} ${error ? "border-red-700 bg-red-50" : "border-gray-400"}`}
      />
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}

/** A field's message (`${id}-error`) when it has one, else its hint (`${id}-hint`). */
export function FieldNote({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  if (error) {
    return (
      <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={`${id}-hint`} className="mt-1 text-sm text-gray-600">
      {hint}
    </p>
  ) : null;
}

/** A list's own messages (e.g. "Add at least one band."; a country another zone holds), beside the list. */
export function ListError({ id, errors }: { id: string; errors?: string[] }) {
  return errors && errors.length > 0 ? (
    <div id={id} className="space-y-1 text-sm font-medium text-red-700">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  ) : null;
}
