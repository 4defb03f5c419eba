import type { MetaDescriptor } from "react-router";
import { rootMetaData, seoMeta } from "../../lib/seo.ts";

/** Title and description of an admin page; never indexed. */
export function adminMeta(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
  title: string,
  path: string,
): MetaDescriptor[] {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: `${title} · Admin`,
      description: "Cartwheel product management.",
      path,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex, nofollow" },
  ];
}

/** Admin pages are per-user and change constantly: never cached. */
export function adminHeaders() {
  return { "Cache-Control": "private, no-store" };
}

/** A positive integer route/query parameter, or null. */
export function positiveInt(value: string | null | undefined, max = 1_000_000_000): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= max ? n : null;
}
