/** Shapes the catalogue sends to the UI (shared by server modules and components). */
export interface CardImage {
  key: string;
  alt: string;
  width: number;
  height: number;
  widths: number[];
}

/** What a product card needs: no description, no specifications. */
export interface ProductCardData {
  id: number;
  slug: string;
  name: string;
  brand: string;
  priceCents: number;
  originalPriceCents: number | null;
  discountPercentage: number | null;
  rating: number;
  reviewCount: number;
  stock: number;
  newArrival: boolean;
  bestSeller: boolean;
  image: CardImage | null;
  /** live variants: more than one and the card links to the product page to choose */
  variantCount: number;
  /** the variants' prices differ: the card says "From" the (cheapest) price */
  priceVaries: boolean;
  /** the price is the signed-in shopper's member price (a customer group's price list, decision 037) */
  memberPrice?: boolean;
}

/** One filter option with how many products it would show given the other active filters. */
export interface FacetCount {
  value: string;
  label: string;
  count: number;
}

/** An option facet of the listing (Size, Colour): its URL key, its name, its values' counts. */
export interface OptionFacet {
  key: string;
  label: string;
  values: FacetCount[];
}
