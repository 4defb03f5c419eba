import { ListingPage, listingMeta } from "../components/listing/listing-page.tsx";
import { servicesFrom } from "../context.ts";
import { type ListingPreset, loadListing } from "../domain/catalog/listing-page.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import type { Route } from "./+types/products.deals";

const PRESET: ListingPreset = {
  path: "/products/deals",
  title: "Today's Deals",
  description: "Discounted products across every category, while stocks last.",
  fixed: { deals: true },
};

export const loader = async ({ request, context }: Route.LoaderArgs) =>
  loadListing(
    servicesFrom(context).db,
    new URL(request.url).searchParams,
    PRESET,
    // a signed-in member's cards show their prices (decision 037; their page is private)
    (await getSessionUser(request, context))?.id ?? null,
  );
export const meta: Route.MetaFunction = ({ loaderData, matches }) => listingMeta(loaderData, matches);
export const headers = sharedPageHeaders;

export default function Deals({ loaderData }: Route.ComponentProps) {
  return <ListingPage data={loaderData} />;
}
