import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { deleteZone, readZonesOverview, saveMarketSettings } from "../domain/markets/zone-admin.server.ts";
import {
  ZONE_MESSAGES as M,
  ROUNDING_LABELS,
  zoneRefusal,
  zoneSummary,
} from "../domain/markets/zone-form.ts";
import { zoneListActionSchema } from "../domain/markets/zone-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { countryName } from "../lib/countries.ts";
import { formatMoney } from "../lib/money.ts";
import type { Route } from "./+types/admin.settings_.zones._index";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Shipping and tax zones", "/admin/settings/zones");

const PATH = "/admin/settings/zones";

/** The owner's list of zones (in the order destinations are matched) and the market settings. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const { db } = servicesFrom(context);
  const [{ settings, zones }, shop] = await Promise.all([readZonesOverview(db), shopSettingsFrom(context)]);
  const money = (cents: number) => formatMoney(cents, shop.currency);
  const covered = [...new Set(zones.flatMap((zone) => zone.countries))]
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  return {
    settings: {
      pricesIncludeTax: settings.pricesIncludeTax,
      taxRounding: settings.taxRounding,
      estimateCountry: settings.estimateCountry,
    },
    zones: zones.map((zone) => zoneSummary(zone, money)),
    estimateCountries: covered,
  };
}

/** `markets` (the market settings), and per zone `delete` (confirmed). */
export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "settings");
  const actor = { id: owner.id, email: owner.email, role: owner.role };
  const submission = await parseForm(request, zoneListActionSchema, { disableAutoCoercion: true });
  const intent = typeof submission.payload.intent === "string" ? submission.payload.intent : null;
  const zoneId = typeof submission.payload.zoneId === "string" ? submission.payload.zoneId : null;
  const refuse = (status: number, message: string, fieldErrors?: Record<string, string[]>) =>
    data({ intent, zoneId, result: submission.reply({ formErrors: [message], fieldErrors }) }, { status });
  if (submission.status !== "success") {
    return refuse(400, intent === "markets" ? M.invalid : M.badRequest);
  }
  const { db } = servicesFrom(context);
  const form = submission.value;
  if (form.intent === "markets") {
    const saved = await saveMarketSettings(db, { settings: form.settings, actor });
    if (!saved.ok) {
      const { status, message } = zoneRefusal(saved.error);
      return saved.error.code === "estimate-uncovered"
        ? refuse(status, M.invalid, { estimateCountry: [M.estimateCountry] })
        : refuse(status, message);
    }
    return redirectWithToast(PATH, {
      type: "success",
      message: saved.value.changed ? M.marketsSaved : M.unchanged,
    });
  }
  // shoppers there can no longer check out: only from the confirm step
  if (!form.confirmed) return refuse(400, M.deleteUnconfirmed);
  const deleted = await deleteZone(db, { id: form.zoneId, actor });
  if (!deleted.ok) {
    const { status, fieldErrors, message } = zoneRefusal(deleted.error);
    // the estimate country's only zone: say so in words (there is no field to point at)
    return refuse(status, fieldErrors?.countries?.[0] ?? message);
  }
  return redirectWithToast(PATH, { type: "success", message: M.deleted(deleted.value.name) });
}

const BUTTON =
  "rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60";
const SMALL =
  "rounded-lg border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100";
const SELECT = "mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-gray-900";

