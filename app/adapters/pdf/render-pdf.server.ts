import PDFDocument from "pdfkit";
import type { PdfBlock, PdfColumn, PdfLayout } from "./pdf-layout.ts";

/**
 * Draws a PdfLayout on A4 pages with PDFKit (decision 031): the PDF's 14 standard fonts
 * (Helvetica), so no font file is embedded or read and a one-page invoice is ~3 KB, made in a few
 * milliseconds. Those fonts print Windows-1252 (Western European letters, €, £); any other
 * character is written without its accent where it has one, else as "?" (the HTML page shows it
 * as typed).
 */

const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;
const FONT = "Helvetica";
const BOLD = "Helvetica-Bold";
const GREY = "#444444";
const RULE = "#999999";

/** Windows-1252's characters above Latin-1's control range that are not Latin-1 itself. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Letters outside Windows-1252 that Unicode does not decompose into a base letter and an accent. */
const UNACCENTED: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  ŀ: "l",
  Ŀ: "L",
};

/** Text the standard fonts can print: other letters lose their accent, or become "?". */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text.replace(/[\t\r\n]+/g, " ")) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) {
      out += char;
      continue;
    }
    if (char === "\u202f" || char === "\u2009" || char === "\u2007") {
      out += "\u00a0";
      continue;
    }
    const letter = UNACCENTED[char];
    if (letter) {
      out += letter;
      continue;
    }
    const base = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    out += base && [...base].every((c) => (c.codePointAt(0) ?? 0) <= 0x7e && c >= " ") ? base : "?";
  }
  return out;
}

export async function renderPdf(layout: PdfLayout): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    bufferPages: true,
    info: {
      Title: toWinAnsi(layout.title),
      Author: toWinAnsi(layout.author),
      Producer: "Cartwheel",
      Creator: "Cartwheel",
      CreationDate: new Date(layout.createdAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
  const pen = new Pen(doc);
  for (const block of layout.blocks) pen.draw(block);
  numberPages(doc, layout.title);
  doc.end();
  return done;
}

/** "Invoice INV-000001 — page 2 of 3" at the foot of each page, when there is more than one. */
function numberPages(doc: PDFKit.PDFDocument, title: string): void {
  const { start, count } = doc.bufferedPageRange();
  if (count < 2) return;
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const text = toWinAnsi(`${title} — page ${i - start + 1} of ${count}`);
    doc.font(FONT).fontSize(8).fillColor(GREY);
    doc.text(text, PAGE.margin + CONTENT_WIDTH - doc.widthOfString(text), BOTTOM + 16, { lineBreak: false });
  }
}

class Pen {
  y: number = PAGE.margin;
  private readonly doc: PDFKit.PDFDocument;
  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  private room(height: number): void {
    if (this.y + height <= BOTTOM) return;
    this.doc.addPage();
    this.y = PAGE.margin;
  }

  private write(
    text: string,
    x: number,
    width: number,
    { font = FONT, size = 9, align = "left" as "left" | "right", color = "#000000", wrap = false } = {},
  ): number {
    const doc = this.doc.font(font).fontSize(size).fillColor(color);
    const printed = toWinAnsi(text);
    if (wrap) {
      const options = { width, align } as const;
      const height = doc.heightOfString(printed, options);
      doc.text(printed, x, this.y, options);
      return height;
    }
    // one line, placed by hand; a figure wider than its column is set smaller until it fits
    let fitted = size;
    while (fitted > 5 && doc.fontSize(fitted).widthOfString(printed) > width) fitted -= 0.5;
    const textWidth = doc.widthOfString(printed);
    const left = align === "right" ? x + width - textWidth : x;
    doc.text(printed, left, this.y, { lineBreak: false });
    doc.fontSize(size);
    return doc.currentLineHeight(true);
  }

