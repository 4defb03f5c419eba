import { useForm } from "@conform-to/react";
import { data, Form } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { ShownOnce } from "../components/admin/shown-once.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  API_KEY_LIMITS,
  API_KEY_KIND_LABELS as KINDS,
  API_KEY_LABELS as LABELS,
  API_KEY_MESSAGES as M,
} from "../domain/integrations/api-key-form.ts";
import { apiKeyFormSchema } from "../domain/integrations/api-key-schema.server.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../domain/integrations/api-keys.server.ts";
import { parseForm } from "../http/form.server.ts";
import { FORBIDDEN_STATUS, requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { API_AREA_LABELS, API_AREAS, API_SCOPES } from "../lib/api-scopes.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { formatDateTimeIn } from "../lib/time-zones.ts";
import type { Route } from "./+types/admin.api-keys";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "API keys", "/admin/api-keys");

const PAGE = "/admin/api-keys";

/** Every key (revoked ones too), as the owner sees them: never a secret. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const shop = await shopSettingsFrom(context);
  const keys = await listApiKeys(servicesFrom(context).db);
  const when = (iso: string | null) => (iso ? formatDateTimeIn(iso, shop.timeZone) : null);
  return {
    timeZone: shop.timeZone,
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      kind: key.kind,
      prefix: key.prefix,
      scopes: key.scopes,
      expires: when(key.expiresAt),
      expired: key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now(),
      revoked: when(key.revokedAt),
      lastUsed: when(key.lastUsedAt),
      created: when(key.createdAt),
      createdBy: key.createdByEmail,
    })),
  };
}

/**
 * A new key, answered with its secret — the only page that ever shows it (no redirect: the secret
 * is put in no URL or cookie) — or a key revoked.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "settings");
  const shop = await shopSettingsFrom(context);
  const submission = await parseForm(request, apiKeyFormSchema({ timeZone: shop.timeZone }), {
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }), created: null }, { status: 400 });
  }
  const { db } = servicesFrom(context);
  const actor = { id: staff.id, email: staff.email, role: staff.role };
  const value = submission.value;
  if (value.intent === "revoke") {
    const refuse = (message: string, status: number) =>
      data({ result: submission.reply({ formErrors: [message] }), created: null }, { status });
    if (value.confirm !== CONFIRM_VALUE) return refuse(M.unconfirmed, 400);
    const revoked = await revokeApiKey(db, { id: value.id, actor });
    if (!revoked.ok) {
      if (revoked.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
      return revoked.error.code === "not-found" ? refuse(M.notFound, 404) : refuse(M.alreadyRevoked, 409);
    }
    return redirectWithToast(PAGE, { type: "success", message: M.revoked(revoked.value.name) });
  }
  const created = await createApiKey(db, { input: value.key, actor });
  if (!created.ok) throw data(null, { status: FORBIDDEN_STATUS });
  return {
    result: undefined,
    created: { name: created.value.key.name, kind: created.value.key.kind, secret: created.value.secret },
  };
}

export default function AdminApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { keys, timeZone } = loaderData;
  const [form, fields] = useForm<{ name: string; kind: string; scopes: string[]; expiresOn: string }>({
    id: "api-key-form",
    lastResult: actionData?.result,
  });
  const typed = (actionData?.result?.initialValue ?? {}) as {
    name?: string;
    kind?: string;
    scopes?: string | string[];
    expiresOn?: string;
  };
  const chosen = new Set(typed.scopes === undefined ? [] : [typed.scopes].flat());
  const created = actionData?.created;
  const scopesError = fields.scopes.errors?.[0];
  return (
    <section aria-labelledby="api-keys-heading">
      <h1 id="api-keys-heading" className="text-3xl font-bold">
        API keys
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        Keys let other software use the shop&apos;s API at <code>/api/v1</code> (its{" "}
        <a href="/api/reference" className="font-semibold text-brand-700 hover:underline">
          API reference
        </a>{" "}
        and{" "}
        <a href="/api/v1/openapi.json" className="font-semibold text-brand-700 hover:underline">
          OpenAPI document
        </a>
        ). Send a key as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>

      {created && (
        <ShownOnce
          heading={M.created(created.name)}
          note="Copy the key now: it is shown only this once."
          value={created.secret}
          testId="api-key-secret"
          doneTo={PAGE}
        />
      )}

      {keys.length === 0 ? (
        <p className="mt-6 text-gray-700">No API keys yet.</p>
      ) : (
        <TableScroll label="API key list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Key</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Scopes</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Last used</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {keys.map((key) => (
                <Row key={key.id} className={`${STACKED_TABLE.row} grid-cols-1`}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>
                    {key.name}
                    <span className="block text-xs font-normal text-gray-700">
                      Created {key.created} by {key.createdBy}
                    </span>
                  </RowHeader>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Key</CardLabel>
                    <code className="break-all">{key.prefix}…</code>
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Scopes</CardLabel>
                    {key.kind === "publishable" ? "Store API" : key.scopes.join(", ")}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Last used</CardLabel>
                    {key.lastUsed ?? "Never"}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    <CardLabel>Status</CardLabel>
                    {key.revoked
                      ? `Revoked ${key.revoked}`
                      : key.expired
                        ? `Expired ${key.expires}`
                        : key.expires
                          ? `Active until ${key.expires}`
                          : "Active"}
                  </Cell>
                  <Cell className={STACKED_TABLE.cell}>
                    {!key.revoked && (
                      <ConfirmAction
                        size="sm"
                        label={
                          <>
                            Revoke<span className="sr-only"> {key.name}</span>
                          </>
                        }
                        question={`Revoke ${key.name}? Software using it is refused from its next request.`}
                        confirmLabel="Yes, revoke"
                        keepLabel="Keep it"
                        keepTo={PAGE}
                        fields={{ intent: "revoke", id: key.id }}
                      />
                    )}
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}

      <Form
        method="post"
        id={form.id}
        noValidate
        className="mt-10 max-w-3xl space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6"
      >
        <h2 className="text-xl font-bold">New API key</h2>
        <AdminMessage feedback={refusal(actionData?.result)} />
        <input type="hidden" name="intent" value="create" />
        <FormField
          id="api-key-name"
          name="name"
          label={LABELS.name}
          required
          maxLength={API_KEY_LIMITS.nameMax}
          defaultValue={typed.name ?? ""}
          error={fields.name.errors?.[0]}
          hint="Who uses it, e.g. “Warehouse” or “Accounting”."
        />
        <fieldset>
          <legend className="text-sm font-semibold text-gray-900">{LABELS.kind}</legend>
          {(["secret", "publishable"] as const).map((kind) => (
            <label key={kind} className="mt-2 flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="kind"
                value={kind}
                defaultChecked={(typed.kind ?? "secret") === kind}
                className="mt-0.5 h-5 w-5"
              />
              {KINDS[kind]}
            </label>
          ))}
        </fieldset>
        <fieldset aria-describedby={scopesError ? "api-key-scopes-error" : "api-key-scopes-hint"}>
          <legend className="text-sm font-semibold text-gray-900">{LABELS.scopes}</legend>
          <p id="api-key-scopes-hint" className="mt-1 text-sm text-gray-700">
            For a secret key; write includes read.
          </p>
          <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
            {API_AREAS.map((area) => (
              <div key={area} className="rounded-lg border border-gray-200 p-2 text-sm">
                <p className="font-semibold">{API_AREA_LABELS[area]}</p>
                <div className="mt-1 flex flex-wrap gap-4">
                  {API_SCOPES.filter((scope) => scope.startsWith(`${area}:`)).map((scope) => (
                    <label key={scope} className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name="scopes"
                        value={scope}
                        defaultChecked={chosen.has(scope)}
                        className="h-5 w-5"
                      />
                      {scope.endsWith(":read") ? "Read" : "Write"}
                      <span className="sr-only"> {API_AREA_LABELS[area]}</span>
                    </label>
                  ))}
                </div>
              </div>
            ))}
          </div>
          {scopesError && (
            <p id="api-key-scopes-error" className="mt-1 text-sm font-medium text-red-700">
              {scopesError}
            </p>
          )}
        </fieldset>
        <FormField
          id="api-key-expiresOn"
          name="expiresOn"
          type="date"
          label={LABELS.expiresOn}
          defaultValue={typed.expiresOn ?? ""}
          error={fields.expiresOn.errors?.[0]}
          hint={`The key works through this day (${timeZone}). Empty: until revoked.`}
        />
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Create key
        </button>
      </Form>
    </section>
  );
}