export default function AdminZones({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, zones, estimateCountries } = loaderData;
  const busy = useNavigation().state === "submitting";
  const marketsResult = actionData?.intent === "markets" ? actionData.result : undefined;
  const [form, fields] = useForm<Record<"pricesIncludeTax" | "taxRounding" | "estimateCountry", unknown>>({
    id: "markets-form",
    lastResult: marketsResult,
  });
  const typed = (marketsResult?.initialValue ?? null) as Record<string, string | undefined> | null;
  const values = {
    pricesIncludeTax: typed ? typed.pricesIncludeTax === "on" : settings.pricesIncludeTax,
    taxRounding: typed?.taxRounding ?? settings.taxRounding,
    estimateCountry: typed?.estimateCountry ?? settings.estimateCountry,
  };
  const estimateError = fields.estimateCountry.errors?.[0];
  const roundingError = fields.taxRounding.errors?.[0];
  const zoneRefusal = (id: number) =>
    actionData && actionData.intent !== "markets" && actionData.zoneId === String(id)
      ? refusal(actionData.result)
      : null;
  const otherRefusal =
    actionData &&
    actionData.intent !== "markets" &&
    !zones.some((zone) => actionData.zoneId === String(zone.id))
      ? refusal(actionData.result)
      : null;
  return (
    <section aria-labelledby="zones-heading" className="max-w-4xl space-y-8">
      <div>
        <p>
          <Link to="/admin/settings" className="font-semibold text-brand-700 hover:underline">
            ← Back to settings
          </Link>
        </p>
        <h1 id="zones-heading" className="mt-2 text-3xl font-bold">
          Shipping and tax zones
        </h1>
        <p className="mt-1 text-gray-700">
          Where the shop sells: each zone is a set of countries (or some states of a country) with its tax
          rates and its shipping methods. A place can be in one zone only. Checkout offers only addresses some
          zone covers.
        </p>
      </div>

      <section aria-labelledby="zone-list-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="zone-list-heading" className="text-xl font-bold">
            Zones
          </h2>
          <Link
            to={`${PATH}/new`}
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            New zone
          </Link>
        </div>
        <AdminMessage feedback={otherRefusal} />
        <ul className="space-y-4">
          {zones.map((zone) => (
            <li key={zone.id} className="min-w-0 rounded-xl border border-gray-200 p-4 sm:p-6">
              <article aria-labelledby={`zone-${zone.id}-name`} className="space-y-3">
                <h3 id={`zone-${zone.id}-name`} className="text-lg font-bold break-words">
                  {zone.name}
                </h3>
                <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
                  <dt className="font-semibold">Countries</dt>
                  <dd className="min-w-0 break-words">{zone.countries}</dd>
                  <dt className="font-semibold">Tax</dt>
                  <dd className="min-w-0 break-words">{zone.tax}</dd>
                  <dt className="font-semibold">Shipping</dt>
                  <dd className="min-w-0">
                    <ul className="space-y-1">
                      {zone.methods.map((method) => (
                        <li key={method.name} className="break-words">
                          <span className="font-medium">{method.name}</span>: {method.price} ({method.days})
                        </li>
                      ))}
                    </ul>
                  </dd>
                </dl>
                <AdminMessage feedback={zoneRefusal(zone.id)} />
                <div className="flex flex-wrap items-start gap-2">
                  <Link to={`${PATH}/${zone.id}`} className={SMALL}>
                    Edit<span className="sr-only"> {zone.name}</span>
                  </Link>
                  {zones.length > 1 && (
                    <ConfirmAction
                      size="sm"
                      label={
                        <>
                          Delete<span className="sr-only"> {zone.name}</span>
                        </>
                      }
                      question={`Delete zone ${zone.name}? Shoppers in its countries can no longer check out unless another zone covers them. Orders already placed keep their shipping and tax.`}
                      confirmLabel="Yes, delete zone"
                      keepLabel="Keep it"
                      keepTo={PATH}
                      fields={{ intent: "delete", zoneId: zone.id }}
                    />
                  )}
                </div>
              </article>
            </li>
          ))}
        </ul>
        {zones.length === 1 && (
          <p className="text-sm text-gray-700">The shop's only zone cannot be deleted: add another first.</p>
        )}
      </section>

      <Form
        method="post"
        id={form.id}
        noValidate
        className="max-w-3xl space-y-4 rounded-xl border border-gray-200 p-4 sm:p-6"
        aria-labelledby="markets-heading"
      >
        <h2 id="markets-heading" className="text-xl font-bold">
          Prices and tax
        </h2>
        <input type="hidden" name="intent" value="markets" />
        <AdminMessage feedback={refusal(marketsResult)} />
        <div className="flex items-start gap-2">
          <input
            id="markets-pricesIncludeTax"
            type="checkbox"
            name="pricesIncludeTax"
            defaultChecked={values.pricesIncludeTax}
            aria-describedby="markets-pricesIncludeTax-hint"
            className="mt-1 h-4 w-4"
          />
          <div>
            <label htmlFor="markets-pricesIncludeTax" className="text-sm font-semibold text-gray-900">
              Prices include tax
            </label>
            <p id="markets-pricesIncludeTax-hint" className="text-sm text-gray-600">
              Ticked (usual in the EU, the UK and Australia): the prices you enter are what shoppers pay, and
              the tax in them is worked out by the destination's rate. Unticked (the US, Canada): tax is added
              at checkout by the destination.
            </p>
          </div>
        </div>
        <fieldset aria-describedby={roundingError ? "markets-taxRounding-error" : undefined}>
          <legend className="text-sm font-semibold text-gray-900">Tax rounding</legend>
          <div className="mt-1 space-y-1">
            {(Object.keys(ROUNDING_LABELS) as (keyof typeof ROUNDING_LABELS)[]).map((rounding) => (
              <label key={rounding} className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="taxRounding"
                  value={rounding}
                  defaultChecked={values.taxRounding === rounding}
                  className="mt-0.5 h-4 w-4"
                />
                <span className="min-w-0">{ROUNDING_LABELS[rounding]}</span>
              </label>
            ))}
          </div>
          {roundingError && (
            <p id="markets-taxRounding-error" className="mt-1 text-sm font-medium text-red-700">
              {roundingError}
            </p>
          )}
        </fieldset>
        <div>
          <label htmlFor="markets-estimateCountry" className="block text-sm font-semibold text-gray-900">
            Cart estimate country
          </label>
          <select
            id="markets-estimateCountry"
            name="estimateCountry"
            defaultValue={values.estimateCountry}
            aria-invalid={estimateError ? true : undefined}
            aria-describedby={
              estimateError ? "markets-estimateCountry-error" : "markets-estimateCountry-hint"
            }
            className={`${SELECT} ${estimateError ? "border-red-700 bg-red-50" : "border-gray-400"}`}
          >
            {estimateCountries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
          {estimateError ? (
            <p id="markets-estimateCountry-error" className="mt-1 text-sm font-medium text-red-700">
              {estimateError}
            </p>
          ) : (
            <p id="markets-estimateCountry-hint" className="mt-1 text-sm text-gray-600">
              The cart estimates shipping and tax for this country until the shopper chooses another.
            </p>
          )}
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          Save prices and tax
        </button>
      </Form>
    </section>
  );
}
