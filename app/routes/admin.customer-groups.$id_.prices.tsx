import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { Field } from "../components/admin/zone-form-parts.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { PRICE_LIST_MESSAGES as M } from "../domain/customer-groups/price-list-form.ts";
import { priceListSchema } from "../domain/customer-groups/price-list-schema.server.ts";
import {
  getPriceList,
  type PriceListError,
  removeGroupPrice,
  setGroupPrice,
} from "../domain/customer-groups/price-lists.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS, formatMoney } from "../lib/money.ts";
import type { Route } from "./+types/admin.customer-groups.$id_.prices";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Price list of ${loaderData.group.name}` : "Price list",
    `/admin/customer-groups/${params.id}/prices`,
  );

/** A customer group's price list (decision 037): the permission of the group pages (`customers`). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  const list = id ? await getPriceList(servicesFrom(context).db, id) : null;
  if (!list) throw data(null, { status: 404 });
  const shop = await shopSettingsFrom(context);
  return {
    group: { id: list.id, name: list.name },
    count: list.count,
    prices: list.prices,
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

type Intent = "set" | "remove";

function refusalOf(error: PriceListError): { status: number; message: string; field?: string } {
  switch (error.code) {
    case "forbidden":
      return { status: 403, message: M.forbidden };
    case "not-found":
      return { status: 404, message: M.notFound };
    case "unknown-sku":
      return { status: 400, message: M.unknownSku(error.sku), field: "sku" };
    case "not-listed":
      return { status: 404, message: M.notListed };
    case "unreadable":
      return { status: 400, message: error.message };
    case "bad-lines":
      return { status: 400, message: M.badLines(error.problems.length) };
  }
}

/** `set` (a SKU's price: new or changed), `remove` (a variant off the list). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const actor = { id: staff.id, email: staff.email, role: staff.role };
  const submission = await parseForm(request, priceListSchema, { disableAutoCoercion: true });
  const intent: Intent = submission.payload.intent === "remove" ? "remove" : "set";
  const refuse = (status: number, message: string, field?: string) =>
    data(
      {
        intent,
        result: submission.reply({ formErrors: [message], fieldErrors: field ? { [field]: [message] } : {} }),
      },
      { status },
    );
  if (submission.status !== "success") return refuse(400, M.invalid);
  const { db } = servicesFrom(context);
  const here = `/admin/customer-groups/${id}/prices`;
  const refused = (error: PriceListError) => {
    if (error.code === "not-found") throw data(null, { status: 404 });
    if (error.code === "forbidden") throw data(M.forbidden, { status: 403 });
    const { status, message, field } = refusalOf(error);
    return refuse(status, message, field);
  };
  const form = submission.value;
  switch (form.intent) {
    case "set": {
      const shop = await shopSettingsFrom(context);
      const set = await setGroupPrice(db, {
        id,
        sku: form.sku,
        priceCents: form.priceCents,
        currency: shop.currency,
        actor,
      });
      if (!set.ok) return refused(set.error);
      return redirectWithToast(here, {
        type: "success",
        message: M.set(set.value.sku, formatMoney(set.value.priceCents, shop.currency)),
      });
    }
    case "remove": {
      const removed = await removeGroupPrice(db, { id, variantId: form.variantId, actor });
      if (!removed.ok) return refused(removed.error);
      return redirectWithToast(here, { type: "success", message: M.removed(removed.value.sku) });
    }
  }
}

const BUTTON = "rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800";
const SECTION = "space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6";

export default function AdminGroupPriceList({ loaderData, actionData }: Route.ComponentProps) {
  const { group, prices, count } = loaderData;
  const money = useMoney();
  const busy = useNavigation().state === "submitting";
  const resultOf = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);
  const [setForm, fields] = useForm<{ sku: string; price: string }>({
    id: "price-set",
    lastResult: resultOf("set"),
  });
  const groupPath = `/admin/customer-groups/${group.id}`;
  return (
    <div className="max-w-4xl space-y-8">
      <div>
        <p>
          <Link to={groupPath} className="font-semibold text-brand-700 hover:underline">
            ← Back to {group.name}
          </Link>
        </p>
        <h1 className="mt-2 text-3xl font-bold break-words">Price list of {group.name}</h1>
        <p className="mt-1 text-sm text-gray-700">
          Signed-in members of this group pay these prices when they are below the regular price and below any
          catalogue sale price (the lower of the two, never both). {count} {count === 1 ? "price" : "prices"}.
        </p>
      </div>

      <Form method="post" id={setForm.id} noValidate className={SECTION} aria-labelledby="set-heading">
        <h2 id="set-heading" className="text-xl font-bold">
          Set a price
        </h2>
        <AdminMessage feedback={refusal(resultOf("set"))} />
        <input type="hidden" name="intent" value="set" />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field
            field={fields.sku}
            id="price-sku"
            label="Variant SKU"
            required
            maxLength={64}
            hint="The variant's SKU; a price it already has is replaced."
          />
          <Field
            field={fields.price}
            id="price-amount"
            label={`Member price (${loaderData.currencySymbol})`}
            required
            inputMode="decimal"
            maxLength={14}
            hint="Above 0, like 19 or 18.50."
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          Set price
        </button>
      </Form>

      <Form
        method="post"
        action={`${groupPath}/prices/import`}
        encType="multipart/form-data"
        className={SECTION}
        aria-labelledby="import-prices-heading"
      >
        <h2 id="import-prices-heading" className="text-xl font-bold">
          Import prices
        </h2>
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
            aria-describedby="prices-csv-hint"
            className="mt-1 block w-full text-sm text-gray-900"
          />
          <p id="prices-csv-hint" className="mt-1 text-sm text-gray-600">
            Two columns, sku,price (a header line is skipped). All the lines are set, or — when one names no
            variant or no price — none, and the lines to correct are listed.
          </p>
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          Import CSV
        </button>
      </Form>

      <section aria-labelledby="prices-heading">
        <h2 id="prices-heading" className="text-xl font-bold">
          Prices
        </h2>
        <AdminMessage feedback={refusal(resultOf("remove"))} />
        {prices.length === 0 ? (
          <p className="mt-2 text-gray-700">No prices yet: members pay the regular prices.</p>
        ) : (
          <TableScroll label="The group's prices" className="mt-3">
            <StackedTable>
              <thead className={STACKED_TABLE.head}>
                <Row>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>SKU</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Product</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Regular price</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Member price</ColumnHeader>
                  <ColumnHeader className="py-2 font-semibold">
                    <span className="sr-only">Actions</span>
                  </ColumnHeader>
                </Row>
              </thead>
              <tbody className={STACKED_TABLE.body}>
                {prices.map((price) => (
                  <Row
                    key={price.variantId}
                    className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}
                  >
                    <RowHeader className={`${STACKED_TABLE.cell} font-semibold break-all`}>
                      {price.sku}
                    </RowHeader>
                    <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                      <CardLabel>Product</CardLabel>
                      {price.productName}
                      {price.options ? ` (${price.options})` : ""}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                      <CardLabel>Regular price</CardLabel>
                      {money(price.regularCents)}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                      <CardLabel>Member price</CardLabel>
                      {money(price.priceCents)}
                      {price.priceCents >= price.regularCents && (
                        <span className="ml-2 text-sm text-amber-800">
                          not below the regular price: not used
                        </span>
                      )}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1`}>
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="variantId" value={price.variantId} />
                        <button
                          type="submit"
                          disabled={busy}
                          className="rounded-lg border border-red-700 bg-white px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50"
                        >
                          Remove<span className="sr-only"> {price.sku}</span>
                        </button>
                      </Form>
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </StackedTable>
          </TableScroll>
        )}
        {count > prices.length && (
          <p className="mt-2 text-sm text-gray-700">
            Showing the first {prices.length} of {count} by SKU.
          </p>
        )}
      </section>
    </div>
  );
}
