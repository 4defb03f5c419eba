import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useHydrated } from "./use-hydrated.ts";

export interface TabDefinition {
  /** also the element id of the panel, so `#id` links reach it */
  id: string;
  label: string;
  content: ReactNode;
}

/**
 * The ARIA tabs pattern (arrow keys, Home, End; automatic activation) once scripts run. Without
 * JavaScript every panel is rendered, one after the other, under its own heading.
 */
export function ProductTabs({ tabs, label }: { tabs: TabDefinition[]; label: string }) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(0);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const listRef = useRef<HTMLDivElement>(null);

  // A link to #reviews (or another panel's id) selects that tab, on arrival and on a later click.
  const ids = tabs.map((tab) => tab.id).join(" ");
  useEffect(() => {
    const selectFromHash = (scroll: boolean) => {
      const index = ids.split(" ").findIndex((id) => `#${id}` === window.location.hash);
      if (index < 0) return;
      setSelected(index);
      if (scroll) requestAnimationFrame(() => listRef.current?.scrollIntoView({ block: "start" }));
    };
    selectFromHash(false);
    const onHashChange = () => selectFromHash(true);
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [ids]);

  const focusTab = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    setSelected(next);
    tabRefs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusTab(target);
  };

  // The same sections before and after hydration, so enhancing them changes attributes only: the
  // panels' content is neither re-rendered nor re-mounted (a cheap first update after hydration).
  return (
    <div className={hydrated ? undefined : "flex flex-col gap-12"}>
      {hydrated && (
        <div
          ref={listRef}
          role="tablist"
          aria-label={label}
          className="flex scroll-mt-24 gap-1 overflow-x-auto border-b border-gray-200"
        >
          {tabs.map((tab, index) => {
            const active = index === selected;
            return (
              <button
                key={tab.id}
                ref={(element) => {
                  tabRefs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${tab.id}-tab`}
                aria-selected={active}
                aria-controls={tab.id}
                tabIndex={active ? 0 : -1}
                onClick={() => setSelected(index)}
                onKeyDown={(event) => onKeyDown(event, index)}
                className={`-mb-px shrink-0 border-b-2 px-4 py-3 sm:px-5 text-sm font-semibold whitespace-nowrap transition ${
                  active
                    ? "border-brand-700 text-brand-700"
                    : "border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900"
                }`}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
      )}
      {tabs.map((tab, index) => (
        <section
          key={tab.id}
          id={tab.id}
          role={hydrated ? "tabpanel" : undefined}
          aria-labelledby={hydrated ? `${tab.id}-tab` : `${tab.id}-heading`}
          hidden={hydrated && index !== selected}
          tabIndex={hydrated ? 0 : undefined}
          className={hydrated ? "scroll-mt-24 pt-6 focus-visible:outline-offset-4" : "scroll-mt-24"}
        >
          <h2
            id={`${tab.id}-heading`}
            className={hydrated ? "sr-only" : "mb-4 border-b border-gray-200 pb-3 text-xl font-bold"}
          >
            {tab.label}
          </h2>
          {tab.content}
        </section>
      ))}
    </div>
  );
}
