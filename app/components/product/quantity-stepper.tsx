import { Minus, Plus } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "./use-hydrated.ts";

/** Keeps a quantity between 1 and max; anything unreadable becomes 1. */
export function clampQuantity(value: number, max: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(Math.max(1, Math.trunc(value)), Math.max(1, max));
}

/**
 * A labelled number input bounded 1..max (the browser enforces it without JavaScript too), with
 * − and + buttons that work once scripts run.
 */
export function QuantityStepper({
  id,
  max,
  disabled = false,
  name = "quantity",
}: {
  id: string;
  max: number;
  disabled?: boolean;
  name?: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState("1");
  const quantity = clampQuantity(Number(value), max);
  const step = (delta: number) => setValue(String(clampQuantity(quantity + delta, max)));
  const buttonClass =
    "flex size-11 items-center justify-center text-gray-700 hover:bg-gray-100 disabled:cursor-not-allowed disabled:text-gray-400 disabled:hover:bg-transparent";

  return (
    <div className="flex items-center gap-3">
      <label htmlFor={id} className="text-sm font-semibold text-gray-900">
        Quantity
      </label>
      <div className="inline-flex items-center overflow-hidden rounded-lg border border-gray-300 bg-white">
        <button
          type="button"
          aria-label="Decrease quantity"
          aria-controls={id}
          disabled={disabled || !hydrated || quantity <= 1}
          onClick={() => step(-1)}
          className={buttonClass}
        >
          <Minus aria-hidden="true" className="size-4" />
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={1}
          max={Math.max(1, max)}
          step={1}
          required
          disabled={disabled}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          onBlur={() => setValue(String(quantity))}
          className="h-11 w-14 border-x border-gray-300 text-center font-semibold [appearance:textfield] disabled:bg-gray-100 disabled:text-gray-500 [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
        />
        <button
          type="button"
          aria-label="Increase quantity"
          aria-controls={id}
          disabled={disabled || !hydrated || quantity >= max}
          onClick={() => step(1)}
          className={buttonClass}
        >
          <Plus aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}
