/**
 * A printed business document as blocks, top to bottom, on A4 pages: what `renderPdf`
 * (render-pdf.server.ts) draws. Plain data, so it crosses to the mail process as it is and
 * the caller never sees the PDF library. Text is what is printed, already formatted.
 */
export interface PdfLayout {
  /** the file's title (its metadata) */
  title: string;
  /** who made it (the shop) */
  author: string;
  /** the file's creation date, ISO: the same document always gives the same bytes */
  createdAt: string;
  blocks: PdfBlock[];
}

export type PdfBlock =
  /** the document's title, large */
  | { type: "heading"; text: string }
  /** label: value pairs, one a line */
  | { type: "facts"; rows: { label: string; value: string }[] }
  /** side by side: e.g. the seller's and the buyer's address */
  | { type: "parties"; parties: { heading: string; lines: string[] }[] }
  | {
      type: "table";
      heading?: string;
      columns: PdfColumn[];
      /** the first cell may wrap and carry a smaller second line (`detail`); the others do not wrap */
      rows: { cells: string[]; detail?: string }[];
    }
  /** right-aligned label and value pairs (a document's totals) */
  | { type: "totals"; rows: { label: string; value: string; strong?: boolean }[] }
  /** small print, a paragraph per line */
  | { type: "notes"; lines: string[] };

export interface PdfColumn {
  label: string;
  align: "left" | "right";
  /** its share of the width, relative to the other columns' */
  weight: number;
}
