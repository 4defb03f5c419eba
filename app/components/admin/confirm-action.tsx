import { type ReactNode, useRef } from "react";
import { Form, Link } from "react-router";
import { CONFIRM_FIELD, CONFIRM_VALUE } from "../../lib/confirm.ts";

const BUTTON = "inline-block rounded-lg font-semibold";

/**
 * A destructive action with a confirm step that needs no JavaScript: the action's button is the
 * toggle of a disclosure (<details>, announced as expanded/collapsed, opened with Enter or Space);
 * opened, it asks the question and offers two choices. Only "Yes, …" posts, with the confirmation
 * field the server insists on (lib/confirm.ts). The other choice closes the question (Escape does
 * too, focus back on the toggle); without JavaScript it is a link back to this page, which loads
 * with the question closed.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  keepLabel,
  keepTo,
  fields,
  size = "md",
}: {
  /** the action's button text (may hold visually hidden context) */
  label: ReactNode;
  question: ReactNode;
  confirmLabel: string;
  keepLabel: string;
  /** this page's URL: where "keep" leads without JavaScript */
  keepTo: string;
  /** the hidden fields of the action's form */
  fields: Record<string, string | number>;
  size?: "sm" | "md";
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => {
    const details = ref.current;
    if (!details) return;
    details.open = false;
    details.querySelector("summary")?.focus();
  };
  const padding = size === "sm" ? "px-3 py-1.5" : "px-4 py-2";
  return (
    <details
      ref={ref}
      className="group relative open:basis-full"
      onKeyDown={(event) => {
        if (event.key === "Escape" && ref.current?.open) {
          event.preventDefault();
          close();
        }
      }}
    >
      <summary
        className={`${BUTTON} ${padding} border border-red-700 text-red-800 hover:bg-red-50 group-open:bg-red-50`}
      >
        {label}
      </summary>
      <div className="mt-2 max-w-md rounded-lg border border-red-300 bg-red-50 p-4 text-left text-sm text-gray-900">
        <p className="break-words">{question}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Form method="post">
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
            <button type="submit" className={`${BUTTON} ${padding} bg-red-700 text-white hover:bg-red-800`}>
              {confirmLabel}
            </button>
          </Form>
          <Link
            to={keepTo}
            replace
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              close();
            }}
            className={`${BUTTON} ${padding} border border-gray-400 bg-white hover:bg-gray-100`}
          >
            {keepLabel}
          </Link>
        </div>
      </div>
    </details>
  );
}
