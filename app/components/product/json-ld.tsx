import { useNonce } from "../nonce.tsx";
import { serializeJsonLd } from "./structured-data.ts";

/** Structured data for search engines, allowed by the page's CSP nonce. */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped (serializeJsonLd), not HTML
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
