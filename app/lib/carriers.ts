/**
 * The carriers an order can be shipped with (issue 20, fulfilment) and where each one's tracking
 * page is. "Other" has no link: the tracking number is shown as it is.
 */
export const CARRIERS = [
  { id: "ups", label: "UPS", track: "https://www.ups.com/track?tracknum=" },
  { id: "usps", label: "USPS", track: "https://tools.usps.com/go/TrackConfirmAction?tLabels=" },
  { id: "fedex", label: "FedEx", track: "https://www.fedex.com/fedextrack/?trknbr=" },
  { id: "dhl", label: "DHL", track: "https://www.dhl.com/global-en/home/tracking.html?tracking-id=" },
  { id: "other", label: "Other", track: null },
] as const;

export type CarrierId = (typeof CARRIERS)[number]["id"];
export const CARRIER_IDS = CARRIERS.map((carrier) => carrier.id) as [CarrierId, ...CarrierId[]];

/** A tracking number as carriers print them: letters, digits, spaces and dashes. */
export const TRACKING_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{2,39}$/;

export interface Tracking {
  carrier: string;
  number: string | null;
  /** the carrier's page for this number; null for "Other" or without a number */
  url: string | null;
}

/** What the shopper and the staff see of a shipment, from the order's stored carrier and number. */
export function trackingOf(carrier: string | null, number: string | null): Tracking | null {
  const known = CARRIERS.find((c) => c.id === carrier);
  if (!known && !number) return null;
  return {
    carrier: known?.label ?? "Carrier",
    number,
    url: known?.track && number ? `${known.track}${encodeURIComponent(number)}` : null,
  };
}
