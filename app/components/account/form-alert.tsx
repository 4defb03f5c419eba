/** The message above a refused form (its field messages sit beside the fields). */
export function FormAlert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800"
    >
      {message}
    </p>
  );
}

export const SUBMIT_BUTTON =
  "rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70";
export const SECONDARY_BUTTON =
  "rounded-lg border border-gray-400 px-4 py-2 font-semibold text-gray-900 hover:bg-gray-100";
