import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";

/**
 * Admin lists as tables from `md` up and as one card per row below it, where six or eight columns
 * cannot fit a phone (390 px) without the page or the table scrolling sideways. The markup stays a
 * table: the header row is only visually hidden on phones, rows become grids and cells stack.
 * Changing a table part's `display` makes some browsers drop its table semantics, so the parts
 * below carry their roles explicitly (redundant while the table looks like a table, needed when
 * it does not).
 */
export const STACKED_TABLE = {
  table: "w-full text-left text-sm",
  // a sort link focused on a phone shows the header row, so the focus is never invisible
  head: "sr-only border-b border-gray-300 focus-within:not-sr-only md:not-sr-only md:table-header-group",
  body: "divide-y divide-gray-200",
  /** plus the card's grid columns, e.g. `grid-cols-[3rem_minmax(0,1fr)]` */
  row: "grid items-start gap-x-3 gap-y-1 py-3 md:table-row md:py-0",
  cell: "min-w-0 break-words md:table-cell md:py-2 md:pr-4 md:align-middle md:last:pr-0",
  columnHeader: "py-2 pr-4 font-semibold",
} as const;

export function StackedTable(props: ComponentProps<"table">) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the layout changes the parts' display (see above)
  return <table role="table" {...props} className={`${STACKED_TABLE.table} ${props.className ?? ""}`} />;
}

export function Row(props: ComponentProps<"tr">) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the layout changes the parts' display (see above)
  return <tr role="row" {...props} />;
}

export function ColumnHeader(props: ComponentProps<"th">) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the layout changes the parts' display (see above)
  return <th role="columnheader" scope="col" {...props} />;
}

export function RowHeader(props: ComponentProps<"th">) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the layout changes the parts' display (see above)
  return <th role="rowheader" scope="row" {...props} />;
}

export function Cell(props: ComponentProps<"td">) {
  // biome-ignore lint/a11y/noRedundantRoles: kept when the layout changes the parts' display (see above)
  return <td role="cell" {...props} />;
}

/** The column's name in front of a value, shown on the phone card only (the table has headers). */
export function CardLabel({ children }: { children: ReactNode }) {
  return <span className="font-semibold text-gray-800 md:hidden">{children}: </span>;
}

/**
 * A column header that sorts its list: a link to the list sorted by this column (the list's own
 * `sort` values for each direction, either may be absent), `aria-sort` saying how it is sorted now.
 * A link, so it works without JavaScript and keeps the list's filters (`href`).
 */
export function SortableColumnHeader({
  label,
  ascending,
  descending,
  current,
  href,
  className,
}: {
  label: string;
  ascending?: string;
  descending?: string;
  current: string;
  href: (sort: string) => string;
  className?: string;
}) {
  const state = current === ascending ? "ascending" : current === descending ? "descending" : "none";
  const next =
    state === "ascending"
      ? (descending ?? ascending)
      : state === "descending"
        ? (ascending ?? descending)
        : (ascending ?? descending);
  const nextDirection = next === ascending ? "ascending" : "descending";
  return (
    <ColumnHeader aria-sort={state} className={className}>
      <Link to={href(next ?? current)} className="inline-flex items-center gap-1 hover:underline">
        {label}
        <span aria-hidden="true">{state === "ascending" ? "▲" : state === "descending" ? "▼" : "↕"}</span>
        <span className="sr-only">, sort {nextDirection}</span>
      </Link>
    </ColumnHeader>
  );
}
