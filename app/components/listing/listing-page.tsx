import type { MetaDescriptor } from "react-router";
import type { ListingPreset } from "../../domain/catalog/listing-page.server.ts";
import type { FacetCount, OptionFacet, ProductCardData } from "../../lib/catalog-types.ts";
import { type ListingQuery, listingHref } from "../../lib/listing-query.ts";
import { listingTitle } from "../../lib/listing-title.ts";
import { rootMetaData, seoMeta } from "../../lib/seo.ts";
import { ListingView } from "./listing-view.tsx";

export interface ListingData {
  query: ListingQuery;
  preset: ListingPreset & { fixed: Partial<ListingQuery> };
  result: {
    products: ProductCardData[];
    total: number;
    pageCount: number;
    facets: { categories: FacetCount[]; brands: FacetCount[]; options: OptionFacet[] };
    corrected: string[];
  };
}

export function listingMeta(
  data: ListingData | undefined,
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): MetaDescriptor[] {
  const { origin, contact } = rootMetaData(matches);
  if (!data) return [{ title: contact.name }];
  const { query, preset } = data;
  const tags = seoMeta({
    title: listingTitle(query, preset.title),
    description: preset.description,
    path: listingHref(preset.path, query, preset.fixed),
    origin,
    shopName: contact.name,
  });
  // Search result pages are for people, not for the index.
  if (query.search) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

export function ListingPage({ data }: { data: ListingData }) {
  const { query, preset, result } = data;
  return (
    <ListingView
      path={preset.path}
      title={listingTitle(query, preset.title)}
      query={query}
      fixed={preset.fixed}
      products={result.products}
      total={result.total}
      pageCount={result.pageCount}
      facets={result.facets}
      corrected={result.corrected}
    />
  );
}
