import type { Permission } from "../../lib/staff-roles.ts";

/**
 * The admin area's sections, in the sidebar's order. A new section adds a line here (with the
 * permission its pages ask for: the sidebar shows a staff member only what their role may open)
 * and a route file `app/routes/admin.<section>.tsx` whose loader and action start with
 * `requirePermission(request, context, permission)`.
 *
 * `paths` are the pages that belong to a section: "/admin" only itself, any other path itself and
 * everything under it. The page's section is the one with the longest matching path, so the tab of
 * /admin/products/new is Add Product, not Products, and exactly one tab is the current page.
 */
export interface AdminSection {
  to: string;
  label: string;
  paths: readonly string[];
  permission: Permission;
  /** shown under the section before it (Products' pages) */
  nested?: boolean;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin/dashboard", label: "Dashboard", paths: ["/admin/dashboard"], permission: "reports" },
  { to: "/admin", label: "Products", paths: ["/admin", "/admin/products"], permission: "products" },
  {
    to: "/admin/products/new",
    label: "Add Product",
    paths: ["/admin/products/new"],
    permission: "products",
    nested: true,
  },
  {
    to: "/admin/products/import",
    label: "Import / Export",
    paths: ["/admin/products/import"],
    permission: "products",
    nested: true,
  },
  {
    to: "/admin/low-stock",
    label: "Low stock",
    paths: ["/admin/low-stock"],
    permission: "products",
    nested: true,
  },
  {
    to: "/admin/searches",
    label: "Searches",
    paths: ["/admin/searches"],
    permission: "products",
    nested: true,
  },
  { to: "/admin/orders", label: "Orders", paths: ["/admin/orders"], permission: "orders" },
  { to: "/admin/returns", label: "Returns", paths: ["/admin/returns"], permission: "returns" },
  { to: "/admin/customers", label: "Customers", paths: ["/admin/customers"], permission: "customers" },
  {
    to: "/admin/customer-groups",
    label: "Customer groups",
    paths: ["/admin/customer-groups"],
    permission: "customers",
    nested: true,
  },
  // coupons are promotions with a code (migration 0780): /admin/coupons leads to them
  {
    to: "/admin/promotions",
    label: "Promotions",
    paths: ["/admin/promotions", "/admin/coupons"],
    permission: "discounts",
  },
  { to: "/admin/gift-cards", label: "Gift cards", paths: ["/admin/gift-cards"], permission: "refunds" },
  { to: "/admin/reviews", label: "Reviews", paths: ["/admin/reviews"], permission: "reviews" },
  { to: "/admin/settings", label: "Settings", paths: ["/admin/settings"], permission: "settings" },
  { to: "/admin/backups", label: "Backups", paths: ["/admin/backups"], permission: "settings" },
  { to: "/admin/api-keys", label: "API keys", paths: ["/admin/api-keys"], permission: "settings" },
  { to: "/admin/webhooks", label: "Webhooks", paths: ["/admin/webhooks"], permission: "settings" },
  { to: "/admin/staff", label: "Staff", paths: ["/admin/staff"], permission: "staff" },
  { to: "/admin/audit", label: "Audit log", paths: ["/admin/audit"], permission: "audit" },
];

/** The sections a staff member with these permissions may open. */
export function sectionsFor(permissions: readonly Permission[]): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => permissions.includes(section.permission));
}

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
