import {
  COUPON_KIND_LABELS,
  COUPON_KINDS,
  type CouponField,
  type CouponFormValues,
} from "../../domain/coupons/coupon-form.ts";

const COUPON_FIELDS: readonly CouponField[] = [
  "code",
  "kind",
  "value",
  "minSubtotal",
  "usageLimit",
  "validThrough",
];

import { CURRENCY_FORMATS } from "../../lib/money.ts";
import { FormField } from "../checkout/form-field.tsx";
import { useShopSettings } from "../shop-settings.ts";

const SELECT = "mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-gray-900";

/** What the fields read of a field of Conform's `useForm`: its errors (the values come apart). */
export interface FieldState {
  initialValue?: unknown;
  errors?: string[];
}

/**
 * A coupon's fields, shared by the create and edit forms (a label on every input, the server's
 * message beside each, from the route's submission result through `useForm`): the values are the
 * refused form's as typed, else the stored coupon's (or the empty form's). On the edit form
 * the code is shown, not edited.
 */
export function CouponFields({
  values,
  fields,
  codeEditable,
}: {
  values: CouponFormValues;
  fields: Record<CouponField, FieldState>;
  codeEditable: boolean;
}) {
  // Conform's fieldset is a proxy: each field is read by name
  const errors: Partial<Record<CouponField, string>> = {};
  for (const name of COUPON_FIELDS) errors[name] = fields[name].errors?.[0];
  const currencySymbol = CURRENCY_FORMATS[useShopSettings().currency].symbol;
  return (
    <div className="space-y-5">
      {codeEditable && (
        <FormField
          id="coupon-code"
          name="code"
          label="Code"
          required
          maxLength={32}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          defaultValue={values.code}
          error={errors.code}
          hint="3 to 32 letters, digits, hyphens or underscores. Shoppers may type it in any case."
        />
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor="coupon-kind" className="block text-sm font-semibold text-gray-900">
            Kind<span aria-hidden="true"> *</span>
          </label>
          <select
            id="coupon-kind"
            name="kind"
            required
            defaultValue={values.kind}
            aria-invalid={errors.kind ? true : undefined}
            aria-describedby={errors.kind ? "coupon-kind-error" : undefined}
            className={`${SELECT} ${errors.kind ? "border-red-700 bg-red-50" : "border-gray-400"}`}
          >
            {COUPON_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {COUPON_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
          {errors.kind && (
            <p id="coupon-kind-error" className="mt-1 text-sm font-medium text-red-700">
              {errors.kind}
            </p>
          )}
        </div>
        <FormField
          id="coupon-value"
          name="value"
          label="Value (percent or $)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          defaultValue={values.value}
          error={errors.value}
          hint={`Percentage: a whole number from 1 to 100. Fixed amount: ${currencySymbol} off, e.g. 15.00.`}
        />
        <FormField
          id="coupon-min-subtotal"
          name="minSubtotal"
          label={`Minimum subtotal (${currencySymbol})`}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          defaultValue={values.minSubtotal}
          error={errors.minSubtotal}
          hint="0 for no minimum."
        />
        <FormField
          id="coupon-usage-limit"
          name="usageLimit"
          label="Usage limit (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          defaultValue={values.usageLimit}
          error={errors.usageLimit}
          hint="How many orders may use it. Empty for no limit."
        />
        <FormField
          id="coupon-valid-through"
          name="validThrough"
          label="Valid through (optional)"
          type="date"
          defaultValue={values.validThrough}
          error={errors.validThrough}
          hint="The last day the code works (UTC). Empty for no expiry."
        />
      </div>
    </div>
  );
}

/** "10% off" / "$15.00 off" (`money` writes the shop's currency: `useMoney()`). */
export function couponValueText(
  coupon: { kind: "percent" | "fixed"; amount: number },
  money: (cents: number) => string,
): string {
  return coupon.kind === "percent" ? `${coupon.amount}% off` : `${money(coupon.amount)} off`;
}
