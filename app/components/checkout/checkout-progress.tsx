import { Check } from "lucide-react";

const STEPS = [
  { id: "shipping", label: "Shipping" },
  { id: "payment", label: "Payment" },
  { id: "review", label: "Review" },
  { id: "confirmation", label: "Confirmation" },
] as const;

export type StepId = (typeof STEPS)[number]["id"];

/** The four steps, the current one marked (aria-current="step"), the finished ones ticked. */
export function CheckoutProgress({ current }: { current: StepId }) {
  const currentIndex = STEPS.findIndex((step) => step.id === current);
  return (
    <nav aria-label="Checkout progress" className="mt-6">
      <ol className="flex items-center gap-2 text-sm sm:gap-4">
        {STEPS.map((step, index) => {
          const done = index < currentIndex;
          const active = index === currentIndex;
          return (
            <li
              key={step.id}
              className="flex flex-1 items-center gap-2"
              aria-current={active ? "step" : undefined}
            >
              <span
                className={`flex size-8 shrink-0 items-center justify-center rounded-full border-2 font-bold ${
                  done
                    ? "border-brand-700 bg-brand-700 text-white"
                    : active
                      ? "border-brand-700 bg-white text-brand-800"
                      : "border-gray-400 bg-white text-gray-700"
                }`}
              >
                {done ? <Check aria-hidden="true" className="size-4" /> : index + 1}
              </span>
              <span className={`hidden sm:inline ${active ? "font-bold text-gray-900" : "text-gray-700"}`}>
                {step.label}
                {done && <span className="sr-only"> (completed)</span>}
              </span>
              {index < STEPS.length - 1 && <span aria-hidden="true" className="h-0.5 flex-1 bg-gray-300" />}
            </li>
          );
        })}
      </ol>
      <p className="mt-2 text-sm text-gray-700 sm:hidden">
        Step {currentIndex + 1} of {STEPS.length}: {STEPS[currentIndex]?.label}
      </p>
    </nav>
  );
}
