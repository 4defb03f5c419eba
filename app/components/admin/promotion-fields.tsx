import { type FieldMetadata, type SubmissionResult, useForm } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import {
  ACTION_LABELS,
  CATEGORY_CHOICES,
  PROMOTION_LIMITS,
  type PromotionFormValues,
  SELECTION_LABELS,
  SELECTIONS,
  type TargetValues,
} from "../../domain/promotions/promotion-form.ts";
import { AdminMessage, refusal } from "./admin-message.tsx";
import { asList, asText, Field, FieldNote, INPUT } from "./zone-form-parts.tsx";

/**
 * The promotion form (new and edit pages): what the promotion does (the fields of its action
 * type, chosen before the form opens), when it applies, its limits and its schedule. Plain fields
 * and checkboxes, so it works without JavaScript.
 */

const SECTION = "min-w-0 space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6";
const LEGEND = "px-1 text-lg font-bold";
const GRID = "grid grid-cols-1 gap-4 sm:grid-cols-2";

export interface PromotionFormProps {
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue: PromotionFormValues;
  zones: { id: string; name: string }[];
  /** the shipping methods' codes across zones, with their names */
  methods: { code: string; name: string }[];
  campaigns: { id: string; name: string }[];
  /** the customer groups a condition may name */
  groups?: { id: string; name: string }[];
  /** the shop's: the start and end are typed on its clocks */
  timeZone: string;
  currencySymbol: string;
  submitLabel: string;
}

