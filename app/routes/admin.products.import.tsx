import { data, Form, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { type CsvProblem, PRODUCT_CSV_COLUMNS } from "../domain/catalog/admin/products-csv.ts";
import {
  CSV_IMPORT_MESSAGES,
  importProductsCsvAsAdmin,
} from "../domain/catalog/admin/products-csv-admin.server.ts";
import { readCsvUpload } from "../http/csv-upload.server.ts";
import { refusedForm } from "../http/product-upload.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.products.import";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Import / Export products", "/admin/products/import");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  // from the loader: the CSV module (csv-parse) must stay out of the browser bundle
  return { columns: [...PRODUCT_CSV_COLUMNS] };
}

const UPLOAD_REFUSALS = {
  "too-large": { status: 413, message: CSV_IMPORT_MESSAGES.tooLarge },
  unreadable: { status: 400, message: CSV_IMPORT_MESSAGES.unreadable },
  "no-file": { status: 400, message: CSV_IMPORT_MESSAGES.noFile },
  "not-text": { status: 400, message: CSV_IMPORT_MESSAGES.notText },
} as const;

/**
 * The file streamed in (at most 5 MB: not through parseForm, which would read the whole body
 * first), imported all or nothing. A refusal answers like every form (decision 017): the form's
 * message and the file field's, with each problem of the file listed by its line.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "products");
  const upload = await readCsvUpload(request);
  if (!upload.ok) {
    const { status, message } = UPLOAD_REFUSALS[upload.error.code];
    return data(
      { result: refusedForm(message, { file: message }), problems: [] as CsvProblem[] },
      { status },
    );
  }
  const imported = await importProductsCsvAsAdmin(servicesFrom(context).db, {
    ...upload.value,
    actor: { id: admin.id, email: admin.email },
    currency: (await shopSettingsFrom(context)).currency,
  });
  if (!imported.ok) {
    const { problems } = imported.error;
    const message = CSV_IMPORT_MESSAGES.invalid(problems.length);
    return data({ result: refusedForm(message, { file: message }), problems }, { status: 400 });
  }
  const { created, updated, unchanged } = imported.value;
  return { imported: CSV_IMPORT_MESSAGES.imported(created, updated, unchanged) };
}

export default function ImportProducts({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const refused = actionData && "result" in actionData ? actionData : null;
  const feedback =
    actionData && "imported" in actionData
      ? { type: "success" as const, message: actionData.imported }
      : refusal(refused?.result);
  const fileError = refused?.result.error?.file?.[0];
  return (
    <section aria-labelledby="csv-heading" className="max-w-3xl">
      <h1 id="csv-heading" className="text-3xl font-bold">
        Import / Export products
      </h1>

      <h2 className="mt-8 text-xl font-semibold">Export</h2>
      <p className="mt-1 text-gray-700">Every product in the shop (archived ones excepted) as a CSV file.</p>
      <p className="mt-3">
        <a
          href="/admin/products/export.csv"
          download
          className="inline-block rounded-lg border border-gray-400 px-4 py-2 font-semibold text-gray-900 hover:bg-gray-100"
        >
          Download products CSV
        </a>
      </p>

      <h2 className="mt-10 text-xl font-semibold">Import</h2>
      <p className="mt-1 text-gray-700">
        One row per variant, as the export writes it: a product&apos;s rows come one after another and repeat
        its columns; an <code>id</code> updates that product, without one the <code>slug</code> finds the
        product to update or names a new one. Its options are the <code>option1_name</code>…
        <code>option3_name</code> columns, each row&apos;s variant has its <code>sku</code>,{" "}
        <code>variant_price</code>, <code>variant_stock</code>, <code>barcode</code> and{" "}
        <code>variant_weight_kg</code> (kg, like 0.25); the product&apos;s <code>taxClass</code> is standard,
        reduced, zero or exempt. An empty or missing tax class or weight keeps what the product has. The{" "}
        <code>price</code> and <code>stock</code> columns only show the product&apos;s summary. Every row is
        checked first: if any is wrong, nothing is imported and each problem is listed with its line number.
        Columns: <code className="break-words">{loaderData.columns.join(", ")}</code>.
      </p>
      <div className="mt-4">
        <AdminMessage feedback={feedback} id="csv-result" />
        {refused && refused.problems.length > 0 && (
          <ul
            aria-label="Problems in the file"
            className="mt-3 list-disc space-y-1 pl-6 text-sm text-red-800"
          >
            {refused.problems.map((problem) => (
              <li key={`${problem.line}:${problem.message}`}>
                Line {problem.line}: {problem.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
        <div>
          <label htmlFor="csv-file" className="block text-sm font-semibold text-gray-900">
            CSV file
          </label>
          <input
            id="csv-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? "csv-file-error" : undefined}
            className="mt-1 block w-full text-sm text-gray-900"
          />
          {fileError && (
            <p id="csv-file-error" className="mt-1 text-sm text-red-700">
              {fileError}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          {busy ? "Importing..." : "Import Products"}
        </button>
      </Form>
    </section>
  );
}
