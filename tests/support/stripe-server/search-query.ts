import { invalidRequest } from "./errors.ts";

/**
 * A subset of Stripe's search query language (https://docs.stripe.com/search#search-query-language):
 * clauses `field:'value'`, `field~'substring'`, `field>10` (also `<`, `>=`, `<=`), `metadata['key']:'value'`,
 * a leading `-` to negate, all joined by `AND` or all by `OR` (Stripe does not mix them), at most 10.
 */

type Operator = ":" | "~" | ">" | "<" | ">=" | "<=";

interface Clause {
  negated: boolean;
  field: string;
  metadataKey: string | null;
  operator: Operator;
  value: string;
  numeric: boolean;
}

const CLAUSE =
  /^\s*(-)?(?:metadata\[(['"])(.+?)\2\]|([a-z_]+))\s*(>=|<=|:|~|>|<)\s*(?:(['"])((?:\\.|(?!\6).)*)\6|(-?\d+)|(null))\s*/;

export type SearchableFields = Record<string, "string" | "number">;

export function parseSearchQuery(
  query: string,
  fields: SearchableFields,
): (item: Record<string, unknown>) => boolean {
  const clauses: Clause[] = [];
  const joiners = new Set<string>();
  let rest = query;
  while (rest.trim() !== "") {
    const match = rest.match(CLAUSE);
    if (!match) throw badQuery(query);
    const [all, negated, , metadataKey, field, operator, , quoted, number, isNull] = match;
    const name = metadataKey !== undefined ? "metadata" : (field as string);
    if (metadataKey === undefined && !(name in fields)) {
      throw invalidRequest(
        `Field \`${name}\` is an unsupported search field for resource \`payment_intents\`.`,
        {
          param: "query",
        },
      );
    }
    const isNumberField = metadataKey === undefined && fields[name] === "number";
    if ((operator as string).length > 1 || operator === ">" || operator === "<") {
      if (!isNumberField || number === undefined) throw badQuery(query);
    }
    clauses.push({
      negated: negated === "-",
      field: name,
      metadataKey: metadataKey ?? null,
      operator: operator as Operator,
      value: isNull ? "" : (quoted ?? number ?? "").replace(/\\(.)/g, "$1"),
      numeric: isNumberField,
    });
    rest = rest.slice(all.length);
    const joiner = rest.match(/^(AND|OR)\s+/);
    if (joiner) {
      joiners.add(joiner[1] as string);
      rest = rest.slice(joiner[0].length);
      if (rest.trim() === "") throw badQuery(query);
    } else if (rest.trim() !== "") {
      throw badQuery(query);
    }
  }
  if (clauses.length === 0) throw badQuery(query);
  if (joiners.size > 1) throw invalidRequest("Search queries cannot mix AND and OR.", { param: "query" });
  if (clauses.length > 10)
    throw invalidRequest("Search queries can have at most 10 clauses.", { param: "query" });
  const any = joiners.has("OR");
  return (item) => (any ? clauses.some((c) => matches(c, item)) : clauses.every((c) => matches(c, item)));
}

function matches(clause: Clause, item: Record<string, unknown>): boolean {
  let actual: unknown = item[clause.field];
  if (clause.metadataKey !== null) actual = (actual as Record<string, string> | null)?.[clause.metadataKey];
  let result: boolean;
  if (clause.numeric) {
    const have = Number(actual);
    const want = Number(clause.value);
    result =
      clause.operator === ">"
        ? have > want
        : clause.operator === "<"
          ? have < want
          : clause.operator === ">="
            ? have >= want
            : clause.operator === "<="
              ? have <= want
              : have === want;
  } else if (clause.operator === "~") {
    result = typeof actual === "string" && actual.toLowerCase().includes(clause.value.toLowerCase());
  } else if (clause.value === "") {
    result = actual === undefined || actual === null || actual === "";
  } else {
    result = typeof actual === "string" && actual === clause.value;
  }
  return clause.negated ? !result : result;
}

function badQuery(query: string) {
  return invalidRequest(`Invalid search query: ${query}`, {
    code: "parameter_invalid_string",
    param: "query",
  });
}
