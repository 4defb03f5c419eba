import { data, Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ZoneForm } from "../components/admin/zone-fields.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { createZone } from "../domain/markets/zone-admin.server.ts";
import {
  countryOptions,
  EMPTY_ZONE_FORM,
  ZONE_MESSAGES as M,
  zoneRefusal,
} from "../domain/markets/zone-form.ts";
import { listIntentReply, zoneEditSchema } from "../domain/markets/zone-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.settings_.zones.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "New zone", "/admin/settings/zones/new");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const shop = await shopSettingsFrom(context);
  return { countries: countryOptions(), currencySymbol: CURRENCY_FORMATS[shop.currency].symbol };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "settings");
  const submission = await parseForm(request, zoneEditSchema, { disableAutoCoercion: true });
  // a row added or removed: the form again, as it was plus or minus that row
  if (submission.status === undefined) return data({ result: listIntentReply(submission) });
  if (submission.status !== "success" || submission.value.intent !== "save") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const created = await createZone(servicesFrom(context).db, {
    input: submission.value.zone,
    actor: { id: owner.id, email: owner.email, role: owner.role },
  });
  if (!created.ok) {
    const { status, message, fieldErrors } = zoneRefusal(created.error);
    return data({ result: submission.reply({ formErrors: [message], fieldErrors }) }, { status });
  }
  return redirectWithToast("/admin/settings/zones", {
    type: "success",
    message: M.created(created.value.name),
  });
}

export default function NewZone({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="new-zone-heading" className="max-w-4xl">
      <p>
        <Link to="/admin/settings/zones" className="font-semibold text-brand-700 hover:underline">
          ← Back to zones
        </Link>
      </p>
      <h1 id="new-zone-heading" className="mt-2 text-3xl font-bold">
        New zone
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        A country (or a state of the United States, Canada or Australia) can be in one zone only: take it out
        of its zone first to give it a zone of its own. Fields marked * are required.
      </p>
      <ZoneForm
        lastResult={actionData?.result}
        defaultValue={EMPTY_ZONE_FORM}
        countries={loaderData.countries}
        currencySymbol={loaderData.currencySymbol}
        submitLabel="Create zone"
      />
    </section>
  );
}
