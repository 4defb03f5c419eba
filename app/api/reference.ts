/**
 * The API reference page's content (/api/reference, decision 038), read from the OpenAPI document
 * the API generates: each operation with its scope, parameters, body fields and answers, grouped by
 * tag. The page is the shop's own (server-rendered, no script, under its CSP): an embedded viewer
 * such as Scalar weighed 169 MB of dependencies and a 4.8 MB script for what this does in a page.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type OperationObject = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  "x-scope"?: string;
  /** scopes it needs besides its own (cancelling an order also refunds it) */
  "x-scope-also"?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description: string }>;
};
type Document = {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema> };
};

export interface FieldView {
  name: string;
  where: string;
  required: boolean;
  type: string;
  description: string;
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  scope: string;
  fields: FieldView[];
  responses: { status: string; description: string }[];
}

export interface ReferenceView {
  title: string;
  description: string;
  groups: { tag: string; operations: OperationView[] }[];
}

function resolve(schema: Schema | undefined, doc: Document): Schema {
  if (!schema?.$ref) return schema ?? {};
  return doc.components?.schemas?.[schema.$ref.split("/").at(-1) ?? ""] ?? {};
}

function typeOf(schema: Schema | undefined, doc: Document): string {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").at(-1) ?? "";
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((s) => typeOf(s, doc)).join(" or ");
  if (schema.enum) return `one of ${schema.enum.map(String).join(", ")}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any");
  if (type === "array") return `array of ${typeOf(schema.items, doc)}`;
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : null,
    schema.exclusiveMinimum !== undefined ? `> ${schema.exclusiveMinimum}` : null,
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : null,
    schema.maxLength !== undefined ? `at most ${schema.maxLength} characters` : null,
    schema.default !== undefined ? `default ${String(schema.default)}` : null,
  ].filter(Boolean);
  return bounds.length > 0 ? `${type} (${bounds.join(", ")})` : type;
}

export function referenceOf(document: unknown): ReferenceView {
  const doc = document as Document;
  const groups = new Map<string, OperationView[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const fields: FieldView[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        where: p.in,
        required: p.required ?? false,
        type: typeOf(p.schema, doc),
        description: p.description ?? p.schema?.description ?? "",
      }));
      const body = resolve(op.requestBody?.content?.["application/json"]?.schema, doc);
      for (const [name, schema] of Object.entries(body.properties ?? {})) {
        fields.push({
          name,
          where: "body",
          required: body.required?.includes(name) ?? false,
          type: typeOf(schema, doc),
          description: schema.description ?? "",
        });
      }
      const view: OperationView = {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? "",
        description: op.description ?? "",
        scope:
          op["x-scope"] === "store"
            ? "any key (Store API)"
            : [op["x-scope"] ?? "", ...(op["x-scope-also"] ?? [])].filter(Boolean).join(" and "),
        fields,
        responses: Object.entries(op.responses).map(([status, r]) => ({
          status,
          description: r.description,
        })),
      };
      const tag = op.tags?.[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), view]);
    }
  }
  return {
    title: doc.info.title,
    description: doc.info.description ?? "",
    groups: [...groups].map(([tag, operations]) => ({ tag, operations })),
  };
}
