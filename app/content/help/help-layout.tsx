import { ChevronRight, Mail, MessageSquare, Phone } from "lucide-react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { useShopSettings } from "../../components/shop-settings.ts";
import { telHref } from "../../lib/shop-settings.ts";
import { HELP_PAGE_SLUGS, HELP_PAGES, helpPath } from "./pages.ts";

/** Typography for long-form help texts (there is no typography plugin; these are its essentials). */
export const PROSE = [
  "max-w-3xl leading-7 text-gray-700",
  "[&_.lead]:mt-0 [&_.lead]:text-lg [&_.lead]:text-gray-600",
  "[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-gray-900",
  "[&_p]:mt-4 [&_details_p]:mt-0 [&_li>p]:mt-0",
  "[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6",
  "[&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
  "[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-800",
  "[&_strong]:font-semibold [&_strong]:text-gray-900",
  "[&_.table-wrap]:mt-4 [&_.table-wrap]:overflow-x-auto [&_.table-wrap]:rounded-xl [&_.table-wrap]:border [&_.table-wrap]:border-gray-200",
  "[&_table]:w-full [&_table]:text-left [&_table]:text-sm [&_thead]:bg-gray-50",
  "[&_td]:px-4 [&_td]:py-3 [&_td]:align-top [&_th]:px-4 [&_th]:py-3 [&_th]:align-top",
  "[&_th]:font-semibold [&_th]:text-gray-900 [&_tbody_tr]:border-t [&_tbody_tr]:border-gray-200",
].join(" ");

export function Breadcrumbs({ items }: { items: Array<{ label: string; to?: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item, i) => (
          <li key={item.label} className="flex items-center gap-1">
            {i > 0 && <ChevronRight aria-hidden="true" className="size-4 text-gray-400" />}
            {item.to ? (
              <Link to={item.to} className="hover:text-brand-700 hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="font-medium text-gray-900">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The help centre's frame: breadcrumb, topic navigation beside the text, and a way to reach a person. */
export function HelpLayout({ breadcrumb, children }: { breadcrumb: string | null; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <Breadcrumbs
        items={[
          { label: "Home", to: "/" },
          breadcrumb ? { label: "Help Center", to: "/help" } : { label: "Help Center" },
          ...(breadcrumb ? [{ label: breadcrumb }] : []),
        ]}
      />
      <div className="mt-6 grid gap-10 md:grid-cols-[14rem_minmax(0,1fr)] lg:gap-16">
        <aside className="md:order-none">
          <nav aria-label="Help topics" className="md:sticky md:top-36">
            <p className="mb-2 text-xs font-bold tracking-wide text-gray-600 uppercase">Help topics</p>
            <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
              {HELP_PAGE_SLUGS.map((slug) => (
                <li key={slug}>
                  <NavLink
                    to={helpPath(slug)}
                    className={({ isActive }) =>
                      `block rounded-lg px-3 py-2 text-sm ${
                        isActive
                          ? "bg-brand-50 font-semibold text-brand-800"
                          : "border border-gray-200 text-gray-700 hover:bg-gray-100 md:border-transparent"
                      }`
                    }
                  >
                    {HELP_PAGES[slug].navLabel}
                  </NavLink>
                </li>
              ))}
              <li>
                <NavLink
                  to="/contact"
                  className="block rounded-lg border border-gray-200 px-3 py-2 text-sm text-gray-700 hover:bg-gray-100 md:border-transparent"
                >
                  Contact Us
                </NavLink>
              </li>
            </ul>
          </nav>
        </aside>
        <div className="min-w-0">
          {children}
          <ContactCard />
        </div>
      </div>
    </div>
  );
}

function ContactCard() {
  const shop = useShopSettings();
  return (
    <section
      aria-labelledby="help-contact-heading"
      className="mt-12 max-w-3xl rounded-2xl bg-brand-50 p-6 md:flex md:items-center md:justify-between md:gap-6"
    >
      <div>
        <h2 id="help-contact-heading" className="text-lg font-bold text-gray-900">
          Still have questions?
        </h2>
        <p className="mt-1 text-sm text-gray-700">Our team replies within one business day.</p>
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          {shop.contactEmail && (
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 text-brand-700" />
              <a href={`mailto:${shop.contactEmail}`} className="text-gray-800 hover:underline">
                {shop.contactEmail}
              </a>
            </li>
          )}
          {shop.contactPhone && (
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 text-brand-700" />
              <a href={telHref(shop.contactPhone)} className="text-gray-800 hover:underline">
                {shop.contactPhone}
              </a>
            </li>
          )}
        </ul>
      </div>
      <Link
        to="/contact"
        className="mt-4 inline-flex shrink-0 items-center gap-2 rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 md:mt-0"
      >
        <MessageSquare aria-hidden="true" className="size-5" />
        Contact Us
      </Link>
    </section>
  );
}
