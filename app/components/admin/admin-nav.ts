/**
 * The admin area's sections. A new section adds a line here and a route file
 * `app/routes/admin.<section>.tsx` whose loader and action start with `requireAdmin(request)`.
 *
 * `paths` are the pages that belong to a section: "/admin" only itself, any other path itself and
 * everything under it. The page's section is the one with the longest matching path, so the tab of
 * /admin/products/new is Add Product, not Products, and exactly one tab is the current page.
 */
export interface AdminSection {
  to: string;
  label: string;
  paths: readonly string[];
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin", label: "Products", paths: ["/admin", "/admin/products"] },
  { to: "/admin/products/new", label: "Add Product", paths: ["/admin/products/new"] },
  { to: "/admin/products/import", label: "Import / Export", paths: ["/admin/products/import"] },
  { to: "/admin/dashboard", label: "Dashboard", paths: ["/admin/dashboard"] },
  { to: "/admin/orders", label: "Orders", paths: ["/admin/orders"] },
  { to: "/admin/returns", label: "Returns", paths: ["/admin/returns"] },
  { to: "/admin/low-stock", label: "Low stock", paths: ["/admin/low-stock"] },
  { to: "/admin/coupons", label: "Coupons", paths: ["/admin/coupons"] },
  { to: "/admin/reviews", label: "Reported reviews", paths: ["/admin/reviews"] },
  { to: "/admin/audit", label: "Audit log", paths: ["/admin/audit"] },
];

/** The section a page of the admin area belongs to (at most one), by its pathname. */
export function currentAdminSection(pathname: string): AdminSection | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  let current: AdminSection | null = null;
  let longest = 0;
  for (const section of ADMIN_SECTIONS) {
    for (const prefix of section.paths) {
      const matches =
        prefix === "/admin" ? path === prefix : path === prefix || path.startsWith(`${prefix}/`);
      if (matches && prefix.length > longest) {
        current = section;
        longest = prefix.length;
      }
    }
  }
  return current;
}
