import { z } from "zod";
import { listChoice, listFilter, listPage, listSearch } from "../../lib/list-query.ts";
import { toCents } from "../../lib/money.ts";
import {
  COUPON_CODE_PATTERN,
  COUPON_FORM_MESSAGES,
  COUPON_KINDS,
  type CouponField,
  type CouponFormValues,
  type CouponInput,
  expiryFromLastDay,
} from "./coupon-form.ts";
import { COUPON_SORTS, COUPON_STATES } from "./coupon-list-query.ts";
import { normalizeCouponCode } from "./coupon-rules.ts";

/**
 * The coupon forms' zod schemas (parsed by the routes through Conform). Server only: building an
 * object schema runs zod's eval probe, which the shop's CSP refuses in the browser.
 */

const MAX_CENTS = 10_000_000; // $100,000.00
const MAX_USAGE_LIMIT = 1_000_000;

const DOLLARS = /^\d{1,6}(\.\d{1,2})?$/;
const dollars = (message: string, { positive }: { positive: boolean }) =>
  z
    .string()
    .regex(DOLLARS, message)
    .transform((value) => toCents(value))
    .refine((cents) => cents <= MAX_CENTS && (!positive || cents > 0), message);

const fieldSchemas = {
  code: z
    .string()
    .min(1, COUPON_FORM_MESSAGES.codeRequired)
    .transform(normalizeCouponCode)
    .pipe(z.string().regex(COUPON_CODE_PATTERN, COUPON_FORM_MESSAGES.codeFormat)),
  kind: z.enum(COUPON_KINDS, { error: COUPON_FORM_MESSAGES.kind }),
  minSubtotal: z
    .string()
    .transform((v) => v || "0")
    .pipe(dollars(COUPON_FORM_MESSAGES.minSubtotal, { positive: false })),
  usageLimit: z
    .string()
    .refine((v) => v === "" || /^\d{1,7}$/.test(v), COUPON_FORM_MESSAGES.usageLimit)
    .transform((v) => (v === "" ? null : Number(v)))
    .refine((n) => n === null || (n >= 1 && n <= MAX_USAGE_LIMIT), COUPON_FORM_MESSAGES.usageLimit),
};

const percentValue = z
  .string()
  .regex(/^\d{1,3}$/, COUPON_FORM_MESSAGES.percent)
  .transform(Number)
  .refine((n) => n >= 1 && n <= 100, COUPON_FORM_MESSAGES.percent);
const fixedValue = dollars(COUPON_FORM_MESSAGES.fixed, { positive: true });

type CouponCheck =
  | { ok: true; value: CouponInput }
  | { ok: false; fieldErrors: Partial<Record<CouponField, string>> };

/** The rules of the coupon fields (as typed, trimmed), with a message per wrong field. */
function checkCouponValues(values: CouponFormValues, { withCode }: { withCode: boolean }): CouponCheck {
  const fieldErrors: Partial<Record<CouponField, string>> = {};
  const check = <T>(field: CouponField, schema: z.ZodType<T, string>, input: string): T | undefined => {
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    fieldErrors[field] = parsed.error.issues[0]?.message ?? COUPON_FORM_MESSAGES.invalid;
    return undefined;
  };
  const code = withCode ? check("code", fieldSchemas.code, values.code) : values.code;
  const kind = check("kind", fieldSchemas.kind, values.kind);
  const amount =
    kind === undefined
      ? undefined
      : check("value", kind === "percent" ? percentValue : fixedValue, values.value);
  const minSubtotalCents = check("minSubtotal", fieldSchemas.minSubtotal, values.minSubtotal);
  const usageLimit = check("usageLimit", fieldSchemas.usageLimit, values.usageLimit);
  let expiresAt: string | null = null;
  if (values.validThrough !== "") {
    expiresAt = expiryFromLastDay(values.validThrough);
    if (expiresAt === null) fieldErrors.validThrough = COUPON_FORM_MESSAGES.expiry;
  }
  if (
    Object.keys(fieldErrors).length > 0 ||
    code === undefined ||
    kind === undefined ||
    amount === undefined ||
    minSubtotalCents === undefined ||
    usageLimit === undefined
  ) {
    return { ok: false, fieldErrors };
  }
  return { ok: true, value: { code, kind, amount, minSubtotalCents, expiresAt, usageLimit } };
}

/** A text field as the form sends it (Conform gives an empty one as undefined): trimmed, bounded. */
const typed = (max: number) =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim().slice(0, max));

const couponFields = {
  kind: typed(20),
  value: typed(20),
  minSubtotal: typed(20),
  usageLimit: typed(20),
  validThrough: typed(20),
};

/** Adds the field messages of a refused check to the parse (Conform shows each beside its field). */
function refuse(ctx: z.RefinementCtx, fieldErrors: Partial<Record<CouponField, string>>) {
  for (const [field, message] of Object.entries(fieldErrors)) {
    ctx.addIssue({ code: "custom", path: [field], message });
  }
  return z.NEVER;
}

/** The new-coupon form: every field checked, the code upper-cased (uniqueness is `createCoupon`'s). */
export const couponFormSchema = z.object({ code: typed(100), ...couponFields }).transform((values, ctx) => {
  const checked = checkCouponValues(values, { withCode: true });
  return checked.ok ? checked.value : refuse(ctx, checked.fieldErrors);
});

const intOf = (value: string | undefined) =>
  value !== undefined && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;

/**
 * The edit page's and the list's forms: `update` (the terms; the code is fixed), `disable`,
 * `enable`. The list names the coupon in `couponId` (the edit page's comes from the URL).
 */
export const couponActionSchema = z
  .object({
    intent: z.enum(["update", "disable", "enable"], { error: COUPON_FORM_MESSAGES.badRequest }),
    couponId: z.string().optional(),
    confirm: z.string().optional(),
    ...couponFields,
  })
  .transform((form, ctx) => {
    const couponId = intOf(form.couponId);
    if (form.intent !== "update") return { intent: form.intent, couponId, confirm: form.confirm };
    const checked = checkCouponValues({ ...form, code: "" }, { withCode: false });
    if (!checked.ok) return refuse(ctx, checked.fieldErrors);
    const { code: _code, ...terms } = checked.value;
    return { intent: form.intent, couponId, terms };
  });

/**
 * The coupon list's query (`/admin/coupons?search=&state=&kind=&sort=&page=`): each value checked
 * on its own, a bad one left out (a filter) or back to its default (sort, page).
 */
export const couponListQuerySchema = z.object({
  search: listSearch(32),
  state: listFilter(COUPON_STATES),
  kind: listFilter(COUPON_KINDS),
  sort: listChoice(COUPON_SORTS, "code"),
  page: listPage,
});
export type CouponListQuery = z.output<typeof couponListQuerySchema>;