  draw(block: PdfBlock): void {
    switch (block.type) {
      case "heading":
        this.room(30);
        this.y +=
          this.write(block.text, PAGE.margin, CONTENT_WIDTH, { font: BOLD, size: 18, wrap: true }) + 10;
        return;
      case "facts":
        for (const row of block.rows) {
          this.room(14);
          this.write(row.label, PAGE.margin, 130, { font: BOLD });
          this.y += Math.max(
            12,
            this.write(row.value, PAGE.margin + 135, CONTENT_WIDTH - 135, { wrap: true }),
          );
        }
        this.y += 12;
        return;
      case "parties":
        this.parties(block.parties);
        return;
      case "table":
        this.table(block);
        return;
      case "totals":
        for (const row of block.rows) {
          this.room(16);
          const font = row.strong ? BOLD : FONT;
          const size = row.strong ? 11 : 9;
          const x = PAGE.margin + CONTENT_WIDTH - 260;
          this.write(row.label, x, 150, { font, size, align: "right" });
          this.write(row.value, x + 160, 100, { font, size, align: "right" });
          this.y += row.strong ? 16 : 13;
        }
        this.y += 10;
        return;
      case "notes":
        for (const line of block.lines) {
          this.room(12);
          this.y += this.write(line, PAGE.margin, CONTENT_WIDTH, { size: 8, color: GREY, wrap: true }) + 2;
        }
    }
  }

  private parties(parties: { heading: string; lines: string[] }[]): void {
    const gap = 20;
    const width = (CONTENT_WIDTH - gap * (parties.length - 1)) / Math.max(1, parties.length);
    const heights = parties.map((party) => 14 + party.lines.length * 12);
    this.room(Math.max(...heights, 0));
    const top = this.y;
    let bottom = top;
    parties.forEach((party, i) => {
      const x = PAGE.margin + i * (width + gap);
      this.y = top;
      this.y += this.write(party.heading, x, width, { font: BOLD, size: 10 }) + 2;
      for (const line of party.lines) this.y += this.write(line, x, width, { wrap: true });
      bottom = Math.max(bottom, this.y);
    });
    this.y = bottom + 16;
  }

  private table(block: Extract<PdfBlock, { type: "table" }>): void {
    const size = 8;
    const total = block.columns.reduce((sum, column) => sum + column.weight, 0);
    const xs: number[] = [];
    let x = PAGE.margin;
    const widths = block.columns.map((column) => {
      xs.push(x);
      const width = (column.weight / total) * CONTENT_WIDTH;
      x += width;
      return width;
    });
    const pad = 3;
    const header = () => {
      this.room(30);
      block.columns.forEach((column: PdfColumn, i) => {
        this.write(column.label, xs[i]! + pad, widths[i]! - 2 * pad, {
          font: BOLD,
          size,
          align: column.align,
        });
      });
      this.y += 12;
      this.rule(0.8);
    };
    if (block.heading) {
      this.room(40);
      this.y += this.write(block.heading, PAGE.margin, CONTENT_WIDTH, { font: BOLD, size: 10 }) + 4;
    }
    header();
    for (const row of block.rows) {
      const first = widths[0]! - 2 * pad;
      const doc = this.doc.fontSize(size);
      const nameHeight = doc.font(FONT).heightOfString(toWinAnsi(row.cells[0] ?? ""), { width: first });
      const detailHeight = row.detail ? doc.heightOfString(toWinAnsi(row.detail), { width: first }) : 0;
      const height = Math.max(nameHeight + detailHeight, 10) + 6;
      if (this.y + height > BOTTOM) {
        this.doc.addPage();
        this.y = PAGE.margin;
        header();
      }
      const top = this.y + 3;
      this.y = top;
      block.columns.forEach((column, i) => {
        if (i === 0) return;
        this.write(row.cells[i] ?? "", xs[i]! + pad, widths[i]! - 2 * pad, { size, align: column.align });
      });
      this.write(row.cells[0] ?? "", xs[0]! + pad, first, { size, wrap: true });
      if (row.detail) {
        this.y = top + nameHeight;
        this.write(row.detail, xs[0]! + pad, first, { size: size - 1, color: GREY, wrap: true });
      }
      this.y = top - 3 + height;
      this.rule(0.3);
    }
    this.y += 12;
  }

  private rule(width: number): void {
    this.doc
      .moveTo(PAGE.margin, this.y)
      .lineTo(PAGE.margin + CONTENT_WIDTH, this.y)
      .lineWidth(width)
      .strokeColor(RULE)
      .stroke();
    this.y += 2;
  }
}
