import { data, Link } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { ZoneForm } from "../components/admin/zone-fields.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { deleteZone, getZone, updateZone } from "../domain/markets/zone-admin.server.ts";
import {
  countryOptions,
  ZONE_MESSAGES as M,
  zoneFormValues,
  zoneRefusal,
} from "../domain/markets/zone-form.ts";
import { listIntentReply, zoneEditSchema } from "../domain/markets/zone-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.settings_.zones.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Edit zone ${loaderData.zone.name}` : "Edit zone",
    `/admin/settings/zones/${params.id}`,
  );

const LIST = "/admin/settings/zones";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const id = positiveInt(params.id);
  const zone = id ? await getZone(servicesFrom(context).db, id) : null;
  if (!zone) throw data(null, { status: 404 });
  const shop = await shopSettingsFrom(context);
  return {
    zone: { id: zone.id, name: zone.name },
    values: zoneFormValues(zone),
    countries: countryOptions(),
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

/** The zone saved (`intent` save, or a list button's row added or removed), or `delete` (confirmed). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "settings");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const actor = { id: owner.id, email: owner.email, role: owner.role };
  const submission = await parseForm(request, zoneEditSchema, { disableAutoCoercion: true });
  if (submission.status === undefined) return data({ intent: "save", result: listIntentReply(submission) });
  const refuse = (
    intent: "save" | "delete",
    status: number,
    message: string,
    fieldErrors?: Record<string, string[]>,
  ) => data({ intent, result: submission.reply({ formErrors: [message], fieldErrors }) }, { status });
  if (submission.status !== "success") return refuse("save", 400, M.invalid);
  const { db } = servicesFrom(context);
  const form = submission.value;
  if (form.intent === "delete") {
    // shoppers there can no longer check out: only from the confirm step
    if (!form.confirmed) return refuse("delete", 400, M.deleteUnconfirmed);
    const deleted = await deleteZone(db, { id, actor });
    if (!deleted.ok) {
      const { status, message } = zoneRefusal(deleted.error);
      return refuse("delete", status, message);
    }
    return redirectWithToast(LIST, { type: "success", message: M.deleted(deleted.value.name) });
  }
  const saved = await updateZone(db, { id, input: form.zone, actor });
  if (!saved.ok) {
    const { status, message, fieldErrors } = zoneRefusal(saved.error);
    return refuse("save", status, message, fieldErrors);
  }
  return redirectWithToast(LIST, {
    type: "success",
    message: saved.value.changed ? M.saved(saved.value.name) : M.unchanged,
  });
}

export default function EditZone({ loaderData, actionData }: Route.ComponentProps) {
  const { zone } = loaderData;
  return (
    <section aria-labelledby="zone-heading" className="max-w-4xl">
      <p>
        <Link to={LIST} className="font-semibold text-brand-700 hover:underline">
          ← Back to zones
        </Link>
      </p>
      <h1 id="zone-heading" className="mt-2 text-3xl font-bold break-words">
        Edit zone {zone.name}
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        Changes apply to carts and checkouts from the next page they load; orders already placed keep what
        they were charged. Fields marked * are required.
      </p>
      <ZoneForm
        lastResult={actionData?.intent === "save" ? actionData.result : undefined}
        defaultValue={loaderData.values}
        countries={loaderData.countries}
        currencySymbol={loaderData.currencySymbol}
        submitLabel="Save zone"
      />
      <section aria-labelledby="delete-zone-heading" className="mt-10 space-y-3">
        <h2 id="delete-zone-heading" className="text-xl font-bold">
          Delete this zone
        </h2>
        <AdminMessage feedback={actionData?.intent === "delete" ? refusal(actionData.result) : null} />
        <ConfirmAction
          label="Delete zone"
          question={`Delete zone ${zone.name}? Shoppers in its countries can no longer check out unless another zone covers them. Orders already placed keep their shipping and tax.`}
          confirmLabel="Yes, delete zone"
          keepLabel="Keep it"
          keepTo={`${LIST}/${zone.id}`}
          fields={{ intent: "delete" }}
        />
      </section>
    </section>
  );
}
