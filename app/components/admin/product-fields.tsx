import {
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  type ProductFormValues,
} from "../../domain/catalog/admin/product-form.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import { TAX_CLASS_LABELS, TAX_CLASSES } from "../../lib/markets.ts";
import { CURRENCY_FORMATS } from "../../lib/money.ts";
import { FormField } from "../checkout/form-field.tsx";
import { useShopSettings } from "../shop-settings.ts";

/** What the fields read of a field of Conform's `useForm`: its errors (the values come apart). */
export interface FieldState {
  initialValue?: unknown;
  errors?: string[];
}

const PRODUCT_FIELDS: readonly ProductField[] = [
  "name",
  "description",
  "price",
  "originalPrice",
  "category",
  "subcategory",
  "brand",
  "stock",
  "taxClass",
  "weight",
  "specifications",
];

const SELECT =
  "mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900 aria-[invalid=true]:border-red-700";
const BLANK_SPEC_ROWS = 3;

/**
 * The product's fields, shared by the add and edit forms (labels on every input): the values to
 * show, and each field's message from the route's submission result (Conform's `useForm`). The
 * stock and the weight are its one variant's: `withStock` on the add form (the edit page changes
 * stock by a delta), `withWeight` unless the product is sold in variants (the grid has theirs).
 */
export function ProductFields({
  values,
  fields,
  withStock,
  withWeight,
}: {
  values: ProductFormValues;
  fields: Record<ProductField, FieldState>;
  withStock: boolean;
  withWeight: boolean;
}) {
  // Conform's fieldset is a proxy: each field is read by name
  const errors: Partial<Record<ProductField, string>> = {};
  for (const name of PRODUCT_FIELDS) errors[name] = fields[name].errors?.[0];
  const currencySymbol = CURRENCY_FORMATS[useShopSettings().currency].symbol;
  const specRows = [
    ...values.specifications,
    ...Array.from({ length: BLANK_SPEC_ROWS }, () => ({ name: "", value: "" })),
  ];
  const described = (field: ProductField) =>
    errors[field] ? { "aria-invalid": true, "aria-describedby": `product-${field}-error` } : {};
  const errorText = (field: ProductField) =>
    errors[field] ? (
      <p id={`product-${field}-error`} className="mt-1 text-sm font-medium text-red-700">
        {errors[field]}
      </p>
    ) : null;
  return (
    <div className="space-y-5">
      <FormField
        id="product-name"
        name="name"
        label="Name"
        required
        maxLength={200}
        defaultValue={values.name}
        error={errors.name}
      />
      <div>
        <label htmlFor="product-description" className="block text-sm font-semibold text-gray-900">
          Description<span aria-hidden="true"> *</span>
        </label>
        <textarea
          id="product-description"
          name="description"
          required
          rows={5}
          maxLength={5000}
          defaultValue={values.description}
          className={`${SELECT} ${errors.description ? "border-red-700 bg-red-50" : ""}`}
          {...described("description")}
        />
        {errorText("description")}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          id="product-price"
          name="price"
          label={`Price (${currencySymbol})`}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          defaultValue={values.price}
          error={errors.price}
        />
        <FormField
          id="product-original-price"
          name="originalPrice"
          label={`Original price (${currencySymbol}, optional)`}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          defaultValue={values.originalPrice}
          error={errors.originalPrice}
          hint="Shown struck through when higher than the price."
        />
        <div>
          <label htmlFor="product-category" className="block text-sm font-semibold text-gray-900">
            Category<span aria-hidden="true"> *</span>
          </label>
          <select
            id="product-category"
            name="category"
            required
            defaultValue={values.category}
            className={SELECT}
            {...described("category")}
          >
            <option value="">Choose a category</option>
            {CATEGORY_TREE.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          {errorText("category")}
        </div>
        <div>
          <label htmlFor="product-subcategory" className="block text-sm font-semibold text-gray-900">
            Subcategory (optional)
          </label>
          <select
            id="product-subcategory"
            name="subcategory"
            defaultValue={values.subcategory}
            className={SELECT}
            {...described("subcategory")}
          >
            <option value="">None</option>
            {CATEGORY_TREE.filter((c) => c.subcategories.length > 0).map((category) => (
              <optgroup key={category.id} label={category.name}>
                {category.subcategories.map((sub) => (
                  <option key={sub.id} value={sub.id}>
                    {sub.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          {errorText("subcategory")}
        </div>
        <FormField
          id="product-brand"
          name="brand"
          label="Brand"
          required
          maxLength={100}
          defaultValue={values.brand}
          error={errors.brand}
        />
        {withStock && (
          <FormField
            id="product-stock"
            name="stock"
            label="Stock"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            required
            defaultValue={values.stock}
            error={errors.stock}
          />
        )}
        <div>
          <label htmlFor="product-taxClass" className="block text-sm font-semibold text-gray-900">
            Tax class
          </label>
          <select
            id="product-taxClass"
            name="taxClass"
            defaultValue={values.taxClass}
            className={SELECT}
            aria-invalid={errors.taxClass ? true : undefined}
            aria-describedby={errors.taxClass ? "product-taxClass-error" : "product-taxClass-hint"}
          >
            {TAX_CLASSES.map((taxClass) => (
              <option key={taxClass} value={taxClass}>
                {TAX_CLASS_LABELS[taxClass]}
              </option>
            ))}
          </select>
          {errors.taxClass ? (
            errorText("taxClass")
          ) : (
            <p id="product-taxClass-hint" className="mt-1 text-sm text-gray-600">
              {PRODUCT_FORM_MESSAGES.taxClassHint}
            </p>
          )}
        </div>
        {withWeight && (
          <FormField
            id="product-weight"
            name="weight"
            label="Weight (kg)"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={values.weight ?? ""}
            error={errors.weight}
            hint={PRODUCT_FORM_MESSAGES.weightHint}
          />
        )}
      </div>
      <fieldset className="rounded-lg border border-gray-300 p-4">
        <legend className="px-1 text-sm font-semibold text-gray-900">Specifications (optional)</legend>
        {errorText("specifications")}
        <div className="space-y-3">
          {specRows.map((row, index) => (
            <div key={index} className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`spec-name-${index}`} className="block text-sm text-gray-900">
                  Specification {index + 1} name
                </label>
                <input
                  id={`spec-name-${index}`}
                  name="specName"
                  maxLength={100}
                  defaultValue={row.name}
                  className={SELECT}
                />
              </div>
              <div>
                <label htmlFor={`spec-value-${index}`} className="block text-sm text-gray-900">
                  Specification {index + 1} value
                </label>
                <input
                  id={`spec-value-${index}`}
                  name="specValue"
                  maxLength={500}
                  defaultValue={row.value}
                  className={SELECT}
                />
              </div>
            </div>
          ))}
        </div>
        <p className="mt-2 text-sm text-gray-700">Empty rows are ignored. Save to get more blank rows.</p>
      </fieldset>
      <fieldset className="rounded-lg border border-gray-300 p-4">
        <legend className="px-1 text-sm font-semibold text-gray-900">Highlights</legend>
        <div className="flex flex-wrap gap-6">
          {(
            [
              ["featured", "Featured"],
              ["newArrival", "New arrival"],
              ["bestSeller", "Best seller"],
            ] as const
          ).map(([name, label]) => (
            <div key={name} className="flex items-center gap-2">
              <input
                id={`product-${name}`}
                type="checkbox"
                name={name}
                defaultChecked={values[name]}
                className="size-5"
              />
              <label htmlFor={`product-${name}`} className="text-sm text-gray-900">
                {label}
              </label>
            </div>
          ))}
        </div>
      </fieldset>
      <div className="flex items-start gap-2">
        <input
          id="product-giftCard"
          type="checkbox"
          name="giftCard"
          defaultChecked={values.giftCard}
          aria-describedby="product-giftCard-hint"
          className="mt-0.5 size-5"
        />
        <div>
          <label htmlFor="product-giftCard" className="text-sm font-semibold text-gray-900">
            Sold as a gift card
          </label>
          <p id="product-giftCard-hint" className="text-sm text-gray-700">
            Each variant's price is a card's amount. Buyers name a recipient; the code is e-mailed once the
            order is paid. No shipping, no tax, no promotions.
          </p>
        </div>
      </div>
    </div>
  );
}
