import { useForm } from "@conform-to/react";
import { data, Form, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
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
import { servicesFrom } from "../context.ts";
import {
  formatBytes,
  HOURS,
  BACKUP_LABELS as LABELS,
  BACKUP_MESSAGES as MESSAGES,
} from "../domain/backups/backup-form.ts";
import {
  lastScheduledStart,
  listBackupRuns,
  nextDueAt,
  readBackupSettings,
  saveBackupSettings,
  startBackupNow,
} from "../domain/backups/backup-schedule.server.ts";
import { backupActionSchema } from "../domain/backups/backup-schema.server.ts";
import { backupServices, defaultBackupDirectory } from "../domain/backups/take-backup.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatDateTime } from "../infra/format.ts";
import type { Route } from "./+types/admin.backups";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Backups", "/admin/backups");

/** The owner's page: the daily backup's schedule, "Back up now", and the latest backups. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const services = backupServices(servicesFrom(context));
  const settings = await readBackupSettings(services.db);
  const runs = await listBackupRuns(services);
  const lastScheduled = await lastScheduledStart(services.db);
  return {
    settings,
    runs,
    defaultDirectory: defaultBackupDirectory(services.dataDir),
    nextDue: nextDueAt(settings, lastScheduled, new Date())?.toISOString() ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "settings");
  const submission = await parseForm(request, backupActionSchema);
  if (submission.status !== "success") {
    const known = submission.payload.intent === "save";
    return data(
      { result: submission.reply({ formErrors: [known ? MESSAGES.invalid : MESSAGES.unknownAction] }) },
      { status: 400 },
    );
  }
  const services = backupServices(servicesFrom(context));
  const value = submission.value;
  if (value.intent === "run") {
    startBackupNow(services, { requestedBy: owner.email });
    return redirectWithToast("/admin/backups", { type: "success", message: MESSAGES.started });
  }
  const saved = await saveBackupSettings(services, {
    settings: {
      enabled: value.enabled,
      hourUtc: value.hour,
      keepCount: value.keep,
      destination: value.destination,
    },
    actor: { id: owner.id, email: owner.email },
  });
  if (!saved.ok) {
    return data(
      {
        result: submission.reply({
          formErrors: [MESSAGES.invalid],
          fieldErrors: { destination: [saved.error.message] },
        }),
      },
      { status: 400 },
    );
  }
  return redirectWithToast("/admin/backups", {
    type: "success",
    message: saved.value.saved ? MESSAGES.saved : MESSAGES.unchanged,
  });
}

const SELECT = "mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900";
const BUTTON =
  "rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60";
const ORIGINS = { schedule: "Scheduled", manual: "Back up now", cli: "Command line" } as const;

export default function AdminBackups({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, runs, defaultDirectory, nextDue } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm<Record<"hour" | "keep" | "destination", unknown>>({
    lastResult: actionData?.result,
  });
  const typed = (actionData?.result.initialValue ?? null) as Record<string, string | undefined> | null;
  const values = {
    enabled: typed ? typed.enabled === "on" : settings.enabled,
    hour: typed?.hour ?? String(settings.hourUtc),
    keep: typed?.keep ?? String(settings.keepCount),
    destination: typed?.destination ?? settings.destination,
  };
  const error = (name: "hour" | "keep" | "destination") => fields[name].errors?.[0];
  return (
    <section aria-labelledby="backups-heading" className="max-w-5xl space-y-8">
      <div>
        <h1 id="backups-heading" className="text-3xl font-bold">
          Backups
        </h1>
        <p className="mt-1 max-w-3xl text-gray-700">
          A backup is one archive: the database as it was at one moment, taken while the shop keeps selling,
          and every uploaded image, with a manifest of their checksums. Restore one with{" "}
          <code className="break-all">npm run cli -- restore ARCHIVE</code> (see the README, “Backups and
          restores”).
        </p>
      </div>

      <section
        aria-labelledby="backup-now-heading"
        className="max-w-3xl rounded-xl border border-gray-200 p-4 sm:p-6"
      >
        <h2 id="backup-now-heading" className="text-xl font-bold">
          Back up now
        </h2>
        <p className="mt-1 text-sm text-gray-700">
          Writes a backup to the destination below in the background; it shows in the list when it is done.
        </p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="run" />
          <button type="submit" disabled={busy} className={BUTTON}>
            Back up now
          </button>
        </Form>
      </section>

      <Form method="post" id={form.id} noValidate className="max-w-3xl space-y-4">
        <input type="hidden" name="intent" value="save" />
        <AdminMessage feedback={refusal(actionData?.result)} />
        <fieldset className="space-y-4 rounded-xl border border-gray-200 p-4 sm:p-6">
          <legend className="px-1 text-lg font-bold">Schedule</legend>
          <div className="flex items-center gap-2">
            <input
              id="backup-enabled"
              type="checkbox"
              name="enabled"
              defaultChecked={values.enabled}
              className="size-5"
            />
            <label htmlFor="backup-enabled" className="text-sm font-semibold text-gray-900">
              {LABELS.enabled}
            </label>
          </div>
          <div>
            <label htmlFor="backup-hour" className="block text-sm font-semibold text-gray-900">
              {LABELS.hour}
              <span aria-hidden="true"> *</span>
            </label>
            <select
              id="backup-hour"
              name="hour"
              required
              defaultValue={values.hour}
              aria-invalid={error("hour") ? true : undefined}
              aria-describedby={error("hour") ? "backup-hour-error" : "backup-hour-hint"}
              className={SELECT}
            >
              {HOURS.map((hour) => (
                <option key={hour.value} value={hour.value}>
                  {hour.label}
                </option>
              ))}
            </select>
            {error("hour") ? (
              <p id="backup-hour-error" className="mt-1 text-sm font-medium text-red-700">
                {error("hour")}
              </p>
            ) : (
              <p id="backup-hour-hint" className="mt-1 text-sm text-gray-600">
                {nextDue ? `Next backup: ${formatDateTime(nextDue)}.` : "Scheduled backups are off."}
              </p>
            )}
          </div>
          <FormField
            id="backup-keep"
            name="keep"
            label={LABELS.keep}
            inputMode="numeric"
            required
            defaultValue={values.keep}
            error={error("keep")}
            hint="After each backup, older archives at the destination beyond this many are deleted."
          />
          <FormField
            id="backup-destination"
            name="destination"
            label={LABELS.destination}
            defaultValue={values.destination}
            error={error("destination")}
            hint={`A directory on this server, or s3://bucket/prefix (with the S3 settings of the file store). Empty: ${defaultDirectory}.`}
          />
        </fieldset>
        <button type="submit" disabled={busy} className={BUTTON}>
          Save schedule
        </button>
      </Form>

      <section aria-labelledby="history-heading" className="space-y-3">
        <h2 id="history-heading" className="text-xl font-bold">
          Recent backups
        </h2>
        {runs.length === 0 ? (
          <p className="text-gray-700">No backups yet.</p>
        ) : (
          <TableScroll label="Recent backups">
            <StackedTable>
              <thead className={STACKED_TABLE.head}>
                <Row>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Started</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Outcome</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Size</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Where</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Archive</ColumnHeader>
                </Row>
              </thead>
              <tbody className={STACKED_TABLE.body}>
                {runs.map((run) => (
                  <Row key={run.id} className={STACKED_TABLE.row}>
                    <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>
                      {formatDateTime(run.startedAt)}
                      <span className="block text-xs font-normal text-gray-700">
                        {ORIGINS[run.origin]}
                        {run.requestedBy ? ` by ${run.requestedBy}` : ""}
                      </span>
                    </RowHeader>
                    <Cell className={STACKED_TABLE.cell}>
                      <CardLabel>Outcome</CardLabel>
                      {run.status === "ok" ? (
                        <span className="font-semibold text-green-800">OK</span>
                      ) : (
                        <>
                          <span className="font-semibold text-red-700">Failed</span>
                          <span className="block text-gray-800">{run.error}</span>
                        </>
                      )}
                    </Cell>
                    <Cell className={STACKED_TABLE.cell}>
                      <CardLabel>Size</CardLabel>
                      {run.sizeBytes === null ? "—" : formatBytes(run.sizeBytes)}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} break-all`}>
                      <CardLabel>Where</CardLabel>
                      {run.destination}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} break-all`}>
                      <CardLabel>Archive</CardLabel>
                      {run.archiveName === null ? (
                        "—"
                      ) : run.downloadable ? (
                        <a
                          href={`/admin/backups/${run.archiveName}`}
                          download
                          className="inline-block font-semibold text-brand-700 underline hover:text-brand-800"
                        >
                          <span className="sr-only">Download </span>
                          {run.archiveName}
                        </a>
                      ) : (
                        <>
                          {run.archiveName}
                          {!run.destination.startsWith("s3://") && (
                            <span className="block text-xs text-gray-700">no longer kept here</span>
                          )}
                        </>
                      )}
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </StackedTable>
          </TableScroll>
        )}
      </section>
    </section>
  );
}
