import { describe, expect, it } from "vitest";
import { ADMIN_SECTIONS, currentAdminSection } from "./admin-nav.ts";

describe("currentAdminSection", () => {
  // every page of the admin area → the one tab marked as the current page
  const PAGES: [string, string][] = [
    ["/admin", "Products"],
    ["/admin/", "Products"],
    ["/admin/products/12", "Products"],
    ["/admin/products/12/delete", "Products"],
    ["/admin/products/new", "Add Product"],
    ["/admin/products/import", "Import / Export"],
    ["/admin/dashboard", "Dashboard"],
    ["/admin/orders", "Orders"],
    ["/admin/orders/CW-ABC123", "Orders"],
    ["/admin/low-stock", "Low stock"],
    ["/admin/searches", "Searches"],
    // coupons are promotions with a code: their old addresses redirect there
    ["/admin/coupons", "Promotions"],
    ["/admin/coupons/new", "Promotions"],
    ["/admin/coupons/3", "Promotions"],
    ["/admin/customers/abc", "Customers"],
    ["/admin/customer-groups", "Customer groups"],
    ["/admin/customer-groups/3", "Customer groups"],
    ["/admin/customer-groups/3/import", "Customer groups"],
    ["/admin/promotions", "Promotions"],
    ["/admin/promotions/new", "Promotions"],
    ["/admin/promotions/7", "Promotions"],
    ["/admin/promotions/simulate", "Promotions"],
    ["/admin/gift-cards", "Gift cards"],
    ["/admin/gift-cards/new", "Gift cards"],
    ["/admin/gift-cards/4", "Gift cards"],
    ["/admin/reviews", "Reviews"],
    ["/admin/audit", "Audit log"],
    ["/admin/api-keys", "API keys"],
    ["/admin/webhooks", "Webhooks"],
  ];

  it.each(PAGES)("%s is %s", (path, label) => {
    expect(currentAdminSection(path)?.label).toBe(label);
  });

  it("each section's own link is its current page", () => {
    for (const section of ADMIN_SECTIONS) expect(currentAdminSection(section.to)).toBe(section);
  });

  it("matches whole path segments only, and nothing outside the admin area", () => {
    expect(currentAdminSection("/admin/products/newest")?.label).toBe("Products");
    expect(currentAdminSection("/admin/ordersx")).toBeNull();
    expect(currentAdminSection("/administrator")).toBeNull();
    expect(currentAdminSection("/products")).toBeNull();
  });
});
