import { type FieldMetadata, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import {
  type CountryOption,
  EMPTY_BAND,
  EMPTY_METHOD,
  EMPTY_REGIONAL_RATE,
  RATE_CLASSES,
  REGION_OPTIONS,
  REGION_WORDS,
  type RegionalRateValues,
  regionKey,
  TAX_CLASS_LABELS,
  ZONE_LIMITS,
  type ZoneFormValues,
} from "../../domain/markets/zone-form.ts";
import { AdminMessage, refusal } from "./admin-message.tsx";
import {
  asList,
  asText,
  type ButtonProps,
  Field,
  FieldNote,
  INPUT,
  ListError,
  REMOVE_BUTTON,
  SMALL_BUTTON,
} from "./zone-form-parts.tsx";
import { MethodFields } from "./zone-method-fields.tsx";

/**
 * The zone form (new and edit pages): the zone's countries and regions, its tax, and its shipping
 * methods with their bands. Conform's list intents add and remove methods, bands and regional
 * rates: plain submit buttons the server answers with the form as it was plus or minus a row, so
 * they work without JavaScript. A method's fields: zone-method-fields.tsx.
 */

const RATE_LABELS = {
  standard: "Standard rate (%)",
  reduced: "Reduced rate (%)",
  zero: "Zero rate (%)",
} as const;

const SECTION = "min-w-0 space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6";
const LEGEND = "px-1 text-lg font-bold";

export interface ZoneFormProps {
  /** the route's answer to the last post (a refusal, or the form with a row added or removed) */
  lastResult: SubmissionResult<string[]> | undefined;
  /** what the form shows first: the stored zone's values, or a new zone's */
  defaultValue: ZoneFormValues;
  /** every country, by name */
  countries: CountryOption[];
  currencySymbol: string;
  submitLabel: string;
}

export function ZoneForm({
  lastResult,
  defaultValue,
  countries,
  currencySymbol,
  submitLabel,
}: ZoneFormProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<ZoneFormValues>({ id: "zone-form", lastResult, defaultValue });
  const chosen = new Set(asList(fields.countries.initialValue));
  // the zone's countries first (in the list's order), then the others
  const countryList = [
    ...countries.filter((country) => chosen.has(country.code)),
    ...countries.filter((country) => !chosen.has(country.code)),
  ];
  const countryName = (code: string) => countries.find((country) => country.code === code)?.name ?? code;
  const countriesError = fields.countries.errors?.[0];
  const regions = fields.regions.getFieldset();
  const rates = fields.rates.getFieldset();
  const regionalRates = fields.regionalRates.getFieldList();
  const methods = fields.methods.getFieldList();
  const money = `(${currencySymbol})`;
  const subtotalUnit = `(subtotal, ${currencySymbol})`;
  return (
    <Form method="post" id={form.id} noValidate className="mt-6 space-y-6">
      {/* the default button: Enter in a field saves the zone (not the first list button) */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1}>
        {submitLabel}
      </button>
      <AdminMessage feedback={refusal(lastResult)} />

      <fieldset className={SECTION}>
        <legend className={LEGEND}>Zone</legend>
        <Field
          field={fields.name}
          id="zone-name"
          label="Zone name"
          required
          maxLength={ZONE_LIMITS.name + 20}
          hint="For you, e.g. Germany or North America; shoppers do not see it."
        />
        <fieldset
          className="min-w-0"
          aria-describedby={countriesError ? "zone-countries-error" : "zone-countries-hint"}
        >
          <legend className="text-sm font-semibold text-gray-900">
            Countries<span aria-hidden="true"> *</span>
          </legend>
          <p id="zone-countries-hint" className="mt-1 text-sm text-gray-600">
            The zone's countries are listed first. A country can be in one zone only (or, for the United
            States, Canada and Australia, each of its regions).
          </p>
          <ListError id="zone-countries-error" errors={fields.countries.errors} />
          <div className="mt-2 max-h-72 overflow-y-auto rounded-lg border border-gray-300 p-2">
            <ul className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
              {countryList.map((country) => (
                <li key={country.code}>
                  <label className="flex items-start gap-2 py-0.5 text-sm">
                    <input
                      type="checkbox"
                      name={fields.countries.name}
                      value={country.code}
                      defaultChecked={chosen.has(country.code)}
                      className="mt-0.5 h-4 w-4"
                    />
                    <span className="min-w-0">{country.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          </div>
        </fieldset>
        {Object.entries(REGION_OPTIONS).map(([country, options]) => {
          const field = regions[country as keyof typeof regions] as FieldMetadata<string[]> | undefined;
          const ticked = new Set(asList(field?.initialValue));
          const error = field?.errors?.[0];
          const words = REGION_WORDS[country] ?? "regions";
          return (
            <details
              key={country}
              open={ticked.size > 0 || Boolean(error)}
              className="rounded-lg border border-gray-300"
            >
              <summary className="cursor-pointer px-3 py-2 text-sm font-semibold">
                Only some {words} of {countryName(country)}
                {ticked.size > 0 ? ` (${ticked.size} chosen)` : ""}
              </summary>
              <fieldset
                className="min-w-0 px-3 pb-3"
                aria-describedby={error ? `zone-regions-${country}-error` : `zone-regions-${country}-hint`}
              >
                <legend className="sr-only">
                  The {words} of {countryName(country)} this zone covers
                </legend>
                <p id={`zone-regions-${country}-hint`} className="text-sm text-gray-600">
                  None ticked: all of {countryName(country)}, when it is one of the zone's countries.
                </p>
                <ListError id={`zone-regions-${country}-error`} errors={field?.errors} />
                <ul className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
                  {options.map((region) => (
                    <li key={region.code}>
                      <label className="flex items-start gap-2 py-0.5 text-sm">
                        <input
                          type="checkbox"
                          name={`regions.${country}`}
                          value={region.code}
                          defaultChecked={ticked.has(region.code)}
                          className="mt-0.5 h-4 w-4"
                        />
                        <span className="min-w-0">{region.name}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            </details>
          );
        })}
      </fieldset>

      <fieldset className={SECTION}>
        <legend className={LEGEND}>Tax</legend>
        <Field
          field={fields.taxLabel}
          id="zone-taxLabel"
          label="Tax label"
          required
          maxLength={ZONE_LIMITS.taxLabel + 20}
          hint="What shoppers read beside the tax: e.g. Including VAT, Sales tax or GST."
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {RATE_CLASSES.map((taxClass) => (
            <Field
              key={taxClass}
              field={rates[taxClass] as FieldMetadata<string>}
              id={`zone-rate-${taxClass}`}
              label={RATE_LABELS[taxClass]}
              required
              inputMode="decimal"
            />
          ))}
        </div>
        <p className="text-sm text-gray-700">
          Each product has a tax class; it is charged its class's rate here. Exempt products: always 0 %.
          Rates take up to 2 decimals, e.g. 19 or 8.25.
        </p>
        <div className="flex items-start gap-2">
          <input
            key={fields.taxShipping.key}
            id="zone-taxShipping"
            type="checkbox"
            name={fields.taxShipping.name}
            defaultChecked={fields.taxShipping.initialValue === "on"}
            aria-describedby="zone-taxShipping-hint"
            className="mt-1 h-4 w-4"
          />
          <div>
            <label htmlFor="zone-taxShipping" className="text-sm font-semibold text-gray-900">
              Charge tax on shipping
            </label>
            <p id="zone-taxShipping-hint" className="text-sm text-gray-600">
              At the zone's standard rate (as VAT usually is).
            </p>
          </div>
        </div>
        <fieldset className="min-w-0 space-y-3" aria-describedby="zone-regional-hint">
          <legend className="text-base font-bold">Regional rates</legend>
          <p id="zone-regional-hint" className="text-sm text-gray-600">
            A rate of its own for a US state, Canadian province or Australian state of this zone (e.g. a
            state's sales tax); elsewhere in the zone the rates above apply.
          </p>
          <ListError id="zone-regional-error" errors={fields.regionalRates.errors} />
          {regionalRates.length > 0 && (
            <ol className="space-y-3">
              {regionalRates.map((rate, index) => (
                <RegionalRateRow
                  key={rate.key}
                  rate={rate}
                  index={index}
                  countryName={countryName}
                  remove={form.remove.getButtonProps({ name: fields.regionalRates.name, index })}
                />
              ))}
            </ol>
          )}
          <button
            className={SMALL_BUTTON}
            {...form.insert.getButtonProps({
              name: fields.regionalRates.name,
              defaultValue: EMPTY_REGIONAL_RATE,
            })}
          >
            Add regional rate
          </button>
        </fieldset>
      </fieldset>

      <fieldset className={SECTION}>
        <legend className={LEGEND}>Shipping methods</legend>
        <p className="text-sm text-gray-700">
          Offered at checkout in this order. A method that cannot carry a cart (heavier or dearer than its
          last band) is not offered for it.
        </p>
        <ListError id="zone-methods-error" errors={fields.methods.errors} />
        {methods.map((method, index) => (
          <MethodFields
            key={method.key}
            method={method}
            index={index}
            money={money}
            subtotalUnit={subtotalUnit}
            insertBand={(name) => form.insert.getButtonProps({ name, defaultValue: EMPTY_BAND })}
            removeBand={(name, band) => form.remove.getButtonProps({ name, index: band })}
            remove={form.remove.getButtonProps({ name: fields.methods.name, index })}
          />
        ))}
        <button
          className={SMALL_BUTTON}
          {...form.insert.getButtonProps({ name: fields.methods.name, defaultValue: EMPTY_METHOD })}
        >
          Add shipping method
        </button>
      </fieldset>

      <button
        type="submit"
        name="intent"
        value="save"
        disabled={busy}
        className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {submitLabel}
      </button>
    </Form>
  );
}

function RegionalRateRow({
  rate,
  index,
  countryName,
  remove,
}: {
  rate: FieldMetadata<RegionalRateValues>;
  index: number;
  countryName: (code: string) => string;
  remove: ButtonProps;
}) {
  const row = rate.getFieldset();
  const n = index + 1;
  const context = <span className="sr-only"> (regional rate {n})</span>;
  const regionError = row.region.errors?.[0];
  const classError = row.taxClass.errors?.[0];
  const id = `zone-regional-${index}`;
  return (
    <li className="grid grid-cols-1 items-start gap-3 rounded-lg border border-gray-200 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
      <div className="min-w-0">
        <label htmlFor={`${id}-region`} className="block text-sm font-semibold text-gray-900">
          Region{context}
        </label>
        <select
          key={row.region.key}
          id={`${id}-region`}
          name={row.region.name}
          defaultValue={asText(row.region.initialValue)}
          aria-invalid={regionError ? true : undefined}
          aria-describedby={regionError ? `${id}-region-error` : undefined}
          className={`${INPUT} bg-white ${regionError ? "border-red-700 bg-red-50" : "border-gray-400"}`}
        >
          <option value="">Choose a region</option>
          {Object.entries(REGION_OPTIONS).map(([country, options]) => (
            <optgroup key={country} label={countryName(country)}>
              {options.map((region) => (
                <option key={region.code} value={regionKey(country, region.code)}>
                  {region.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <FieldNote id={`${id}-region`} error={regionError} />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-class`} className="block text-sm font-semibold text-gray-900">
          Tax class{context}
        </label>
        <select
          key={row.taxClass.key}
          id={`${id}-class`}
          name={row.taxClass.name}
          defaultValue={asText(row.taxClass.initialValue) || "standard"}
          aria-invalid={classError ? true : undefined}
          aria-describedby={classError ? `${id}-class-error` : undefined}
          className={`${INPUT} bg-white ${classError ? "border-red-700 bg-red-50" : "border-gray-400"}`}
        >
          {RATE_CLASSES.map((taxClass) => (
            <option key={taxClass} value={taxClass}>
              {TAX_CLASS_LABELS[taxClass]}
            </option>
          ))}
        </select>
        <FieldNote id={`${id}-class`} error={classError} />
      </div>
      <Field field={row.rate} id={`${id}-rate`} label={<>Rate (%){context}</>} inputMode="decimal" />
      <div className="sm:col-span-3">
        <button className={REMOVE_BUTTON} {...remove}>
          Remove rate<span className="sr-only"> {n}</span>
        </button>
      </div>
    </li>
  );
}
