import { Link } from "react-router";
import { SOCIAL_LABELS, SOCIAL_NETWORKS, type Storefront, telHref } from "../lib/shop-settings.ts";
import { SHOP_LINKS } from "../lib/site-links.ts";
import { NewsletterForm } from "./newsletter-form.tsx";

const SERVICE_LINKS = [
  { to: "/orders/track", label: "Track Your Order" },
  { to: "/help/shipping", label: "Shipping Information" },
  { to: "/help/returns", label: "Returns & Exchanges" },
  { to: "/help/faq", label: "FAQ" },
  { to: "/contact", label: "Contact Us" },
];

const LEGAL_LINKS = [
  { to: "/help/terms", label: "Terms of Service" },
  { to: "/help/privacy", label: "Privacy Policy" },
  { to: "/help/cookies", label: "Cookie Policy" },
  { to: "/sitemap", label: "Sitemap" },
];

export function Footer({ shop, year }: { shop: Storefront; year: number }) {
  const socialLinks = SOCIAL_NETWORKS.filter((network) => shop.socialLinks[network] !== "").map(
    (network) => ({
      href: shop.socialLinks[network],
      label: SOCIAL_LABELS[network],
    }),
  );
  return (
    <footer id="site-footer" className="mt-16 bg-gray-900 text-gray-200 print:hidden">
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-10 px-4 py-12 md:grid-cols-4">
        <div>
          <p className="text-xl font-extrabold text-white">{shop.shopName}</p>
          <address className="mt-3 space-y-1 text-sm not-italic">
            <p>{shop.contactAddress}</p>
            <p>
              <a href={telHref(shop.contactPhone)} className="hover:underline">
                {shop.contactPhone}
              </a>
            </p>
            <p>
              <a href={`mailto:${shop.contactEmail}`} className="hover:underline">
                {shop.contactEmail}
              </a>
            </p>
          </address>
        </div>
        <FooterColumn title="Shop" links={SHOP_LINKS} />
        <FooterColumn title="Customer Service" links={SERVICE_LINKS} />
        <div>
          <h2 className="text-sm font-bold tracking-wide text-white uppercase">Newsletter</h2>
          <p className="mt-3 mb-3 text-sm">Deals and new arrivals, once a week.</p>
          <NewsletterForm id="footer-newsletter-email" tone="dark" />
        </div>
      </div>
      <div className="border-t border-gray-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm md:flex-row md:items-center md:justify-between">
          <p>
            © {year} {shop.shopName}. All rights reserved.
          </p>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-4">
              {LEGAL_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {socialLinks.length > 0 && (
            <nav aria-label="Social media">
              <ul className="flex gap-4">
                {socialLinks.map((link) => (
                  <li key={link.label}>
                    <a href={link.href} rel="noopener noreferrer" className="hover:underline">
                      {link.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </div>
      </div>
    </footer>
  );
}

function FooterColumn({ title, links }: { title: string; links: Array<{ to: string; label: string }> }) {
  return (
    <nav aria-label={title}>
      <h2 className="text-sm font-bold tracking-wide text-white uppercase">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
