import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled input with its message beside it (aria-invalid + aria-describedby when wrong). */
export function FormField({
  id,
  label,
  error,
  hint,
  className = "",
  children,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children?: ReactNode;
}) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
        {label}
        {input.required && <span aria-hidden="true"> *</span>}
      </label>
      {children ?? (
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={`mt-1 block w-full scroll-mt-40 rounded-lg border px-3 py-2 text-gray-900 ${
            error ? "border-red-700 bg-red-50" : "border-gray-400"
          }`}
          {...input}
        />
      )}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
