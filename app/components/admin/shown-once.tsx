import { Link } from "react-router";

/**
 * A secret the shop shows only on the page that made it (an API key, a webhook's signing secret):
 * no redirect, no cookie, no log holds it. "Done" leads back to the page without it.
 */
export function ShownOnce({
  heading,
  note,
  value,
  testId,
  doneTo,
}: {
  heading: string;
  note: string;
  value: string;
  testId: string;
  doneTo: string;
}) {
  return (
    <div role="status" className="mt-6 max-w-3xl rounded-xl border border-green-700 bg-green-50 p-4 sm:p-6">
      <h2 className="text-xl font-bold text-green-900">{heading}</h2>
      <p className="mt-3 text-sm text-gray-900">{note}</p>
      <p className="mt-1 font-mono text-lg font-bold break-all" data-testid={testId}>
        {value}
      </p>
      <p className="mt-4">
        <Link to={doneTo} className="font-semibold text-brand-700 underline">
          Done
        </Link>
      </p>
    </div>
  );
}
