import { FileText } from "lucide-react";
import { Form, Link } from "react-router";
import type { DocumentLink } from "../../domain/invoices/documents.server.ts";
import { DOCUMENT_TITLES } from "../../domain/invoices/invoice-document.ts";

/** "Invoice INV-000001", "Credit note CN-000002". */
export function documentLabel(document: Pick<DocumentLink, "kind" | "number">): string {
  return `${DOCUMENT_TITLES[document.kind]} ${document.number}`;
}

const LINK = "inline-flex items-center gap-2 py-1 font-semibold text-brand-700 hover:underline";

/**
 * An order page's invoices and credit notes, each a link to its printable page (`hrefOf`); or, for
 * a guest on the tracking page, each a button that posts the order's number and e-mail again (the
 * same proof the tracking asked for) to /orders/documents. Nothing when the order has none.
 */
export function OrderDocuments({
  documents,
  hrefOf,
  guest,
  headingLevel = 2,
  className = "",
}: {
  documents: DocumentLink[];
  hrefOf?: (number: string) => string;
  guest?: { orderNumber: string; email: string };
  headingLevel?: 2 | 3;
  className?: string;
}) {
  if (documents.length === 0) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `order-documents-${documents[0]!.number}`;
  return (
    <section aria-labelledby={headingId} className={className}>
      <Heading id={headingId} className={headingLevel === 2 ? "text-xl font-bold" : "font-bold"}>
        {documents.length === 1 ? "Invoice" : "Invoices and credit notes"}
      </Heading>
      <ul className="mt-2 space-y-1">
        {documents.map((document) => (
          <li key={document.number}>
            {guest ? (
              <Form method="post" action="/orders/documents">
                <input type="hidden" name="orderNumber" value={guest.orderNumber} />
                <input type="hidden" name="email" value={guest.email} />
                <input type="hidden" name="document" value={document.number} />
                <button type="submit" className={LINK}>
                  <FileText aria-hidden="true" className="size-4 shrink-0" />
                  {documentLabel(document)}
                </button>
              </Form>
            ) : (
              <Link to={hrefOf?.(document.number) ?? "#"} className={LINK}>
                <FileText aria-hidden="true" className="size-4 shrink-0" />
                {documentLabel(document)}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
