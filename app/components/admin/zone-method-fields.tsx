import type { FieldMetadata, FieldName } from "@conform-to/react";
import {
  type BandValues,
  type MethodValues,
  RULE_LABELS,
  ZONE_LIMITS,
} from "../../domain/markets/zone-form.ts";
import { SHIPPING_RULES } from "../../lib/markets.ts";
import {
  asText,
  type ButtonProps,
  Field,
  ListError,
  REMOVE_BUTTON,
  SMALL_BUTTON,
} from "./zone-form-parts.tsx";

/**
 * One shipping method of the zone form: its code and name, its rate rule (flat, or bands by
 * subtotal or weight), its free-shipping threshold and delivery days. Its price fields follow its
 * rule by CSS alone (`:has()` on the checked rule), so the form needs no script to show the right
 * ones; bands are added and removed by list buttons (Conform intents, plain submit buttons).
 */
export function MethodFields({
  method,
  index,
  money,
  subtotalUnit,
  insertBand,
  removeBand,
  remove,
}: {
  method: FieldMetadata<MethodValues>;
  index: number;
  money: string;
  subtotalUnit: string;
  insertBand: (name: FieldName<BandValues[]>) => ButtonProps;
  removeBand: (name: FieldName<BandValues[]>, band: number) => ButtonProps;
  remove: ButtonProps;
}) {
  const fields = method.getFieldset();
  const bands = fields.bands.getFieldList();
  const n = index + 1;
  const id = `zone-method-${index}`;
  const context = <span className="sr-only"> (method {n})</span>;
  const rule = asText(fields.rule.initialValue) || "flat";
  const ruleError = fields.rule.errors?.[0];
  return (
    <fieldset className="group/method min-w-0 space-y-4 rounded-lg border border-gray-300 p-3 sm:p-4">
      <legend className="px-1 font-bold">Shipping method {n}</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Field
          field={fields.name}
          id={`${id}-name`}
          label={<>Method name{context}</>}
          required
          maxLength={ZONE_LIMITS.methodName + 20}
          hint="What shoppers choose at checkout, e.g. Standard Shipping."
        />
        <Field
          field={fields.code}
          id={`${id}-code`}
          label={<>Code{context}</>}
          maxLength={ZONE_LIMITS.code + 20}
          hint="What orders record, e.g. standard. Empty: made from the name."
        />
      </div>
      <fieldset className="min-w-0" aria-describedby={ruleError ? `${id}-rule-error` : undefined}>
        <legend className="text-sm font-semibold text-gray-900">How it is priced{context}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
          {SHIPPING_RULES.map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input
                key={`${fields.rule.key}-${option}`}
                type="radio"
                name={fields.rule.name}
                value={option}
                data-rule={option}
                defaultChecked={rule === option}
                className="h-4 w-4"
              />
              {RULE_LABELS[option]}
            </label>
          ))}
        </div>
        <ListError id={`${id}-rule-error`} errors={fields.rule.errors} />
      </fieldset>
      <div className="group-has-[[data-rule=subtotal]:checked]/method:hidden group-has-[[data-rule=weight]:checked]/method:hidden">
        <Field
          field={fields.flatPrice}
          id={`${id}-flatPrice`}
          label={
            <>
              Price {money}
              {context}
            </>
          }
          inputMode="decimal"
        />
      </div>
      <fieldset
        className="min-w-0 space-y-3 group-has-[[data-rule=flat]:checked]/method:hidden"
        aria-describedby={fields.bands.errors ? `${id}-bands-error ${id}-bands-hint` : `${id}-bands-hint`}
      >
        <legend className="text-sm font-semibold text-gray-900">Price bands{context}</legend>
        <p id={`${id}-bands-hint`} className="text-sm text-gray-600">
          From the lowest up: each band covers carts up to its limit. Leave the last band's limit empty for
          “and above”; filled in, heavier or dearer carts cannot use this method.
        </p>
        <ListError id={`${id}-bands-error`} errors={fields.bands.errors} />
        {bands.length > 0 && (
          <ol className="space-y-3">
            {bands.map((band, bandIndex) => (
              <BandRow
                key={band.key}
                band={band}
                id={`${id}-band-${bandIndex}`}
                label={`band ${bandIndex + 1} of method ${n}`}
                money={money}
                subtotalUnit={subtotalUnit}
                remove={removeBand(fields.bands.name, bandIndex)}
              />
            ))}
          </ol>
        )}
        <button className={SMALL_BUTTON} {...insertBand(fields.bands.name)}>
          Add band<span className="sr-only"> to method {n}</span>
        </button>
      </fieldset>
      <Field
        field={fields.freeOver}
        id={`${id}-freeOver`}
        label={
          <>
            Free from subtotal {money}
            {context}
          </>
        }
        inputMode="decimal"
        hint="Free when the order's subtotal reaches this amount. Leave it empty for never."
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          field={fields.daysMin}
          id={`${id}-daysMin`}
          label={<>Delivery from (business days){context}</>}
          required
          inputMode="numeric"
        />
        <Field
          field={fields.daysMax}
          id={`${id}-daysMax`}
          label={<>Delivery to (business days){context}</>}
          required
          inputMode="numeric"
        />
      </div>
      <button className={REMOVE_BUTTON} {...remove}>
        Remove method<span className="sr-only"> {n}</span>
      </button>
    </fieldset>
  );
}

function BandRow({
  band,
  id,
  label,
  money,
  subtotalUnit,
  remove,
}: {
  band: FieldMetadata<BandValues>;
  id: string;
  label: string;
  money: string;
  subtotalUnit: string;
  remove: ButtonProps;
}) {
  const fields = band.getFieldset();
  const context = <span className="sr-only"> ({label})</span>;
  return (
    <li className="grid grid-cols-1 items-start gap-3 rounded-lg border border-gray-200 p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
      <Field
        field={fields.upTo}
        id={`${id}-upTo`}
        label={
          <>
            Up to <span className="hidden group-has-[[data-rule=weight]:checked]/method:inline">(kg)</span>
            <span className="hidden group-has-[[data-rule=subtotal]:checked]/method:inline">
              {subtotalUnit}
            </span>
            {context}
          </>
        }
        inputMode="decimal"
      />
      <Field
        field={fields.price}
        id={`${id}-price`}
        label={
          <>
            Price {money}
            {context}
          </>
        }
        inputMode="decimal"
      />
      <div className="sm:pt-6">
        <button className={REMOVE_BUTTON} {...remove}>
          Remove band<span className="sr-only"> ({label})</span>
        </button>
      </div>
    </li>
  );
}
