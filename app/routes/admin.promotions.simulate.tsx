import { Form, Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { FieldNote, INPUT } from "../components/admin/zone-form-parts.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  actionText,
  refusalText,
  SIMULATOR_ROWS,
  type SimulatorValues,
} from "../domain/promotions/promotion-form.ts";
import { parseSimulatorQuery } from "../domain/promotions/promotion-schema.server.ts";
import { simulatePromotions } from "../domain/promotions/promotion-simulator.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { countryName } from "../lib/countries.ts";
import type { Route } from "./+types/admin.promotions.simulate";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Simulate promotions", "/admin/promotions/simulate");

const KIND_LABELS = { product: "Products", order: "Order", shipping: "Shipping" } as const;

/**
 * Simulate: a cart of SKUs and quantities for a customer, a destination and a moment, priced as a
 * real cart would be, with every promotion considered and why each did or did not apply. A GET:
 * nothing is written, and the answer's address can be shared.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const shop = await shopSettingsFrom(context);
  const { markets } = shop;
  const countries = [...new Set(markets.zones.flatMap((zone) => zone.countries))]
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const methods = [
    ...new Map(markets.zones.flatMap((zone) => zone.methods.map((m) => [m.code, m.name]))).entries(),
  ];
  const query = parseSimulatorQuery(new URL(request.url).searchParams, new Date(), shop.timeZone);
  const values: SimulatorValues = {
    ...query.values,
    country: query.values.country || markets.estimateCountry,
  };
  const none: Record<string, string> = {};
  const base = { values, countries, methods, timeZone: shop.timeZone };
  if (!query.asked) return { ...base, errors: none, result: null };
  if (query.errors) return { ...base, errors: query.errors, result: null };
  const simulated = await simulatePromotions(servicesFrom(context).db, markets, query.input);
  if (!simulated.ok) {
    const error = simulated.error;
    const errors: Record<string, string> =
      error.code === "destination"
        ? { [error.field === "state" ? "region" : "country"]: error.message }
        : { "sku.0": `Unknown SKU ${error.skus.map((sku) => `“${sku}”`).join(", ")}.` };
    return { ...base, errors, result: null };
  }
  const { totals, applied, refused, lines, customer, shippingMethod } = simulated.value;
  const names = new Map([...applied, ...refused].map(({ promotion }) => [promotion.id, promotion.name]));
  const nameOf = (id: number) => names.get(id) ?? `promotion ${id}`;
  return {
    ...base,
    errors: none,
    result: {
      lines,
      customer,
      totals,
      shippingMethod,
      applied: applied.map(({ promotion, kind, amountCents }) => ({
        id: promotion.id,
        name: promotion.name,
        does: actionText(promotion.action, shop.currency),
        kind,
        amountCents,
      })),
      refused: refused.map(({ promotion, refusal }) => ({
        id: promotion.id,
        name: promotion.name,
        does: actionText(promotion.action, shop.currency),
        why: refusalText(refusal, shop.currency, nameOf),
      })),
    },
  };
}

function Input({
  id,
  name,
  label,
  value,
  error,
  hint,
  type = "text",
  inputMode,
  srLabel = false,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  type?: string;
  inputMode?: "numeric" | "email" | "text";
  srLabel?: boolean;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={srLabel ? "sr-only" : "block text-sm font-semibold text-gray-900"}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${INPUT} ${error ? "border-red-700 bg-red-50" : "border-gray-400"}`}
      />
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}

export default function SimulatePromotions({ loaderData }: Route.ComponentProps) {
  const money = useMoney();
  const { values, errors, countries, methods, result, timeZone } = loaderData;
  return (
    <section aria-labelledby="simulate-heading" className="max-w-4xl">
      <p>
        <Link to="/admin/promotions" className="font-semibold text-brand-700 hover:underline">
          ← Back to promotions
        </Link>
      </p>
      <h1 id="simulate-heading" className="mt-2 text-3xl font-bold">
        Simulate promotions
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        Build a cart and see which promotions apply, which do not and why, and the totals. No order is made
        and no use is counted. Promotions with a code are considered when their code is entered.
      </p>
      <Form method="get" className="mt-6 space-y-6">
        <fieldset className="min-w-0 space-y-3 rounded-xl border border-gray-200 p-3 sm:p-6">
          <legend className="px-1 text-lg font-bold">Cart</legend>
          {Array.from({ length: SIMULATOR_ROWS }, (_, row) => (
            <div key={row} className="grid grid-cols-[minmax(0,1fr)_6rem] gap-3">
              <Input
                id={`simulate-sku-${row}`}
                name="sku"
                label={`SKU, line ${row + 1}`}
                value={values.sku[row] ?? ""}
                error={errors[`sku.${row}`]}
              />
              <Input
                id={`simulate-quantity-${row}`}
                name="quantity"
                label={`Quantity, line ${row + 1}`}
                inputMode="numeric"
                value={values.quantity[row] ?? "1"}
                error={errors[`quantity.${row}`]}
              />
            </div>
          ))}
        </fieldset>
        <fieldset className="min-w-0 rounded-xl border border-gray-200 p-3 sm:p-6">
          <legend className="px-1 text-lg font-bold">Customer, destination and moment</legend>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Input
              id="simulate-email"
              name="email"
              type="email"
              label="Customer e-mail"
              value={values.email}
              error={errors.email}
              hint="Their account, earlier orders and uses count; empty: a new guest."
            />
            <Input
              id="simulate-code"
              name="code"
              label="Code entered"
              value={values.code}
              error={errors.code}
            />
            <div className="min-w-0">
              <label htmlFor="simulate-country" className="block text-sm font-semibold text-gray-900">
                Country
              </label>
              <select
                id="simulate-country"
                name="country"
                defaultValue={values.country}
                aria-invalid={errors.country ? true : undefined}
                aria-describedby={errors.country ? "simulate-country-error" : undefined}
                className={`${INPUT} ${errors.country ? "border-red-700 bg-red-50" : "border-gray-400"}`}
              >
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
              <FieldNote id="simulate-country" error={errors.country} />
            </div>
            <Input
              id="simulate-region"
              name="region"
              label="State or region"
              value={values.region}
              error={errors.region}
              hint="Where the zone asks for one (e.g. CA)."
            />
            <div className="min-w-0">
              <label htmlFor="simulate-method" className="block text-sm font-semibold text-gray-900">
                Shipping method
              </label>
              <select
                id="simulate-method"
                name="method"
                defaultValue={values.method}
                className={`${INPUT} border-gray-400`}
              >
                <option value="">The zone's first that can carry the cart</option>
                {methods.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name} ({code})
                  </option>
                ))}
              </select>
            </div>
            <Input
              id="simulate-at"
              name="at"
              type="datetime-local"
              label={`At (${timeZone})`}
              value={values.at}
              error={errors.at}
              hint="Empty: now."
            />
          </div>
        </fieldset>
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Simulate
        </button>
      </Form>

      {result && (
        <section aria-labelledby="simulation-heading" className="mt-10 space-y-6" aria-live="polite">
          <h2 id="simulation-heading" className="text-2xl font-bold">
            Result
          </h2>
          <p className="text-sm text-gray-700">
            {result.customer.signedIn ? "A signed-in customer" : "A guest"},{" "}
            {result.customer.firstOrder ? "first order" : "has ordered before"}
            {result.customer.signedIn &&
              (result.customer.groups.length === 0
                ? ", in no customer group"
                : `, in ${result.customer.groups.length === 1 ? "group" : "groups"} ${result.customer.groups.join(", ")}`)}
            {result.shippingMethod ? `, shipping by ${result.shippingMethod}` : ""}.
          </p>
          <div>
            <h3 className="text-lg font-bold">Applied</h3>
            {result.applied.length === 0 ? (
              <p className="mt-1 text-gray-700">No promotion applies to this cart.</p>
            ) : (
              <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200">
                {result.applied.map((promotion) => (
                  <li key={promotion.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                    <span className="min-w-0 break-words">
                      <Link
                        to={`/admin/promotions/${promotion.id}`}
                        className="font-semibold text-brand-700 hover:underline"
                      >
                        {promotion.name}
                      </Link>{" "}
                      <span className="text-sm text-gray-700">
                        ({KIND_LABELS[promotion.kind]}: {promotion.does})
                      </span>
                    </span>
                    <span className="font-semibold">−{money(promotion.amountCents)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="text-lg font-bold">Not applied</h3>
            {result.refused.length === 0 ? (
              <p className="mt-1 text-gray-700">Every promotion considered applied.</p>
            ) : (
              <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200">
                {result.refused.map((promotion) => (
                  <li key={promotion.id} className="px-3 py-2">
                    <Link
                      to={`/admin/promotions/${promotion.id}`}
                      className="font-semibold text-brand-700 hover:underline"
                    >
                      {promotion.name}
                    </Link>{" "}
                    <span className="text-sm text-gray-700">({promotion.does})</span>
                    <p className="text-sm">{promotion.why}</p>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="text-lg font-bold">Totals</h3>
            <dl className="mt-2 max-w-sm space-y-1">
              {[
                ["Subtotal", money(result.totals.subtotalCents)],
                ["Discount", `−${money(result.totals.discountCents)}`],
                ["Shipping", money(result.totals.shippingCents)],
                [result.totals.taxLabel || "Tax", money(result.totals.taxCents)],
                ["Total", money(result.totals.totalCents)],
              ].map(([label, value]) => (
                <div key={label} className="flex justify-between gap-4">
                  <dt>{label}</dt>
                  <dd className="font-semibold">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>
      )}
    </section>
  );
}
