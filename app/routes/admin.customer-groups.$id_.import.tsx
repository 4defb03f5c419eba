import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { getGroup } from "../domain/customer-groups/customer-groups.server.ts";
import { type CsvLineProblem, GROUP_MESSAGES as M } from "../domain/customer-groups/group-form.ts";
import { importMembersCsv } from "../domain/customer-groups/group-members.server.ts";
import { readCsvUpload } from "../http/csv-upload.server.ts";
import { refusedForm } from "../http/product-upload.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.customer-groups.$id_.import";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Import customers into ${loaderData.group.name}` : "Import customers",
    `/admin/customer-groups/${params.id}/import`,
  );

const UPLOAD_REFUSALS = {
  "too-large": { status: 413, message: M.tooLarge },
  unreadable: { status: 400, message: M.unreadableUpload },
  "no-file": { status: 400, message: M.noFile },
  "not-text": { status: 400, message: M.notText },
} as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  const group = id ? await getGroup(servicesFrom(context).db, id) : null;
  if (!group) throw data(null, { status: 404 });
  return { group: { id: group.id, name: group.name } };
}

/**
 * The CSV streamed in (at most 5 MB, as the products import: not through parseForm, which would
 * read the whole body first). All clean: back to the group with a toast; otherwise this page lists
 * the lines that named no customer, the others added.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const upload = await readCsvUpload(request);
  if (!upload.ok) {
    const { status, message } = UPLOAD_REFUSALS[upload.error.code];
    return data(
      { result: refusedForm(message, { file: message }), problems: [] as CsvLineProblem[] },
      { status },
    );
  }
  const imported = await importMembersCsv(servicesFrom(context).db, {
    id,
    ...upload.value,
    actor: { id: staff.id, email: staff.email, role: staff.role },
  });
  if (!imported.ok) {
    if (imported.error.code === "not-found") throw data(null, { status: 404 });
    if (imported.error.code === "forbidden") throw data(M.forbidden, { status: 403 });
    const message = imported.error.code === "unreadable" ? imported.error.message : M.invalid;
    return data(
      { result: refusedForm(message, { file: message }), problems: [] as CsvLineProblem[] },
      { status: 400 },
    );
  }
  const { added, problems } = imported.value;
  if (problems.length === 0) {
    return redirectWithToast(`/admin/customer-groups/${id}`, {
      type: "success",
      message: M.imported(added, 0),
    });
  }
  return { imported: M.imported(added, problems.length), problems };
}

export default function ImportGroupMembers({ loaderData, actionData }: Route.ComponentProps) {
  const { group } = loaderData;
  const busy = useNavigation().state === "submitting";
  const refused = actionData && "result" in actionData ? actionData : null;
  const feedback =
    actionData && "imported" in actionData
      ? { type: "success" as const, message: actionData.imported }
      : refusal(refused?.result);
  const fileError = refused?.result.error?.file?.[0];
  const problems = actionData?.problems ?? [];
  return (
    <section aria-labelledby="import-heading" className="max-w-3xl space-y-4">
      <p>
        <Link
          to={`/admin/customer-groups/${group.id}`}
          className="font-semibold text-brand-700 hover:underline"
        >
          ← Back to {group.name}
        </Link>
      </p>
      <h1 id="import-heading" className="text-3xl font-bold break-words">
        Import customers into {group.name}
      </h1>
      <AdminMessage feedback={feedback} id="csv-result" />
      {problems.length > 0 && (
        <ul
          aria-label="Lines that named no customer"
          className="list-disc space-y-1 pl-6 text-sm text-red-800"
        >
          {problems.map((problem) => (
            <li key={`${problem.line}:${problem.message}`}>
              Line {problem.line}: {problem.message}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" encType="multipart/form-data" className="space-y-4">
        <div>
          <label htmlFor="group-csv" className="block text-sm font-semibold text-gray-900">
            CSV file of e-mail addresses
          </label>
          <input
            id="group-csv"
            name="file"
            type="file"
            accept=".csv,text/csv,text/plain"
            required
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? "group-csv-error" : "group-csv-hint"}
            className="mt-1 block w-full text-sm text-gray-900"
          />
          {fileError ? (
            <p id="group-csv-error" className="mt-1 text-sm text-red-700">
              {fileError}
            </p>
          ) : (
            <p id="group-csv-hint" className="mt-1 text-sm text-gray-600">
              One e-mail a line, or in any column; a header line is skipped. At most 5 MB.
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          {busy ? "Importing..." : "Import CSV"}
        </button>
      </Form>
    </section>
  );
}
