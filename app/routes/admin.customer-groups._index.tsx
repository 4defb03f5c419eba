import { useForm } from "@conform-to/react";
import { data, Form, Link } from "react-router";
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
import { Field } from "../components/admin/zone-form-parts.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { createGroup, listGroups } from "../domain/customer-groups/customer-groups.server.ts";
import { GROUP_LIMITS, GROUP_MESSAGES as M, ruleText } from "../domain/customer-groups/group-form.ts";
import { newGroupSchema } from "../domain/customer-groups/group-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.customer-groups._index";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Customer groups", "/admin/customer-groups");

const LIST = "/admin/customer-groups";

/** Every group with its member count and rule. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const shop = await shopSettingsFrom(context);
  const groups = await listGroups(servicesFrom(context).db);
  return {
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      description: group.description,
      rule: group.rule ? ruleText(group.rule, shop.currency) : null,
      memberCount: group.memberCount,
    })),
  };
}

/** A new group (a name and a description); its members and rule are set on its page. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "customers");
  const submission = await parseForm(request, newGroupSchema, { disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const created = await createGroup(servicesFrom(context).db, {
    input: submission.value,
    actor: { id: staff.id, email: staff.email, role: staff.role },
  });
  if (!created.ok) {
    if (created.error.code === "forbidden") throw data(M.forbidden, { status: 403 });
    const message = created.error.code === "name-taken" ? M.nameTaken(created.error.name) : M.invalid;
    return data(
      { result: submission.reply({ formErrors: [message], fieldErrors: { name: [message] } }) },
      { status: 409 },
    );
  }
  return redirectWithToast(`${LIST}/${created.value.id}`, {
    type: "success",
    message: M.created(created.value.name),
  });
}

export default function AdminCustomerGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { groups } = loaderData;
  const [form, fields] = useForm<{ name: string; description: string }>({
    id: "group-form",
    lastResult: actionData?.result,
  });
  return (
    <section aria-labelledby="groups-heading">
      <h1 id="groups-heading" className="text-3xl font-bold">
        Customer groups
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        Customers added by hand, from a CSV of e-mails, or by a rule such as “spent over $500”. A promotion
        can be for a group&apos;s signed-in members only (its conditions, under{" "}
        <Link to="/admin/promotions" className="font-semibold text-brand-700 hover:underline">
          Promotions
        </Link>
        ).
      </p>
      {groups.length === 0 ? (
        <p className="mt-6 text-gray-700">No customer groups yet.</p>
      ) : (
        <TableScroll label="Customer group list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Rule</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>Members</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {groups.map((group) => (
                <Row key={group.id} className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>
                    {group.name}
                    {group.description && (
                      <span className="block text-xs font-normal text-gray-700">{group.description}</span>
                    )}
                  </RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Rule</CardLabel>
                    {group.rule ?? "None"}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1 md:text-right`}>
                    <CardLabel>Members</CardLabel>
                    {group.memberCount}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 pt-1`}>
                    <Link
                      to={`${LIST}/${group.id}`}
                      className="inline-block rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                    >
                      Manage<span className="sr-only"> {group.name}</span>
                    </Link>
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}

      <Form
        method="post"
        id={form.id}
        noValidate
        className="mt-10 max-w-3xl space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6"
      >
        <h2 className="text-xl font-bold">New customer group</h2>
        <AdminMessage feedback={refusal(actionData?.result)} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field
            field={fields.name}
            id="group-name"
            label="Group name"
            required
            maxLength={GROUP_LIMITS.name}
          />
          <Field
            field={fields.description}
            id="group-description"
            label="Description"
            maxLength={GROUP_LIMITS.description}
            hint="Optional: for the staff only."
          />
        </div>
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Create group
        </button>
      </Form>
    </section>
  );
}
