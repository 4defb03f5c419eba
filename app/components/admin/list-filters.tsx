import type { ReactNode } from "react";
import { Form } from "react-router";

/**
 * The admin lists' filter bar (orders, products, customers): a GET form of labelled fields and one
 * submit button, so a filtered list is a URL (bookmarkable, works without JavaScript). Filters the
 * bar does not show are carried as hidden fields (`keep`).
 */
export function ListFilters({
  action,
  label,
  submitLabel = "Filter",
  keep = {},
  children,
}: {
  action: string;
  label: string;
  submitLabel?: string;
  keep?: Record<string, string | null | undefined>;
  children: ReactNode;
}) {
  return (
    <Form method="get" action={action} aria-label={label} className="mt-4 flex flex-wrap items-end gap-3">
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      {children}
      <button
        type="submit"
        className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
      >
        {submitLabel}
      </button>
    </Form>
  );
}

// max-w-full: a select as wide as its longest option (an e-mail address) still fits a phone
const FIELD = "mt-1 block max-w-full rounded-lg border border-gray-400 bg-white px-3 py-2";

/** A labelled select of the filter bar; `emptyLabel` adds the "any" choice (value ""). */
export function FilterSelect<Value extends string>({
  id,
  name,
  label,
  value,
  options,
  emptyLabel,
}: {
  id: string;
  name: string;
  label: string;
  value: Value | null;
  options: readonly { value: Value; label: string }[];
  emptyLabel?: string;
}) {
  return (
    <div className="min-w-0 max-w-full">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={FIELD}>
        {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled text, search or date field of the filter bar. */
export function FilterInput({
  id,
  name,
  label,
  value,
  type = "search",
  maxLength,
}: {
  id: string;
  name: string;
  label: string;
  value: string | null;
  type?: "search" | "date";
  maxLength?: number;
}) {
  return (
    <div className="min-w-0 max-w-full">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        type={type}
        name={name}
        defaultValue={value ?? ""}
        maxLength={maxLength}
        className={FIELD}
      />
    </div>
  );
}

/** Labels by value as the options FilterSelect takes. */
export const optionsOf = <Value extends string>(values: readonly Value[], labels: Record<Value, string>) =>
  values.map((value) => ({ value, label: labels[value] }));
