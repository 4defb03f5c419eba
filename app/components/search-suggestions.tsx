import { type ChangeEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import type { SearchSuggestions } from "../domain/catalog/search-suggestions.server.ts";
import { useHydrated } from "./product/use-hydrated.ts";

/** What GET /search/suggestions?q= answers (app/routes/search.suggestions.tsx). */
type SearchSuggestionsResult = SearchSuggestions;

/** Suggestions are asked for from this many characters (the text trimmed), as the endpoint answers. */
export const SUGGEST_MIN_LENGTH = 2;
/** How long typing pauses before the suggestions are asked for. */
const DEBOUNCE_MS = 150;

interface Option {
  key: string;
  href: string;
  label: string;
  detail?: string;
}

/**
 * The search form's text box. Rendered on the server (and without JavaScript) as the plain
 * labelled search input of the GET form; once hydrated it becomes a combobox that suggests
 * products and categories from two characters on (WAI-ARIA APG "combobox with listbox popup",
 * list autocomplete with manual selection): the arrows move the highlight (wrapping), Enter
 * follows the highlighted suggestion or else submits the form, Escape closes the list and a
 * second Escape clears the box; a polite live region says how many suggestions there are.
 * The list is positioned against the nearest positioned ancestor (the form).
 */
export function SearchSuggestionsInput({
  id,
  name,
  defaultValue,
  maxLength,
  placeholder,
  className,
}: {
  id: string;
  name: string;
  defaultValue: string;
  maxLength: number;
  placeholder: string;
  className: string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const listboxId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  /** the trimmed text the suggestions are wanted for */
  const [query, setQuery] = useState("");
  /** the answer for the latest query (null: none yet, or the text is too short) */
  const [result, setResult] = useState<SearchSuggestionsResult | null>(null);
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const [announcement, setAnnouncement] = useState("");
  /** the query the latest request was made for: answers for any other are dropped */
  const latestQuery = useRef("");
  /** the request waiting for typing to pause, or under way */
  const pending = useRef<PendingRequest | null>(null);

  const options: Option[] = result
    ? [
        ...result.products.map((p) => ({
          key: `product-${p.id}`,
          href: p.href,
          label: p.name,
          detail: p.category,
        })),
        ...result.categories.map((c) => ({ key: `category-${c.href}`, href: c.href, label: c.label })),
      ]
    : [];
  const productCount = result?.products.length ?? 0;
  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  // Ask for suggestions once typing pauses; a newer text aborts the request for an older one.
  useEffect(() => {
    latestQuery.current = query;
    cancel(pending);
    if ([...query].length < SUGGEST_MIN_LENGTH) {
      setResult(null);
      setOpen(false);
      setActiveIndex(-1);
      setAnnouncement("");
      return;
    }
    const controller = new AbortController();
    const current = (): boolean => !controller.signal.aborted && latestQuery.current === query;
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/search/suggestions?${new URLSearchParams({ q: query })}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) throw new Error(`suggestions answered ${response.status}`);
        const answer = parseSuggestions(await response.json());
        if (!current()) return;
        pending.current = null;
        setResult(answer);
        setActiveIndex(-1);
        const count = answer.products.length + answer.categories.length;
        setAnnouncement(
          count === 0 ? "No suggestions" : `${count} ${count === 1 ? "suggestion" : "suggestions"}`,
        );
        // shown while the box has focus (not after the shopper moved on)
        setOpen(document.activeElement === inputRef.current);
      } catch {
        // aborted for a newer text, or no answer: the form still submits as without JavaScript
        if (!current()) return;
        pending.current = null;
        setResult(null);
        setOpen(false);
        setActiveIndex(-1);
      }
    }, DEBOUNCE_MS);
    pending.current = { timer, controller };
    return () => cancel(pending);
  }, [query]);

  // Close after every navigation (a suggestion or the form was followed), and drop what was asked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is the trigger, not a value read
  useEffect(() => {
    cancel(pending);
    setOpen(false);
    setActiveIndex(-1);
  }, [location.key]);

  // Keep the highlighted option in view when the list scrolls.
  useEffect(() => {
    if (activeIndex >= 0)
      document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: "nearest" });
  });

  const close = () => {
    setOpen(false);
    setActiveIndex(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (options.length === 0) return;
        event.preventDefault();
        const down = event.key === "ArrowDown";
        if (!expanded) {
          setOpen(true);
          setActiveIndex(down ? 0 : options.length - 1);
          return;
        }
        setActiveIndex((index) => {
          if (index < 0) return down ? 0 : options.length - 1;
          return (index + (down ? 1 : -1) + options.length) % options.length;
        });
        return;
      }
      case "Enter": {
        const option = expanded && activeIndex >= 0 ? options[activeIndex] : undefined;
        if (!option) {
          // no highlight: the form submits as it does without JavaScript (no list opens after it)
          cancel(pending);
          close();
          return;
        }
        event.preventDefault();
        cancel(pending);
        close();
        navigate(option.href);
        return;
      }
      case "Escape": {
        event.preventDefault();
        if (expanded) {
          close();
        } else if (event.currentTarget.value !== "") {
          // as a native search box does
          event.currentTarget.value = "";
          setQuery("");
          cancel(pending);
        }
        return;
      }
      default:
    }
  };

  const option = (item: Option, index: number) => {
    const active = index === activeIndex;
    return (
      <Link
        key={item.key}
        id={optionId(index)}
        to={item.href}
        role="option"
        aria-selected={active}
        tabIndex={-1}
        onClick={close}
        className={`block rounded-md px-3 py-2 text-sm text-gray-900 hover:bg-gray-100 ${
          active ? "bg-brand-50 outline-2 -outline-offset-2 outline-brand-700" : ""
        }`}
      >
        <span className="block font-medium">{item.label}</span>
        {item.detail ? <span className="block text-xs text-gray-700">{item.detail}</span> : null}
      </Link>
    );
  };

  /** A labelled group of options (APG's grouped listbox); `offset` is its first option's index. */
  const group = (label: string, items: Option[], offset: number) => {
    if (items.length === 0) return null;
    const labelId = `${listboxId}-${label.toLowerCase()}`;
    return (
      // biome-ignore lint/a11y/useSemanticElements: an ARIA group of options inside a listbox, not a form's fieldset
      <div role="group" aria-labelledby={labelId}>
        <div
          role="presentation"
          id={labelId}
          className="px-3 pt-2 pb-1 text-xs font-bold tracking-wide text-gray-700 uppercase"
        >
          {label}
        </div>
        {items.map((item, index) => option(item, offset + index))}
      </div>
    );
  };

  return (
    <>
      <input
        ref={inputRef}
        id={id}
        type="search"
        name={name}
        defaultValue={defaultValue}
        maxLength={maxLength}
        placeholder={placeholder}
        className={className}
        {...(hydrated
          ? {
              role: "combobox",
              autoComplete: "off",
              "aria-autocomplete": "list" as const,
              "aria-expanded": expanded,
              "aria-controls": listboxId,
              "aria-activedescendant": expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined,
              onChange: (event: ChangeEvent<HTMLInputElement>) => {
                setQuery(event.currentTarget.value.trim());
                setActiveIndex(-1);
              },
              onKeyDown,
              onBlur: close,
            }
          : {})}
      />
      {hydrated && (
        <>
          <div
            id={listboxId}
            role="listbox"
            aria-label="Search suggestions"
            hidden={!expanded}
            // keeps the focus in the box while an option is clicked
            onMouseDown={(event) => event.preventDefault()}
            className="absolute top-full right-0 left-0 z-50 mt-1 max-h-[70vh] overflow-y-auto rounded-xl border border-gray-200 bg-white p-1 text-left shadow-xl"
          >
            {group("Products", options.slice(0, productCount), 0)}
            {group("Categories", options.slice(productCount), productCount)}
          </div>
          <div role="status" className="sr-only">
            {announcement}
          </div>
        </>
      )}
    </>
  );
}

interface PendingRequest {
  timer: ReturnType<typeof setTimeout>;
  controller: AbortController;
}

/** Drops the request waiting for typing to pause, or aborts it if it is under way. */
function cancel(pending: { current: PendingRequest | null }) {
  if (!pending.current) return;
  clearTimeout(pending.current.timer);
  pending.current.controller.abort();
  pending.current = null;
}

/** A path on this site (not "//host/…"). */
const isSitePath = (href: unknown): href is string => typeof href === "string" && /^\/(?!\/)/.test(href);

/** The endpoint's answer, checked: anything else counts as no answer. */
function parseSuggestions(json: unknown): SearchSuggestionsResult {
  const body = json as Partial<SearchSuggestionsResult> | null;
  if (!body || !Array.isArray(body.products) || !Array.isArray(body.categories)) {
    throw new Error("not a suggestions answer");
  }
  return {
    query: String(body.query ?? ""),
    products: body.products.filter((p) => p && typeof p.name === "string" && isSitePath(p.href)),
    categories: body.categories.filter((c) => c && typeof c.label === "string" && isSitePath(c.href)),
  };
}
