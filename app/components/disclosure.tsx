import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A menu that opens and closes without JavaScript (<details>), and with it closes on Escape
 * (focus back on its toggle), on a click outside, and after navigating.
 */
export function Disclosure({
  summary,
  summaryClassName,
  className,
  panelClassName,
  children,
}: {
  summary: ReactNode;
  summaryClassName?: string;
  className?: string;
  panelClassName?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // Close after every navigation (a link inside the menu was followed).
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is the trigger, not a value read
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    details.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      details.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);

  return (
    <details ref={ref} className={className}>
      <summary className={summaryClassName}>{summary}</summary>
      <div className={panelClassName}>{children}</div>
    </details>
  );
}
