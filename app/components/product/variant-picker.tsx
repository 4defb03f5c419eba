import { Form, useNavigate } from "react-router";
import type { ProductOption, ValueChoice, VariantOffer } from "../../lib/variants.ts";
import { useHydrated } from "./use-hydrated.ts";

/**
 * One radio group per option (fieldset + legend; arrow keys move within it). The choice is in
 * the URL: with JavaScript a choice opens `?variant=<id>` (shareable, the back button returns);
 * without it the form is a GET of the chosen values, which the page answers with that variant.
 * Combinations that do not exist or are sold out stay choosable (the page then says so) but are
 * shown struck through and named unavailable.
 */
export function VariantPicker({
  path,
  options,
  choices,
  selected,
}: {
  path: string;
  options: ProductOption[];
  choices: ValueChoice[][];
  selected: VariantOffer;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  return (
    <Form method="get" action={path} className="flex flex-col gap-4" aria-label="Choose options">
      {options.map((option, index) => {
        const current = selected.values[option.position - 1];
        return (
          <fieldset key={option.position}>
            <legend className="text-sm font-semibold text-gray-900">
              {option.name}: <span className="font-normal text-gray-700">{current ?? "—"}</span>
            </legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {(choices[index] ?? []).map((choice) => (
                <label key={choice.value} className="relative">
                  <input
                    type="radio"
                    name={`option${option.position}`}
                    value={choice.value}
                    checked={current === choice.value}
                    onChange={() => {
                      if (choice.variantId !== null) {
                        navigate(`${path}?variant=${choice.variantId}`, { preventScrollReset: true });
                      }
                    }}
                    className="peer sr-only"
                  />
                  <span
                    className={`inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-lg border px-3 text-sm font-semibold peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:text-brand-800 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-700 peer-focus-visible:ring-offset-2 ${
                      choice.inStock
                        ? "border-gray-300 text-gray-900 hover:border-gray-500"
                        : "border-dashed border-gray-300 text-gray-600 line-through"
                    }`}
                  >
                    {choice.value}
                    {!choice.inStock && <span className="sr-only"> (unavailable)</span>}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
      {!hydrated && (
        <button
          type="submit"
          className="self-start rounded-lg border border-gray-400 px-4 py-2 text-sm font-semibold hover:bg-gray-100"
        >
          Show this choice
        </button>
      )}
    </Form>
  );
}
