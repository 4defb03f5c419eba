import type { ReactNode } from "react";

/**
 * A data table's own horizontal scroll box, so a table wider than a phone scrolls inside it and the
 * page never does (WCAG 1.4.10 Reflow):
 * - `relative`: visually hidden text (`sr-only`, absolutely positioned) inside the table is placed
 *   in this box; without a positioned ancestor it was placed in the page and stretched it sideways
 *   by however far its cell sat beyond the box's right edge.
 * - `contain: inline-size`: the table's width does not become this box's minimum width, so a grid
 *   or flex column holding the box is not widened by it (the account area's one-column grid was).
 * - a focusable, named region, so the box can be scrolled from the keyboard and is announced.
 */
export function TableScroll({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard to be scrolled
      tabIndex={0}
      className={`relative overflow-x-auto [contain:inline-size] ${className}`}
    >
      {children}
    </section>
  );
}
