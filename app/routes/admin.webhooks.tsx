import { useForm } from "@conform-to/react";
import { data, Form } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ShownOnce } from "../components/admin/shown-once.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { listWebhookEndpoints } from "../domain/integrations/webhook-admin.server.ts";
import {
  WEBHOOK_EVENT_LABELS as LABELS,
  WEBHOOK_MESSAGES as M,
} from "../domain/integrations/webhook-form.ts";
import { webhookFormSchema } from "../domain/integrations/webhook-schema.server.ts";
import {
  addWebhookEndpoint,
  enableWebhookEndpoint,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
} from "../domain/integrations/webhooks.server.ts";
import { parseForm } from "../http/form.server.ts";
import { FORBIDDEN_STATUS, requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatDateTimeIn } from "../lib/time-zones.ts";
import { WEBHOOK_EVENT_TYPES } from "../lib/webhook-events.ts";
import type { Route } from "./+types/admin.webhooks";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Webhooks", "/admin/webhooks");

const PAGE = "/admin/webhooks";

/** The endpoints, what was delivered to each and its latest attempts (decision 039). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const shop = await shopSettingsFrom(context);
  const endpoints = await listWebhookEndpoints(servicesFrom(context).db);
  const when = (iso: string) => formatDateTimeIn(iso, shop.timeZone);
  return {
    endpoints: endpoints.map((endpoint) => ({
      ...endpoint,
      createdAt: when(endpoint.createdAt),
      disabledAt: endpoint.disabledAt && when(endpoint.disabledAt),
      failingSince: endpoint.failingSince && when(endpoint.failingSince),
      attempts: endpoint.attempts.map((attempt) => ({ ...attempt, attemptedAt: when(attempt.attemptedAt) })),
    })),
  };
}

/** A new endpoint, or a new secret: answered with the secret, the only page that shows it. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "settings");
  const submission = await parseForm(request, webhookFormSchema, { disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }), secret: null }, { status: 400 });
  }
  const services = servicesFrom(context);
  const actor = { id: staff.id, email: staff.email, role: staff.role };
  const value = submission.value;
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }), secret: null }, { status });
  if (value.intent === "resend") {
    const resent = await resendWebhookDelivery(services.db, { actor, deliveryId: value.deliveryId });
    if (!resent.ok) {
      if (resent.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
      return refuse(M.deliveryNotFound, 404);
    }
    return redirectWithToast(PAGE, { type: "success", message: M.resent });
  }
  if (value.intent === "test") {
    const sent = await sendTestWebhook(services.db, { actor, endpointId: value.id });
    if (!sent.ok) {
      if (sent.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
      return sent.error.code === "disabled" ? refuse(M.testDisabled, 409) : refuse(M.notFound, 404);
    }
    return redirectWithToast(PAGE, { type: "success", message: M.testSent });
  }
  if (value.intent === "enable") {
    const enabled = await enableWebhookEndpoint(services.db, { actor, id: value.id });
    if (!enabled.ok) {
      if (enabled.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
      return refuse(M.notFound, 404);
    }
    return redirectWithToast(PAGE, { type: "success", message: M.enabled });
  }
  if (value.intent === "rotate") {
    const rotated = await rotateWebhookSecret(services.db, { actor, id: value.id });
    if (!rotated.ok) {
      if (rotated.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
      return refuse(M.notFound, 404);
    }
    return { result: undefined, secret: { message: M.rotated, value: rotated.value.secret } };
  }
  const added = await addWebhookEndpoint(services.db, {
    actor,
    url: value.url,
    events: value.events,
    allowPrivate: services.config.WEBHOOKS_ALLOW_PRIVATE === "true",
  });
  if (!added.ok) {
    if (added.error.code === "forbidden") throw data(null, { status: FORBIDDEN_STATUS });
    const message =
      added.error.code === "private-address"
        ? M.privateAddress
        : added.error.code === "unresolved"
          ? M.unresolved
          : added.error.code === "no-events"
            ? M.events
            : M.url;
    const field = added.error.code === "no-events" ? "events" : "url";
    return data(
      {
        result: submission.reply({ formErrors: [M.invalid], fieldErrors: { [field]: [message] } }),
        secret: null,
      },
      { status: 400 },
    );
  }
  return { result: undefined, secret: { message: M.added, value: added.value.secret } };
}

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoints } = loaderData;
  const [form, fields] = useForm<{ url: string; events: string[] }>({
    id: "webhook-form",
    lastResult: actionData?.result,
  });
  const typed = (actionData?.result?.initialValue ?? {}) as {
    intent?: string;
    url?: string;
    events?: string | string[];
  };
  // a refused button (send again, test, enable, new secret) is answered above the endpoints
  const refusedButton = typed.intent !== undefined && typed.intent !== "add";
  const chosen = new Set(typed.events === undefined ? [] : [typed.events].flat());
  const eventsError = fields.events.errors?.[0];
  const secret = actionData?.secret;
  return (
    <section aria-labelledby="webhooks-heading">
      <h1 id="webhooks-heading" className="text-3xl font-bold">
        Webhooks
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        The shop posts its events to these addresses, signed per the Standard Webhooks specification (headers{" "}
        <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), and tries
        again for about a day when an address does not answer with 2xx.
      </p>

      {secret && (
        <ShownOnce
          heading={secret.message}
          note="The signing secret (copy it now: it is shown only this once), to verify the signatures with:"
          value={secret.value}
          testId="webhook-secret"
          doneTo={PAGE}
        />
      )}

      {refusedButton && (
        <div className="mt-4 max-w-4xl">
          <AdminMessage feedback={refusal(actionData?.result)} />
        </div>
      )}

      {endpoints.length === 0 ? (
        <p className="mt-6 text-gray-700">No webhook endpoints yet.</p>
      ) : (
        endpoints.map((endpoint) => (
          <section
            key={endpoint.id}
            aria-labelledby={`endpoint-${endpoint.id}`}
            className="mt-6 max-w-4xl rounded-xl border border-gray-200 p-4"
          >
            <h2 id={`endpoint-${endpoint.id}`} className="font-mono text-lg font-semibold break-all">
              {endpoint.url}
            </h2>
            <p className="mt-1 text-sm text-gray-700">
              {endpoint.events.map((event) => LABELS[event]).join(", ")} · added {endpoint.createdAt} ·{" "}
              {endpoint.delivered} delivered, {endpoint.pending} waiting, {endpoint.failed} given up
            </p>
            {!endpoint.enabled ? (
              <p className="mt-2 rounded-lg bg-red-50 p-2 text-sm font-medium text-red-800">
                Disabled{endpoint.disabledAt ? ` on ${endpoint.disabledAt}` : ""}: every delivery failed for 3
                days. It gets no events until it is enabled again.
              </p>
            ) : (
              endpoint.failingSince && (
                <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm font-medium text-amber-900">
                  Failing since {endpoint.failingSince}: disabled after 3 days of failures only.
                </p>
              )
            )}
            <div className="mt-2 flex flex-wrap gap-2">
              {endpoint.enabled ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="test" />
                  <input type="hidden" name="id" value={endpoint.id} />
                  <button
                    type="submit"
                    className="rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100"
                  >
                    Send a test event<span className="sr-only"> to {endpoint.url}</span>
                  </button>
                </Form>
              ) : (
                <Form method="post">
                  <input type="hidden" name="intent" value="enable" />
                  <input type="hidden" name="id" value={endpoint.id} />
                  <button
                    type="submit"
                    className="rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800"
                  >
                    Enable<span className="sr-only"> {endpoint.url}</span>
                  </button>
                </Form>
              )}
              <Form method="post">
                <input type="hidden" name="intent" value="rotate" />
                <input type="hidden" name="id" value={endpoint.id} />
                <button
                  type="submit"
                  className="rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100"
                >
                  New signing secret<span className="sr-only"> for {endpoint.url}</span>
                </button>
              </Form>
            </div>
            {endpoint.attempts.length === 0 ? (
              <p className="mt-3 text-sm text-gray-700">Nothing sent yet.</p>
            ) : (
              <TableScroll label={`Latest deliveries to ${endpoint.url}`} className="mt-3">
                <table className="w-full text-sm">
                  <caption className="sr-only">Latest deliveries to {endpoint.url}</caption>
                  <thead>
                    <tr className="text-left">
                      <th scope="col" className="px-2 py-1">
                        When
                      </th>
                      <th scope="col" className="px-2 py-1">
                        Event
                      </th>
                      <th scope="col" className="px-2 py-1">
                        Answer
                      </th>
                      <th scope="col" className="px-2 py-1">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {endpoint.attempts.map((attempt, index) => (
                      <tr key={attempt.id} className="border-t border-gray-200 align-top">
                        <td className="px-2 py-1 whitespace-nowrap">{attempt.attemptedAt}</td>
                        <td className="px-2 py-1">
                          {attempt.eventType} <span className="font-mono">evt_{attempt.eventId}</span>
                        </td>
                        <td className="px-2 py-1 break-words">
                          {attempt.statusCode ?? "no answer"}
                          {(attempt.error ?? attempt.excerpt) && (
                            <span className="block text-xs text-gray-700">
                              {attempt.error ?? attempt.excerpt}
                            </span>
                          )}
                        </td>
                        <td className="px-2 py-1">
                          {/* on the delivery's latest attempt: a delivered or given-up one can go again */}
                          {attempt.deliveryStatus !== "pending" &&
                            endpoint.attempts.findIndex((a) => a.deliveryId === attempt.deliveryId) ===
                              index && (
                              <Form method="post">
                                <input type="hidden" name="intent" value="resend" />
                                <input type="hidden" name="deliveryId" value={attempt.deliveryId} />
                                <button
                                  type="submit"
                                  className="rounded-lg border border-gray-400 px-2 py-1 text-xs font-semibold whitespace-nowrap hover:bg-gray-100"
                                >
                                  Send again<span className="sr-only"> evt_{attempt.eventId}</span>
                                </button>
                              </Form>
                            )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
        ))
      )}

      <Form
        method="post"
        id={form.id}
        noValidate
        className="mt-10 max-w-3xl space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6"
      >
        <h2 className="text-xl font-bold">New endpoint</h2>
        {!refusedButton && <AdminMessage feedback={refusal(actionData?.result)} />}
        <input type="hidden" name="intent" value="add" />
        <FormField
          id="webhook-url"
          name="url"
          type="url"
          label="Endpoint URL"
          required
          defaultValue={typed.url ?? ""}
          error={fields.url.errors?.[0]}
          hint="A public https:// address of the receiving system."
        />
        <fieldset aria-describedby={eventsError ? "webhook-events-error" : undefined}>
          <legend className="text-sm font-semibold text-gray-900">Events</legend>
          <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={chosen.has(event)}
                  className="h-5 w-5"
                />
                {LABELS[event]}
              </label>
            ))}
          </div>
          {eventsError && (
            <p id="webhook-events-error" className="mt-1 text-sm font-medium text-red-700">
              {eventsError}
            </p>
          )}
        </fieldset>
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Add endpoint
        </button>
      </Form>
    </section>
  );
}
