import type { IssuedDocument } from "../../domain/invoices/invoice-document.ts";
import { invoiceView, type ViewRow } from "../../domain/invoices/invoice-view.ts";
import { TableScroll } from "../table-scroll.tsx";

/**
 * An issued invoice or credit note, printable (decision 031): the same view as its PDF
 * (domain/invoices/invoice-view.ts), so the figures are the same strings. At 390 px the lines'
 * table scrolls in its own focusable box; printed, it fits the page and nothing around it prints.
 */
export function InvoiceSheet({ issued }: { issued: IssuedDocument }) {
  const view = invoiceView(issued);
  const id = `document-${view.number}`;
  return (
    <article
      aria-labelledby={id}
      className="rounded-xl border border-gray-300 bg-white p-4 text-sm text-gray-900 sm:p-8 print:border-0 print:p-0 print:text-xs"
    >
      <h1 id={id} className="text-2xl font-bold break-words sm:text-3xl">
        {view.heading}
      </h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        {view.facts.map((fact) => (
          <div key={fact.label} className="contents">
            <dt className="font-semibold">{fact.label}</dt>
            <dd className="min-w-0 break-words">{fact.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 print:grid-cols-2">
        {[view.seller, view.buyer].map((party) => (
          <section key={party.heading} aria-labelledby={`${id}-${party.heading}`}>
            <h2 id={`${id}-${party.heading}`} className="font-bold">
              {party.heading}
            </h2>
            <address className="mt-1 not-italic break-words">
              {party.lines.map((line, i) => (
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          </section>
        ))}
      </div>
      <FigureTable
        id={`${id}-lines`}
        caption={`Lines of ${view.heading}`}
        first="Item"
        columns={view.lines.columns}
        rows={view.lines.rows}
        className="mt-6"
        wide
      />
      {view.taxes.rows.length > 0 && (
        <section aria-labelledby={`${id}-taxes`} className="mt-6">
          <h2 id={`${id}-taxes`} className="font-bold">
            Tax per rate
          </h2>
          <FigureTable
            id={`${id}-tax-table`}
            caption={`Tax per rate of ${view.heading}`}
            first="Tax"
            columns={view.taxes.columns}
            rows={view.taxes.rows}
            className="mt-2"
          />
        </section>
      )}
      <dl
        className="mt-6 ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1"
        data-testid="document-totals"
      >
        {view.totals.map((row) => (
          <div key={row.label} className={row.strong ? "contents text-base font-bold" : "contents"}>
            <dt className="text-right">{row.label}</dt>
            <dd className="text-right whitespace-nowrap">{row.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 space-y-1 text-gray-700">
        {view.notes.map((note) => (
          <p key={note}>{note}</p>
        ))}
      </div>
    </article>
  );
}

function FigureTable({
  id,
  caption,
  first,
  columns,
  rows,
  className = "",
  wide = false,
}: {
  id: string;
  caption: string;
  first: string;
  columns: { label: string; align: "left" | "right" }[];
  rows: ViewRow[];
  className?: string;
  /** many columns: at least 36rem wide, scrolling in its box on a phone */
  wide?: boolean;
}) {
  return (
    <TableScroll label={caption} className={`print:overflow-visible print:[contain:none] ${className}`}>
      <table className={`w-full text-left ${wide ? "min-w-[36rem] print:min-w-0" : ""}`} id={id}>
        <caption id={`${id}-caption`} className="sr-only">
          {caption}
        </caption>
        <thead>
          <tr className="border-b border-gray-500">
            <th scope="col" className="py-2 pr-3">
              {first}
            </th>
            {columns.map((column) => (
              <th key={column.label} scope="col" className="py-2 pl-3 text-right whitespace-nowrap">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className="border-b border-gray-200 align-top">
              <th scope="row" className="py-2 pr-3 font-normal">
                {row.description}
                {row.detail && <span className="block text-xs text-gray-700">{row.detail}</span>}
              </th>
              {row.cells.map((cell, i) => (
                <td key={i} className="py-2 pl-3 text-right whitespace-nowrap">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
