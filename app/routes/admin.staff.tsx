import { data, Form } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
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
import { FormField } from "../components/checkout/form-field.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { mailShopFrom, servicesFrom } from "../context.ts";
import {
  cancelStaffInvitation,
  inviteStaff,
  listStaff,
  listStaffInvitations,
  STAFF_MESSAGES,
  setStaffRole,
  staffActionSchema,
} from "../domain/accounts/staff.server.ts";
import { parseForm } from "../http/form.server.ts";
import { FORBIDDEN_STATUS, requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatLongDate } from "../infra/format.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { INVITATION_DAYS, ROLE_LABELS, STAFF_ROLES } from "../lib/staff-roles.ts";
import type { Route } from "./+types/admin.staff";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Staff", "/admin/staff");

const ROLE_HINTS = {
  owner: "everything",
  admin: "everything but settings and staff",
  staff: "products, orders (no refunds), reviews",
} as const;

/** The owner's page: who is on the staff, who is invited, invite someone, change a role, remove someone. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = await requirePermission(request, context, "staff");
  const { db } = servicesFrom(context);
  return { staff: await listStaff(db), invitations: await listStaffInvitations(db), me: owner.id };
}

/** The domain's own permission check refused the acting member: a 403, as requirePermission answers. */
function forbidden(): never {
  throw data("Your role does not allow this.", { status: FORBIDDEN_STATUS });
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "staff");
  const services = servicesFrom(context);
  const actor = { id: owner.id, email: owner.email, role: owner.role };
  const submission = await parseForm(request, staffActionSchema);
  const intent = submission.payload.intent === "invite" ? "invite" : "member";
  const refuse = (message: string, status: number) =>
    data({ intent, result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success") {
    // the invitation's fields say what is wrong beside them; anything else is a bad request
    return intent === "invite"
      ? data({ intent, result: submission.reply() }, { status: 400 })
      : refuse("Unknown staff action.", 400);
  }
  const value = submission.value;
  if (value.intent === "invite") {
    const outcome = await inviteStaff(
      { db: services.db, mail: services.mail, shop: await mailShopFrom(context) },
      { email: value.email, role: value.role, actor },
    );
    if (!outcome.ok) {
      if (outcome.error.code === "forbidden") forbidden();
      return data(
        { intent, result: submission.reply({ fieldErrors: { email: [STAFF_MESSAGES.alreadyStaff] } }) },
        { status: 409 },
      );
    }
    return redirectWithToast("/admin/staff", {
      type: "success",
      message: STAFF_MESSAGES.invited(outcome.value.email),
    });
  }
  if (value.intent === "cancel") {
    if (value.confirm !== CONFIRM_VALUE) {
      return refuse("No invitation was cancelled: confirm with “Yes, cancel it” to cancel it.", 400);
    }
    const outcome = await cancelStaffInvitation(services.db, { invitationId: value.invitationId, actor });
    if (!outcome.ok) {
      if (outcome.error.code === "forbidden") forbidden();
      return refuse(STAFF_MESSAGES.invitationNotFound, 404);
    }
    return redirectWithToast("/admin/staff", {
      type: "success",
      message: STAFF_MESSAGES.cancelled(outcome.value.email),
    });
  }
  if (value.intent === "remove" && value.confirm !== CONFIRM_VALUE) {
    return refuse("Nobody was removed: confirm with “Yes, remove” to remove them.", 400);
  }
  const role = value.intent === "role" ? value.role : null;
  const outcome = await setStaffRole(services.db, { userId: value.userId, role, actor });
  if (!outcome.ok) {
    const { code } = outcome.error;
    if (code === "forbidden") forbidden();
    if (code === "not-found") return refuse(STAFF_MESSAGES.notFound, 404);
    return refuse(code === "yourself" ? STAFF_MESSAGES.yourself : STAFF_MESSAGES.lastOwner, 409);
  }
  const { email } = outcome.value;
  return redirectWithToast("/admin/staff", {
    type: "success",
    message: role ? STAFF_MESSAGES.roleChanged(email, role) : STAFF_MESSAGES.removed(email),
  });
}

const SELECT = "mt-1 block rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900";
const BUTTON = "rounded-lg border border-gray-400 px-3 py-2 text-sm font-semibold hover:bg-gray-100";

