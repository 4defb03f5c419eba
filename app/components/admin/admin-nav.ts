/**
 * The admin area's sections. Later sections (coupons, reported reviews, CSV import/export) add a
 * line here and a route file `app/routes/admin.<section>.tsx` whose loader and action start with
 * `requireAdmin(request)`.
 */
export const ADMIN_SECTIONS: readonly { to: string; label: string; end?: boolean }[] = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/products/new", label: "Add Product", end: true },
  { to: "/admin/products/import", label: "Import / Export", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/low-stock", label: "Low stock" },
  { to: "/admin/coupons", label: "Coupons" },
  { to: "/admin/reviews", label: "Reported reviews" },
  { to: "/admin/audit", label: "Audit log" },
];
