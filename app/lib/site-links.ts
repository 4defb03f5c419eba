/** The shop's browse links, shared by the footer and the HTML sitemap. */
export const SHOP_LINKS = [
  { to: "/products", label: "All Products" },
  { to: "/products/new-arrivals", label: "New Arrivals" },
  { to: "/products?bestseller=true", label: "Best Sellers" },
  { to: "/products?featured=true", label: "Featured" },
  { to: "/products/deals", label: "Today's Deals" },
];
