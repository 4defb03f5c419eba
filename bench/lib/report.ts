/** Target checks and the plain-text results table. */
import type { Row, Target } from "./types.ts";

export function meets(value: number | null, target: Target, digits = 3): boolean {
  if (value === null || !Number.isFinite(value)) return false;
  const v = Number(value.toFixed(digits));
  if (target.op === ">=") return v >= target.value;
  if (target.op === "<=") return v <= target.value;
  return v === target.value;
}

export function formatValue(row: Row): string {
  if (row.value === null || !Number.isFinite(row.value)) return "n/a";
  const text = row.value.toFixed(row.digits ?? 2);
  if (!row.unit) return text;
  return row.unit === "×" ? `${text}×` : `${text} ${row.unit}`;
}

export function formatTarget(row: Row): string {
  if (!row.target) return "";
  const unit = row.unit && row.unit !== "×" ? ` ${row.unit}` : row.unit;
  const op = row.target.op === "=" ? "=" : row.target.op === ">=" ? "≥" : "≤";
  return `${op} ${row.target.value}${unit}`;
}

export function table(rows: Row[]): string {
  const header = ["section", "metric", "value", "target", "ok", "notes"];
  const body = rows.map((r) => [
    r.section,
    r.metric,
    formatValue(r),
    formatTarget(r),
    r.target ? (r.pass ? "✓" : "✗") : "",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => (line[i] ?? "").length)));
  // Notes can be long: don't let them widen the table.
  widths[5] = Math.min(widths[5] ?? 0, 90);
  const fmt = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  const lines = [fmt(header), rule];
  let previous = "";
  for (const line of body) {
    if (previous && line[0] !== previous) lines.push("");
    previous = line[0] ?? "";
    lines.push(fmt(line));
  }
  return lines.join("\n");
}
