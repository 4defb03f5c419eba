import type { Tracking } from "../../lib/carriers.ts";

/**
 * An order's shipment as a term of its description list: the carrier, the tracking number and,
 * for a carrier whose tracking page is known, a link to it (a new tab would leave the shop: it is
 * an ordinary link). Nothing when the order was shipped without them, or has not shipped.
 */
export function TrackingDetails({ tracking }: { tracking: Tracking | null }) {
  if (!tracking) return null;
  return (
    <div>
      <dt className="font-semibold">Tracking</dt>
      <dd>
        {tracking.carrier}
        {tracking.number && (
          <>
            {": "}
            {tracking.url ? (
              <a
                href={tracking.url}
                className="font-semibold text-brand-700 underline"
                rel="noopener noreferrer"
              >
                {tracking.number}
                <span className="sr-only"> (track the parcel on {tracking.carrier}'s site)</span>
              </a>
            ) : (
              <span>{tracking.number}</span>
            )}
          </>
        )}
      </dd>
    </div>
  );
}