export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const { staff, invitations, me } = loaderData;
  const invite = actionData?.intent === "invite" ? actionData.result : undefined;
  const inviteValues = (invite?.initialValue ?? {}) as Record<string, string | undefined>;
  return (
    <section aria-labelledby="staff-heading" className="space-y-8">
      <div>
        <h1 id="staff-heading" className="text-3xl font-bold">
          Staff
        </h1>
        <p className="mt-1 text-gray-700">
          Owners may do everything; admins everything but settings and staff; staff work on products, orders
          (without refunds) and reviews.
        </p>
      </div>
      <AdminMessage feedback={actionData?.intent === "member" ? refusal(actionData.result) : null} />
      <TableScroll label="Staff members">
        <StackedTable>
          <thead className={STACKED_TABLE.head}>
            <Row>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>E-mail</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Name</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Role</ColumnHeader>
              <ColumnHeader className={STACKED_TABLE.columnHeader}>Actions</ColumnHeader>
            </Row>
          </thead>
          <tbody className={STACKED_TABLE.body}>
            {staff.map((member) => (
              <Row key={member.id} className={STACKED_TABLE.row}>
                <RowHeader className={`${STACKED_TABLE.cell} font-semibold break-all`}>
                  {member.email}
                </RowHeader>
                <Cell className={STACKED_TABLE.cell}>
                  <CardLabel>Name</CardLabel>
                  {member.name}
                </Cell>
                <Cell className={STACKED_TABLE.cell}>
                  <CardLabel>Role</CardLabel>
                  {ROLE_LABELS[member.role]}
                  {member.id === me && " (you)"}
                </Cell>
                <Cell className={STACKED_TABLE.cell}>
                  {member.id === me ? (
                    <span className="text-sm text-gray-700">—</span>
                  ) : (
                    <div className="flex flex-wrap items-end gap-2">
                      <Form method="post" className="flex flex-wrap items-end gap-2">
                        <input type="hidden" name="intent" value="role" />
                        <input type="hidden" name="userId" value={member.id} />
                        <div>
                          <label htmlFor={`role-${member.id}`} className="block text-sm font-semibold">
                            Role of {member.email}
                          </label>
                          <select
                            id={`role-${member.id}`}
                            name="role"
                            defaultValue={member.role}
                            className={SELECT}
                          >
                            {STAFF_ROLES.map((role) => (
                              <option key={role} value={role}>
                                {ROLE_LABELS[role]}
                              </option>
                            ))}
                          </select>
                        </div>
                        <button type="submit" className={BUTTON}>
                          Change role
                        </button>
                      </Form>
                      <ConfirmAction
                        size="sm"
                        label={
                          <>
                            Remove<span className="sr-only"> {member.email}</span>
                          </>
                        }
                        question={`Remove ${member.email} from the staff? Their account stays a customer's and they are signed out.`}
                        confirmLabel="Yes, remove"
                        keepLabel="Keep"
                        keepTo="/admin/staff"
                        fields={{ intent: "remove", userId: member.id }}
                      />
                    </div>
                  )}
                </Cell>
              </Row>
            ))}
          </tbody>
        </StackedTable>
      </TableScroll>

      {invitations.length > 0 && (
        <section aria-labelledby="invitations-heading" className="space-y-3">
          <h2 id="invitations-heading" className="text-xl font-bold">
            Invitations
          </h2>
          <p className="text-sm text-gray-700">
            Sent and not accepted yet. Nobody gets a role until they open the link in the e-mail and choose a
            password.
          </p>
          <TableScroll label="Pending invitations">
            <StackedTable>
              <thead className={STACKED_TABLE.head}>
                <Row>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>E-mail</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Role</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                  <ColumnHeader className={STACKED_TABLE.columnHeader}>Actions</ColumnHeader>
                </Row>
              </thead>
              <tbody className={STACKED_TABLE.body}>
                {invitations.map((invitation) => (
                  <Row key={invitation.id} className={STACKED_TABLE.row}>
                    <RowHeader className={`${STACKED_TABLE.cell} font-semibold break-all`}>
                      {invitation.email}
                    </RowHeader>
                    <Cell className={STACKED_TABLE.cell}>
                      <CardLabel>Role</CardLabel>
                      {ROLE_LABELS[invitation.role]}
                    </Cell>
                    <Cell className={STACKED_TABLE.cell}>
                      <CardLabel>Status</CardLabel>
                      {invitation.expired ? "Expired" : "Invited"},{" "}
                      {invitation.expired ? "expired on" : "expires on"}{" "}
                      <time dateTime={invitation.expiresAt}>{formatLongDate(invitation.expiresAt)}</time>
                    </Cell>
                    <Cell className={STACKED_TABLE.cell}>
                      <ConfirmAction
                        size="sm"
                        label={
                          <>
                            Cancel invitation<span className="sr-only"> to {invitation.email}</span>
                          </>
                        }
                        question={`Cancel the invitation to ${invitation.email}? The link in their e-mail stops working.`}
                        confirmLabel="Yes, cancel it"
                        keepLabel="Keep it"
                        keepTo="/admin/staff"
                        fields={{ intent: "cancel", invitationId: invitation.id }}
                      />
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </StackedTable>
          </TableScroll>
        </section>
      )}

      <section aria-labelledby="invite-heading" className="max-w-xl rounded-xl border border-gray-200 p-5">
        <h2 id="invite-heading" className="text-xl font-bold">
          Invite a staff member
        </h2>
        <p className="mt-1 text-sm text-gray-700">
          They get an e-mail with a link (valid {INVITATION_DAYS} days). They join the staff with the role
          when they open it and choose a password; someone with a customer account joins the same way.
        </p>
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="invite" />
          <FormField
            id="invite-email"
            name="email"
            type="email"
            label="E-mail"
            required
            maxLength={254}
            autoComplete="off"
            defaultValue={inviteValues.email ?? ""}
            error={invite?.error?.email?.[0]}
          />
          <fieldset>
            <legend className="text-sm font-semibold text-gray-900">Role</legend>
            <div className="mt-1 space-y-1">
              {STAFF_ROLES.map((role) => (
                <label key={role} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="role"
                    value={role}
                    defaultChecked={(inviteValues.role ?? "staff") === role}
                    className="size-4"
                  />
                  <span>
                    <span className="font-semibold">{ROLE_LABELS[role]}</span> — {ROLE_HINTS[role]}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <button
            type="submit"
            className="rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Send invitation
          </button>
        </Form>
      </section>
    </section>
  );
}