function Checkbox({
  field,
  id,
  label,
  hint,
}: {
  field: FieldMetadata<boolean>;
  id: string;
  label: string;
  hint?: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        key={field.key}
        type="checkbox"
        id={id}
        name={field.name}
        defaultChecked={field.initialValue === "on"}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-1 h-4 w-4"
      />
      <div>
        <label htmlFor={id} className="text-sm font-semibold text-gray-900">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-sm text-gray-600">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

/** A group of checkboxes posting one name many times, with its message. */
function Choices({
  field,
  id,
  legend,
  hint,
  options,
}: {
  field: FieldMetadata<string[]>;
  id: string;
  legend: ReactNode;
  hint?: string;
  options: { value: string; label: string }[];
}) {
  const ticked = new Set(asList(field.initialValue));
  const error = field.errors?.[0];
  return (
    <fieldset className="min-w-0" aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend className="text-sm font-semibold text-gray-900">{legend}</legend>
      <ul className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-3">
        {options.map((option) => (
          <li key={option.value}>
            <label className="flex items-start gap-2 py-0.5 text-sm">
              <input
                type="checkbox"
                name={field.name}
                value={option.value}
                defaultChecked={ticked.has(option.value)}
                className="mt-0.5 h-4 w-4"
              />
              <span className="min-w-0 break-words">{option.label}</span>
            </label>
          </li>
        ))}
      </ul>
      <FieldNote id={id} hint={hint} error={error} />
    </fieldset>
  );
}

const CATEGORY_OPTIONS = CATEGORY_CHOICES.map((category) => ({
  value: category,
  label: category.charAt(0).toUpperCase() + category.slice(1),
}));

/** Which items: products or SKUs, categories, brands (nothing named: every item). */
function TargetFields({
  field,
  id,
  legend,
  hint,
}: {
  field: FieldMetadata<TargetValues>;
  id: string;
  legend: string;
  hint: string;
}) {
  const target = field.getFieldset();
  return (
    <fieldset className="min-w-0 space-y-3 rounded-lg border border-gray-300 p-3">
      <legend className="px-1 text-sm font-bold">{legend}</legend>
      <p className="text-sm text-gray-600">{hint}</p>
      <Field
        field={target.refs}
        id={`${id}-refs`}
        label="Products or SKUs"
        hint="SKUs or product address names (e.g. classic-tee), separated by commas."
        maxLength={PROMOTION_LIMITS.refs * 40}
      />
      <Choices
        field={target.categories}
        id={`${id}-categories`}
        legend="Categories"
        options={CATEGORY_OPTIONS}
      />
      <Field
        field={target.brands}
        id={`${id}-brands`}
        label="Brands"
        hint="As written on the products, separated by commas."
        maxLength={PROMOTION_LIMITS.brands * 40}
      />
    </fieldset>
  );
}

function DateTimeField({
  field,
  id,
  label,
  hint,
}: {
  field: FieldMetadata<string>;
  id: string;
  label: string;
  hint: string;
}) {
  const error = field.errors?.[0];
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
        {label}
      </label>
      <input
        key={field.key}
        id={id}
        name={field.name}
        type="datetime-local"
        defaultValue={asText(field.initialValue)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        className={`${INPUT} ${error ? "border-red-700 bg-red-50" : "border-gray-400"}`}
      />
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}

function SelectField({
  field,
  id,
  label,
  options,
  hint,
}: {
  field: FieldMetadata<string>;
  id: string;
  label: string;
  options: { value: string; label: string }[];
  hint?: string;
}) {
  const error = field.errors?.[0];
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
        {label}
      </label>
      <select
        key={field.key}
        id={id}
        name={field.name}
        defaultValue={asText(field.initialValue)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${INPUT} ${error ? "border-red-700 bg-red-50" : "border-gray-400"}`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}

export function PromotionForm({
  lastResult,
  defaultValue,
  zones,
  methods,
  campaigns,
  groups = [],
  timeZone,
  currencySymbol,
  submitLabel,
}: PromotionFormProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<PromotionFormValues>({ id: "promotion-form", lastResult, defaultValue });
  const type = defaultValue.actionType;
  const money = `(${currencySymbol})`;
  const selection = (
    <SelectField
      field={fields.apply}
      id="promotion-apply"
      label="Takes from"
      options={SELECTIONS.map((value) => ({ value, label: SELECTION_LABELS[value] }))}
    />
  );
  return (
    <Form method="post" id={form.id} noValidate className="mt-6 space-y-6">
      <input type="hidden" name="actionType" value={type} />
      <input type="hidden" name="intent" value="save" />
      <AdminMessage feedback={refusal(lastResult)} />

      <fieldset className={SECTION}>
        <legend className={LEGEND}>Promotion</legend>
        <Field
          field={fields.name}
          id="promotion-name"
          label="Name"
          required
          maxLength={PROMOTION_LIMITS.name + 20}
          hint="Shoppers see it in the cart and at checkout, e.g. Summer sale."
        />
        <Field
          field={fields.code}
          id="promotion-code"
          label="Code"
          maxLength={PROMOTION_LIMITS.code + 20}
          hint="Leave empty to apply it automatically to every cart that qualifies."
        />
        <div className={GRID}>
          <Field
            field={fields.priority}
            id="promotion-priority"
            label="Priority"
            inputMode="numeric"
            maxLength={6}
            hint="Higher applies first; equal ones by age."
          />
        </div>
        <Checkbox
          field={fields.combines}
          id="promotion-combines"
          label="Combines with other promotions of its kind"
          hint="Product, order and shipping promotions are separate kinds; one that does not combine applies alone in its kind."
        />
        <Checkbox field={fields.active} id="promotion-active" label="Active" hint="Untick to pause it." />
      </fieldset>

      <fieldset className={SECTION}>
        <legend className={LEGEND}>What it does: {ACTION_LABELS[type].label}</legend>
        {(type === "order-percent" || type === "items-percent") && (
          <div className={GRID}>
            <Field
              field={fields.percent}
              id="promotion-percent"
              label="Percentage off (%)"
              required
              inputMode="decimal"
              maxLength={8}
            />
            {type === "items-percent" && selection}
          </div>
        )}
        {(type === "order-fixed" || type === "items-fixed") && (
          <div className={GRID}>
            <Field
              field={fields.amount}
              id="promotion-amount"
              label={`Amount off ${money}`}
              required
              inputMode="decimal"
              maxLength={12}
              hint={
                type === "items-fixed"
                  ? "Off each item it takes from, never more than the item costs."
                  : undefined
              }
            />
            {type === "items-fixed" && selection}
          </div>
        )}
        {(type === "items-percent" || type === "items-fixed") && (
          <TargetFields
            field={fields.target}
            id="promotion-target"
            legend="Which items"
            hint="Nothing named: every item in the cart."
          />
        )}
        {type === "buy-x-get-y" && (
          <>
            <div className={GRID}>
              <Field
                field={fields.quantity}
                id="promotion-quantity"
                label="Buy (units)"
                required
                inputMode="numeric"
                maxLength={5}
              />
              <Field
                field={fields.getQuantity}
                id="promotion-getQuantity"
                label="Get (units)"
                required
                inputMode="numeric"
                maxLength={5}
              />
              <Field
                field={fields.getPercent}
                id="promotion-getPercent"
                label="Off the units given (%)"
                required
                inputMode="decimal"
                maxLength={8}
                hint="100 gives them free."
              />
              <Field
                field={fields.maxTimes}
                id="promotion-maxTimes"
                label="At most (times per order)"
                inputMode="numeric"
                maxLength={5}
                hint="It repeats for every multiple in the cart; empty: no maximum."
              />
            </div>
            <TargetFields
              field={fields.target}
              id="promotion-target"
              legend="Items to buy"
              hint="Nothing named: any item."
            />
            <TargetFields
              field={fields.getTarget}
              id="promotion-getTarget"
              legend="Items given"
              hint="Nothing named: the same items as those to buy. The cheapest are given."
            />
          </>
        )}
        {type === "set-price" && (
          <>
            <div className={GRID}>
              <Field
                field={fields.quantity}
                id="promotion-quantity"
                label="Units in a set"
                required
                inputMode="numeric"
                maxLength={5}
              />
              <Field
                field={fields.amount}
                id="promotion-amount"
                label={`Price of a set ${money}`}
                required
                inputMode="decimal"
                maxLength={12}
              />
              <Field
                field={fields.maxTimes}
                id="promotion-maxTimes"
                label="At most (sets per order)"
                inputMode="numeric"
                maxLength={5}
                hint="Empty: no maximum."
              />
            </div>
            <TargetFields
              field={fields.target}
              id="promotion-target"
              legend="Items in the set"
              hint="Nothing named: any item."
            />
          </>
        )}
        {type === "free-shipping" && (
          <Choices
            field={fields.methods}
            id="promotion-methods"
            legend="By these methods"
            hint="None ticked: every method."
            options={methods.map((method) => ({ value: method.code, label: method.name }))}
          />
        )}
      </fieldset>

      <fieldset className={SECTION}>
        <legend className={LEGEND}>When it applies</legend>
        <p className="text-sm text-gray-600">
          All filled-in conditions must be met; empty ones are not checked.
        </p>
        <div className={GRID}>
          <Field
            field={fields.minSubtotal}
            id="promotion-minSubtotal"
            label={`Minimum subtotal ${money}`}
            inputMode="decimal"
            maxLength={12}
          />
          <Field
            field={fields.minQuantity}
            id="promotion-minQuantity"
            label="Minimum items in the cart"
            inputMode="numeric"
            maxLength={5}
          />
          <Field
            field={fields.itemsQuantity}
            id="promotion-itemsQuantity"
            label="Units of the items below the cart must hold"
            inputMode="numeric"
            maxLength={5}
          />
        </div>
        <TargetFields
          field={fields.itemsTarget}
          id="promotion-itemsTarget"
          legend="Items the cart must hold"
          hint="Nothing named: this condition is not checked."
        />
        <Checkbox
          field={fields.firstOrder}
          id="promotion-firstOrder"
          label="Only on a customer's first order"
        />
        <Checkbox field={fields.signedIn} id="promotion-signedIn" label="Only for signed-in customers" />
        <Choices
          field={fields.zones}
          id="promotion-zones"
          legend="Only for destinations in these zones"
          hint="None ticked: every zone."
          options={zones.map((zone) => ({ value: zone.id, label: zone.name }))}
        />
        <Choices
          field={fields.groups}
          id="promotion-groups"
          legend="Only for signed-in members of these customer groups"
          hint={
            groups.length === 0
              ? "No customer groups yet (Admin → Customer groups)."
              : "None ticked: every customer. Ticked: a member of any of them."
          }
          options={groups.map((group) => ({ value: group.id, label: group.name }))}
        />
      </fieldset>

      <fieldset className={SECTION}>
        <legend className={LEGEND}>Limits and schedule</legend>
        <div className={GRID}>
          <DateTimeField
            field={fields.startsAt}
            id="promotion-startsAt"
            label={`Starts (${timeZone})`}
            hint="Empty: from now."
          />
          <DateTimeField
            field={fields.endsAt}
            id="promotion-endsAt"
            label={`Ends (${timeZone})`}
            hint="Empty: until you end it."
          />
          <Field
            field={fields.usageLimit}
            id="promotion-usageLimit"
            label="Total uses"
            inputMode="numeric"
            maxLength={8}
            hint="Orders it may apply to; empty: no limit."
          />
          <Field
            field={fields.perCustomerLimit}
            id="promotion-perCustomerLimit"
            label="Uses per customer"
            inputMode="numeric"
            maxLength={8}
            hint="By account, or by e-mail for guests; empty: no limit."
          />
          <SelectField
            field={fields.campaignId}
            id="promotion-campaignId"
            label="Campaign"
            hint="Its promotions together never give more than its budget."
            options={[
              { value: "", label: "None" },
              ...campaigns.map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
        </div>
      </fieldset>

      <button
        type="submit"
        disabled={busy}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {submitLabel}
      </button>
    </Form>
  );
}
