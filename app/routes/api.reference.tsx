import { openApiDocument } from "../api/api.server.ts";
import { referenceOf } from "../api/reference.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/api.reference";

/** The API's reference (decision 038): its OpenAPI document as a page, readable without a script. */
let reference: ReturnType<typeof referenceOf> | null = null;

export function loader() {
  reference ??= referenceOf(openApiDocument());
  return reference;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "API reference",
    description: "The shop's REST API: its operations, parameters, answers and keys.",
    path: "/api/reference",
    origin,
    shopName: contact.name,
  });
};

export const headers = sharedPageHeaders;

const CELL = "border-b border-gray-200 px-2 py-1.5 text-left align-top";

export default function ApiReference({ loaderData }: Route.ComponentProps) {
  const { title, description, groups } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-extrabold tracking-tight text-gray-900">API reference</h1>
      <p className="mt-2 text-sm text-gray-700">{title}</p>
      <p className="mt-3 max-w-3xl text-gray-800">{description}</p>
      <p className="mt-3 max-w-3xl text-gray-800">
        Send a key from Admin → API keys as <code>Authorization: Bearer &lt;key&gt;</code>, and an{" "}
        <code>Idempotency-Key</code> header with every POST. The machine-readable document:{" "}
        <a href="/api/v1/openapi.json" className="font-semibold text-brand-700 underline">
          /api/v1/openapi.json
        </a>
        .
      </p>
      <nav aria-label="Operations" className="mt-6">
        <ul className="space-y-1 text-sm">
          {groups.flatMap(({ operations }) =>
            operations.map((op) => (
              <li key={op.id}>
                <a href={`#${op.id}`} className="text-brand-700 underline">
                  <span className="font-mono">{op.method}</span>{" "}
                  <span className="break-all font-mono">{op.path}</span>
                </a>
              </li>
            )),
          )}
        </ul>
      </nav>
      {groups.map(({ tag, operations }) => (
        <section key={tag} aria-labelledby={`tag-${tag}`} className="mt-10">
          <h2 id={`tag-${tag}`} className="text-2xl font-bold text-gray-900">
            {tag}
          </h2>
          {operations.map((op) => (
            <section
              key={op.id}
              id={op.id}
              aria-labelledby={`${op.id}-heading`}
              className="mt-6 rounded-xl border border-gray-200 p-4"
            >
              <h3 id={`${op.id}-heading`} className="break-all font-mono text-lg font-semibold text-gray-900">
                {op.method} {op.path}
              </h3>
              <p className="mt-1 text-gray-800">{op.summary}</p>
              {op.description && <p className="mt-1 text-sm text-gray-700">{op.description}</p>}
              <p className="mt-2 text-sm">
                <span className="font-semibold">Scope:</span> <code>{op.scope}</code>
              </p>
              {op.fields.length > 0 && (
                <TableScroll label={`${op.id} parameters`} className="mt-3">
                  <table className="w-full text-sm">
                    <caption className="sr-only">Parameters of {op.id}</caption>
                    <thead>
                      <tr>
                        <th scope="col" className={CELL}>
                          Name
                        </th>
                        <th scope="col" className={CELL}>
                          In
                        </th>
                        <th scope="col" className={CELL}>
                          Type
                        </th>
                        <th scope="col" className={CELL}>
                          Description
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {op.fields.map((field) => (
                        <tr key={`${field.where}-${field.name}`}>
                          <th scope="row" className={`${CELL} font-mono font-normal`}>
                            {field.name}
                            {field.required && <span className="text-gray-700"> (required)</span>}
                          </th>
                          <td className={CELL}>{field.where}</td>
                          <td className={`${CELL} break-words`}>{field.type}</td>
                          <td className={CELL}>{field.description}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
              <h4 className="mt-3 text-sm font-semibold">Answers</h4>
              <ul className="mt-1 text-sm">
                {op.responses.map((r) => (
                  <li key={r.status}>
                    <span className="font-mono">{r.status}</span> {r.description}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </section>
      ))}
    </div>
  );
}
