import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { type CsvLineProblem, PRICE_LIST_MESSAGES as M } from "../domain/customer-groups/price-list-form.ts";
import { getPriceList, importGroupPricesCsv } from "../domain/customer-groups/price-lists.server.ts";
import { readCsvUpload } from "../http/csv-upload.server.ts";
import { refusedForm } from "../http/product-upload.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.customer-groups.$id_.prices_.import";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Import prices into ${loaderData.group.name}` : "Import prices",
    `/admin/customer-groups/${params.id}/prices/import`,
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
  const list = id ? await getPriceList(servicesFrom(context).db, id) : null;
  if (!list) throw data(null, { status: 404 });
  return { group: { id: list.id, name: list.name } };
}

/**
 * The CSV of SKUs and prices, streamed in (at most 5 MB, as the members' import). All lines good:
 * every price set, back to the price list with a toast; otherwise nothing is set and this page
 * lists the lines to correct.
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
  const imported = await importGroupPricesCsv(servicesFrom(context).db, {
    id,
    ...upload.value,
    actor: { id: staff.id, email: staff.email, role: staff.role },
  });
  if (!imported.ok) {
    const { error } = imported;
    if (error.code === "not-found") throw data(null, { status: 404 });
    if (error.code === "forbidden") throw data(M.forbidden, { status: 403 });
    const message =
      error.code === "unreadable"
        ? error.message
        : error.code === "bad-lines"
          ? M.badLines(error.problems.length)
          : M.invalid;
    return data(
      {
        result: refusedForm(message, { file: message }),
        problems: error.code === "bad-lines" ? error.problems : ([] as CsvLineProblem[]),
      },
      { status: 400 },
    );
  }
  return redirectWithToast(`/admin/customer-groups/${id}/prices`, {
    type: "success",
    message: M.imported(imported.value.set),
  });
}

export default function ImportGroupPrices({ loaderData, actionData }: Route.ComponentProps) {
  const { group } = loaderData;
  const busy = useNavigation().state === "submitting";
  const fileError = actionData?.result.error?.file?.[0];
  const problems = actionData?.problems ?? [];
  return (
    <section aria-labelledby="import-heading" className="max-w-3xl space-y-4">
      <p>
        <Link
          to={`/admin/customer-groups/${group.id}/prices`}
          className="font-semibold text-brand-700 hover:underline"
        >
          ← Back to the price list of {group.name}
        </Link>
      </p>
      <h1 id="import-heading" className="text-3xl font-bold break-words">
        Import prices into {group.name}
      </h1>
      <AdminMessage feedback={refusal(actionData?.result)} id="csv-result" />
      {problems.length > 0 && (
        <ul aria-label="Lines to correct" className="list-disc space-y-1 pl-6 text-sm text-red-800">
          {problems.map((problem) => (
            <li key={`${problem.line}:${problem.message}`}>
              Line {problem.line}: {problem.message}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" encType="multipart/form-data" className="space-y-4">
        <div>
          <label htmlFor="prices-csv" className="block text-sm font-semibold text-gray-900">
            CSV file of SKUs and prices
          </label>
          <input
            id="prices-csv"
            name="file"
            type="file"
            accept=".csv,text/csv,text/plain"
            required
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? "prices-csv-error" : "prices-csv-hint"}
            className="mt-1 block w-full text-sm text-gray-900"
          />
          {fileError ? (
            <p id="prices-csv-error" className="mt-1 text-sm text-red-700">
              {fileError}
            </p>
          ) : (
            <p id="prices-csv-hint" className="mt-1 text-sm text-gray-600">
              Two columns, sku,price; a header line is skipped. At most 5 MB. All lines are set, or none.
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
