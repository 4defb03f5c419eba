import { invalidRequest, missingParam, unknownParam } from "./errors.ts";
import type { Metadata, Param, Params } from "./types.ts";

/**
 * Stripe's form encoding: `metadata[order_id]=1`, `line_items[0][price_data][currency]=eur`,
 * `expand[]=payment_intent` (the SDK writes `expand[0]=…`). A segment that is empty or a number
 * makes its container an array; anything else makes an object.
 */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const head = rawKey.match(/^[^[\]]+/)?.[0];
    if (!head) throw invalidRequest(`Invalid parameter name: ${rawKey}`);
    const segments = [
      head,
      ...Array.from(rawKey.slice(head.length).matchAll(/\[([^[\]]*)\]/g), (m) => m[1] ?? ""),
    ];
    assign(root, segments, value, rawKey);
  }
  return root;
}

type Container = Param[] | { [key: string]: Param };

function assign(container: Container, segments: string[], value: string, rawKey: string): void {
  const [segment, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(container)) {
    const index = segment === "" ? container.length : Number(segment);
    if (!Number.isInteger(index) || index > 1000) throw invalidRequest(`Invalid array index in ${rawKey}`);
    if (rest.length === 0) {
      container[index] = value;
      return;
    }
    container[index] = child(container[index], rest[0] as string, rawKey);
    assign(container[index] as Container, rest, value, rawKey);
    return;
  }
  if (segment === "" || segment === "__proto__") throw invalidRequest(`Invalid parameter name: ${rawKey}`);
  if (rest.length === 0) {
    container[segment] = value;
    return;
  }
  container[segment] = child(container[segment], rest[0] as string, rawKey);
  assign(container[segment] as Container, rest, value, rawKey);
}

function child(existing: Param | undefined, nextSegment: string, rawKey: string): Container {
  const wantsArray = nextSegment === "" || /^\d+$/.test(nextSegment);
  if (existing === undefined) return wantsArray ? [] : {};
  if (typeof existing === "string" || Array.isArray(existing) !== wantsArray) {
    throw invalidRequest(`Invalid parameter structure at ${rawKey}`);
  }
  return existing;
}

/** The same parameters in one spelling whatever their order, for comparing idempotent requests. */
export function canonical(params: Params): string {
  const sort = (value: Param): unknown =>
    typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.map(sort)
        : Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sort(value[k] as Param)]),
          );
  return JSON.stringify(sort(params));
}

/** Stripe refuses parameters it does not know; `parent` names the nested object, e.g. `line_items[0]`. */
export function rejectUnknown(params: Params, allowed: readonly string[], parent?: string): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw unknownParam(parent ? `${parent}[${key}]` : key);
  }
}

export function optionalString(params: Params, name: string, label = name): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw invalidRequest(`Invalid string: ${label}`, { code: "parameter_invalid_string", param: label });
  return value;
}

export function requiredString(params: Params, name: string, label = name): string {
  const value = optionalString(params, name, label);
  if (value === undefined || value === "") throw missingParam(label);
  return value;
}

export function optionalInteger(params: Params, name: string, label = name): number | undefined {
  const value = optionalString(params, name, label);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw invalidRequest(`Invalid integer: ${value}`, { code: "parameter_invalid_integer", param: label });
  }
  return Number(value);
}

export function requiredInteger(params: Params, name: string, label = name): number {
  const value = optionalInteger(params, name, label);
  if (value === undefined) throw missingParam(label);
  return value;
}

export function optionalBoolean(params: Params, name: string, label = name): boolean | undefined {
  const value = optionalString(params, name, label);
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") {
    throw invalidRequest(`Invalid boolean: ${value}`, { code: "parameter_invalid_boolean", param: label });
  }
  return value === "true";
}

export function optionalEnum<T extends string>(
  params: Params,
  name: string,
  values: readonly T[],
  label = name,
): T | undefined {
  const value = optionalString(params, name, label);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw invalidRequest(`Invalid ${label}: must be one of ${values.join(", ")}`, {
      code: "parameter_invalid_string",
      param: label,
    });
  }
  return value as T;
}

export function optionalObject(params: Params, name: string, label = name): Params | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value === "string" || Array.isArray(value)) {
    throw invalidRequest(`Invalid object: ${label}`, { code: "parameter_invalid_object", param: label });
  }
  return value;
}

export function optionalArray(params: Params, name: string, label = name): Param[] | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value))
    throw invalidRequest(`Invalid array: ${label}`, { code: "parameter_invalid_array", param: label });
  return value.filter((item) => item !== undefined);
}

/** `expand[]` as a list of dotted paths. */
export function expandPaths(params: Params): string[] {
  const value = params.expand;
  if (value === undefined) return [];
  const list =
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
        ? value.filter((item) => item !== undefined)
        : [];
  return list.map((item) => {
    if (typeof item !== "string") throw invalidRequest("Invalid expand", { param: "expand" });
    return item;
  });
}

/**
 * `metadata[key]=value` merged into `current`: an empty value removes the key, `metadata=` (empty)
 * clears all, as Stripe does on update.
 */
export function mergeMetadata(current: Metadata, params: Params, name = "metadata"): Metadata {
  const value = params[name];
  if (value === undefined) return current;
  if (value === "") return {};
  if (typeof value === "string" || Array.isArray(value)) {
    throw invalidRequest(`Invalid object: ${name}`, { code: "parameter_invalid_object", param: name });
  }
  const next: Metadata = { ...current };
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string")
      throw invalidRequest(`Invalid metadata value for ${key}`, { param: `${name}[${key}]` });
    if (key.length > 40)
      throw invalidRequest("Metadata keys can be at most 40 characters", { param: `${name}[${key}]` });
    if (item.length > 500)
      throw invalidRequest("Metadata values can be at most 500 characters", { param: `${name}[${key}]` });
    if (item === "") delete next[key];
    else next[key] = item;
  }
  if (Object.keys(next).length > 50)
    throw invalidRequest("Metadata can have at most 50 keys", { param: name });
  return next;
}

export function currencyParam(params: Params, name = "currency", label = name): string {
  const value = requiredString(params, name, label).toLowerCase();
  if (!/^[a-z]{3}$/.test(value))
    throw invalidRequest(`Invalid currency: ${value}`, { code: "parameter_invalid_string", param: label });
  return value;
}

export function urlParam(params: Params, name: string, label = name): string | undefined {
  const value = optionalString(params, name, label);
  if (value === undefined || value === "") return undefined;
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value.replaceAll("{CHECKOUT_SESSION_ID}", "x"))) {
    throw invalidRequest("Not a valid URL", { code: "url_invalid", param: label });
  }
  return value;
}
