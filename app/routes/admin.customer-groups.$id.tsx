import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { Field, FieldNote, INPUT } from "../components/admin/zone-form-parts.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { deleteGroup, getGroup, updateGroup } from "../domain/customer-groups/customer-groups.server.ts";
import {
  GROUP_LIMITS,
  GROUP_MESSAGES as M,
  ruleText,
  SOURCE_LABELS,
} from "../domain/customer-groups/group-form.ts";
import { addMembers, removeMember } from "../domain/customer-groups/group-members.server.ts";
import { refreshGroup } from "../domain/customer-groups/group-rules.server.ts";
import { groupEditSchema } from "../domain/customer-groups/group-schema.server.ts";
import type { GroupError } from "../domain/customer-groups/group-store.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.customer-groups.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Customer group ${loaderData.group.name}` : "Customer group",
    `/admin/customer-groups/${params.id}`,
  );

const LIST = "/admin/customer-groups";

/** "500.00" for 50 000 cents: the rule's amount as the field shows it. */
const amountText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  const group = id ? await getGroup(servicesFrom(context).db, id) : null;
  if (!group) throw data(null, { status: 404 });
  const shop = await shopSettingsFrom(context);
  return {
    group: {
      id: group.id,
      name: group.name,
      description: group.description,
      hasRule: group.rule !== null,
      rule: ruleText(group.rule, shop.currency),
      memberCount: group.memberCount,
      moreMembers: group.moreMembers,
      members: group.members.map((member) => ({
        userId: member.userId,
        email: member.email,
        name: member.name,
        source: SOURCE_LABELS[member.source],
      })),
    },
    values: {
      name: group.name,
      description: group.description,
      spentOver: group.rule ? amountText(group.rule.cents) : "",
    },
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

type Intent = "save" | "add" | "remove" | "refresh" | "delete";

function refusalOf(error: GroupError): { status: number; message: string; field?: string } {
  switch (error.code) {
    case "forbidden":
      return { status: 403, message: M.forbidden };
    case "not-found":
      return { status: 404, message: M.notFound };
    case "name-taken":
      return { status: 409, message: M.nameTaken(error.name), field: "name" };
    case "unknown-emails":
      return { status: 400, message: M.unknownEmails(error.emails), field: "emails" };
    case "no-rule":
      return { status: 400, message: M.noRule };
    case "unreadable":
      return { status: 400, message: error.message };
    case "in-use":
      return { status: 409, message: M.inUse(error.promotions) };
  }
}

/** `save` (details and rule), `add` (by e-mail), `remove` (a member), `refresh` (the rule now), `delete` (confirmed). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "customers");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const actor = { id: staff.id, email: staff.email, role: staff.role };
  const submission = await parseForm(request, groupEditSchema, { disableAutoCoercion: true });
  const posted = typeof submission.payload.intent === "string" ? submission.payload.intent : "save";
  const intent: Intent = (["save", "add", "remove", "refresh", "delete"] as const).includes(posted as Intent)
    ? (posted as Intent)
    : "save";
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
  const here = `${LIST}/${id}`;
  const form = submission.value;
  const refused = (error: GroupError) => {
    if (error.code === "not-found" && form.intent !== "remove") throw data(null, { status: 404 });
    const { status, message, field } = refusalOf(error);
    return refuse(status, message, field);
  };
  switch (form.intent) {
    case "save": {
      const saved = await updateGroup(db, {
        id,
        input: { name: form.name, description: form.description },
        rule: form.rule,
        actor,
      });
      if (!saved.ok) return refused(saved.error);
      const { changed, added, removed, name } = saved.value;
      const moved = added + removed > 0 ? `; ${M.refreshed(added, removed).toLowerCase()}` : "";
      return redirectWithToast(here, {
        type: "success",
        message: changed ? M.saved(name) + moved : M.unchanged,
      });
    }
    case "add": {
      const added = await addMembers(db, { id, emails: form.emails, actor });
      if (!added.ok) return refused(added.error);
      return redirectWithToast(here, { type: "success", message: M.added(added.value.added) });
    }
    case "remove": {
      const removed = await removeMember(db, { id, userId: form.userId, actor });
      if (!removed.ok) return refused(removed.error);
      return redirectWithToast(here, { type: "success", message: M.removed(removed.value.email) });
    }
    case "refresh": {
      const refreshed = await refreshGroup(db, { id, actor });
      if (!refreshed.ok) return refused(refreshed.error);
      return redirectWithToast(here, {
        type: "success",
        message: M.refreshed(refreshed.value.added, refreshed.value.removed),
      });
    }
    case "delete": {
      if (!form.confirmed) return refuse(400, M.deleteUnconfirmed);
      const deleted = await deleteGroup(db, { id, actor });
      if (!deleted.ok) return refused(deleted.error);
      return redirectWithToast(LIST, { type: "success", message: M.deleted(deleted.value.name) });
    }
  }
}

const BUTTON = "rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800";
const SECTION = "space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6";

export default function AdminCustomerGroup({ loaderData, actionData }: Route.ComponentProps) {
  const { group, values } = loaderData;
  const busy = useNavigation().state === "submitting";
  const resultOf = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);
  const [detailsForm, details] = useForm<{ name: string; description: string; spentOver: string }>({
    id: "group-details",
    lastResult: resultOf("save"),
    defaultValue: values,
  });
  const [addForm, add] = useForm<{ emails: string }>({ id: "group-add", lastResult: resultOf("add") });
  const emailsError = add.emails.errors?.[0];
  const here = `${LIST}/${group.id}`;
  return (
    <div className="max-w-4xl space-y-8">
      <div>
        <p>
          <Link to={LIST} className="font-semibold text-brand-700 hover:underline">
            ← Back to customer groups
          </Link>
        </p>
        <h1 className="mt-2 text-3xl font-bold break-words">Customer group {group.name}</h1>
        <p className="mt-1 text-sm text-gray-700">
          {group.memberCount} {group.memberCount === 1 ? "member" : "members"}. {group.rule}
        </p>
      </div>

      <Form
        method="post"
        id={detailsForm.id}
        noValidate
        className={SECTION}
        aria-labelledby="details-heading"
      >
        <h2 id="details-heading" className="text-xl font-bold">
          Details and rule
        </h2>
        <AdminMessage feedback={refusal(resultOf("save"))} />
        <input type="hidden" name="intent" value="save" />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field
            field={details.name}
            id="group-name"
            label="Group name"
            required
            maxLength={GROUP_LIMITS.name}
          />
          <Field
            field={details.description}
            id="group-description"
            label="Description"
            maxLength={GROUP_LIMITS.description}
          />
          <Field
            field={details.spentOver}
            id="group-spentOver"
            label={`Rule: spent over (${loaderData.currencySymbol})`}
            inputMode="decimal"
            maxLength={14}
            hint="Customers whose placed orders, net of refunds, come to more than this join the group when you save and every day after; empty: no rule. Members added by hand or by CSV stay either way."
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON}>
          Save group
        </button>
      </Form>

      <section className={SECTION} aria-labelledby="price-list-heading">
        <h2 id="price-list-heading" className="text-xl font-bold">
          Price list
        </h2>
        <p className="text-sm text-gray-700">
          The group's own prices per variant: its signed-in members pay them where they are lower.
        </p>
        <p>
          <Link to={`${here}/prices`} className="font-semibold text-brand-700 hover:underline">
            Open the price list of {group.name}
          </Link>
        </p>
      </section>

      {group.hasRule && (
        <Form method="post" className={SECTION} aria-labelledby="refresh-heading">
          <h2 id="refresh-heading" className="text-xl font-bold">
            Rule members
          </h2>
          <AdminMessage feedback={refusal(resultOf("refresh"))} />
          <p className="text-sm text-gray-700">
            The rule is applied every day; apply it now to add those who qualify and remove those who no
            longer do.
          </p>
          <input type="hidden" name="intent" value="refresh" />
          <button type="submit" disabled={busy} className={BUTTON}>
            Refresh members
          </button>
        </Form>
      )}

      <section aria-labelledby="add-heading" className={SECTION}>
        <h2 id="add-heading" className="text-xl font-bold">
          Add customers
        </h2>
        <Form method="post" id={addForm.id} noValidate className="space-y-3">
          <AdminMessage feedback={refusal(resultOf("add"))} />
          <input type="hidden" name="intent" value="add" />
          <div>
            <label htmlFor="group-emails" className="block text-sm font-semibold text-gray-900">
              E-mail addresses<span aria-hidden="true"> *</span>
            </label>
            <textarea
              key={add.emails.key}
              id="group-emails"
              name={add.emails.name}
              rows={3}
              required
              defaultValue={typeof add.emails.initialValue === "string" ? add.emails.initialValue : ""}
              aria-invalid={emailsError ? true : undefined}
              aria-describedby={emailsError ? "group-emails-error" : "group-emails-hint"}
              className={`${INPUT} ${emailsError ? "border-red-700 bg-red-50" : "border-gray-400"}`}
            />
            <FieldNote
              id="group-emails"
              hint={`Customers' account e-mails, separated by commas or new lines (at most ${GROUP_LIMITS.emails}).`}
              error={emailsError}
            />
          </div>
          <button type="submit" disabled={busy} className={BUTTON}>
            Add to group
          </button>
        </Form>
        <Form
          method="post"
          action={`${here}/import`}
          encType="multipart/form-data"
          className="space-y-3 border-t border-gray-200 pt-4"
        >
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
              aria-describedby="group-csv-hint"
              className="mt-1 block w-full text-sm text-gray-900"
            />
            <p id="group-csv-hint" className="mt-1 text-sm text-gray-600">
              One e-mail a line, or in any column; a header line is skipped. Lines that name no customer are
              listed after the import; the others are added.
            </p>
          </div>
          <button type="submit" disabled={busy} className={BUTTON}>
            Import CSV
          </button>
        </Form>
      </section>

      <section aria-labelledby="members-heading">
        <h2 id="members-heading" className="text-xl font-bold">
          Members
        </h2>
        <AdminMessage feedback={refusal(resultOf("remove"))} />
        {group.members.length === 0 ? (
          <p className="mt-2 text-gray-700">No members yet.</p>
        ) : (
          <TableScroll label="Members of the group" className="mt-3">
            <StackedTable>
              <thead className={STACKED_TABLE.head}>
                <Row>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>E-mail</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>How they joined</ColumnHeader>
                  <ColumnHeader className="py-2 font-semibold">
                    <span className="sr-only">Actions</span>
                  </ColumnHeader>
                </Row>
              </thead>
              <tbody className={STACKED_TABLE.body}>
                {group.members.map((member) => (
                  <Row key={member.userId} className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}>
                    <RowHeader className={`${STACKED_TABLE.cell} font-semibold break-all`}>
                      <Link
                        to={`/admin/customers/${member.userId}`}
                        className="text-brand-700 hover:underline"
                      >
                        {member.email}
                      </Link>
                    </RowHeader>
                    <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                      <CardLabel>Name</CardLabel>
                      {member.name}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                      <CardLabel>How they joined</CardLabel>
                      {member.source}
                    </Cell>
                    <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1`}>
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="userId" value={member.userId} />
                        <button
                          type="submit"
                          disabled={busy}
                          className="rounded-lg border border-red-700 bg-white px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50"
                        >
                          Remove<span className="sr-only"> {member.email}</span>
                        </button>
                      </Form>
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </StackedTable>
          </TableScroll>
        )}
        {group.moreMembers && (
          <p className="mt-2 text-sm text-gray-700">
            Showing the first {group.members.length} of {group.memberCount} by e-mail.
          </p>
        )}
      </section>

      <section aria-labelledby="delete-group-heading" className="space-y-3">
        <h2 id="delete-group-heading" className="text-xl font-bold">
          Delete this group
        </h2>
        <AdminMessage feedback={refusal(resultOf("delete"))} />
        <ConfirmAction
          label="Delete group"
          question={`Delete group ${group.name}? Its ${group.memberCount} members leave it (their accounts stay), and promotions for this group no longer apply to them.`}
          confirmLabel="Yes, delete group"
          keepLabel="Keep it"
          keepTo={here}
          fields={{ intent: "delete" }}
        />
      </section>
    </div>
  );
}
