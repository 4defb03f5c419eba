import { data, Form, Link } from "react-router";
import { z } from "zod";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { useMoney } from "../components/shop-settings.ts";
import { mailShopFrom, servicesFrom } from "../context.ts";
import {
  RETURN_STATUS_LABELS,
  RETURN_TRANSITIONS,
  type ReturnStatus,
} from "../domain/returns/return-status.ts";
import { getReturn, moveReturn } from "../domain/returns/returns.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.returns.$number";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, `Return ${params.number}`, `/admin/returns/${params.number}`);

const NUMBER = /^RT-[0-9A-Z]{1,20}$/;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "returns");
  const found = NUMBER.test(params.number) ? await getReturn(servicesFrom(context).db, params.number) : null;
  if (!found) throw data(null, { status: 404 });
  return { found, next: RETURN_TRANSITIONS[found.status] };
}

const schema = z.object({
  to: z.enum(["approved", "rejected", "received", "refunded"], { error: "Unknown return action." }),
  rejectionReason: z.string().trim().max(300).optional(),
});

const ACTION_LABELS: Record<string, string> = {
  approved: "Approve return",
  received: "Mark as received (restock)",
  refunded: "Refund the returned items",
  rejected: "Reject return",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "returns");
  const submission = await parseForm(request, schema);
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !NUMBER.test(params.number))
    return refuse("Unknown return action.", 400);
  const { to, rejectionReason } = submission.value;
  if (to === "rejected" && !rejectionReason)
    return refuse("Say why the return is rejected: the customer reads it.", 400);
  const services = servicesFrom(context);
  const result = await moveReturn(
    services.db,
    {
      gateway: services.gateway,
      mail: services.mail,
      shop: await mailShopFrom(context),
    },
    {
      number: params.number,
      to,
      actor: { id: staff.id, email: staff.email, role: staff.role },
      rejectionReason: rejectionReason ?? null,
    },
  );
  if (result.ok) {
    return redirectWithToast(`/admin/returns/${params.number}`, {
      type: "success",
      message: `Return ${params.number}: ${RETURN_STATUS_LABELS[to]}`,
    });
  }
  if (result.error.code === "forbidden") throw data("Your role does not allow this.", { status: 403 });
  if (result.error.code === "not-found") throw data(null, { status: 404 });
  if (result.error.code === "refund") return refuse(`The refund failed: ${result.error.message}.`, 502);
  if (result.error.code === "refund-pending") {
    return refuse(
      "The refund is waiting for the payment provider's answer; the return is marked refunded as soon as it comes.",
      202,
    );
  }
  return refuse(
    `This return is ${RETURN_STATUS_LABELS[result.error.from].toLowerCase()} and cannot become ${to}.`,
    409,
  );
}

export default function AdminReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { found, next } = loaderData;
  const money = useMoney(found.currency);
  const button = "rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800";
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/returns" className="font-semibold text-brand-700 hover:underline">
          ← Back to returns
        </Link>
      </p>
      <h1 className="text-3xl font-bold">Return {found.number}</h1>
      <AdminMessage feedback={refusal(actionData?.result)} />
      <dl className="grid grid-cols-1 gap-4 text-sm break-words sm:grid-cols-3">
        <div>
          <dt className="font-semibold">Status</dt>
          <dd>{RETURN_STATUS_LABELS[found.status]}</dd>
        </div>
        <div>
          <dt className="font-semibold">Order</dt>
          <dd>
            <Link to={`/admin/orders/${found.orderNumber}`} className="text-brand-700 hover:underline">
              {found.orderNumber}
            </Link>
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Requested</dt>
          <dd>
            <OrderDate iso={found.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Customer e-mail</dt>
          <dd>{found.email}</dd>
        </div>
        <div>
          <dt className="font-semibold">Reason</dt>
          <dd>{found.reason}</dd>
        </div>
        {found.rejectionReason && (
          <div>
            <dt className="font-semibold">Rejected because</dt>
            <dd>{found.rejectionReason}</dd>
          </div>
        )}
        {found.refundCents !== null && (
          <div>
            <dt className="font-semibold">Refunded</dt>
            <dd>{money(found.refundCents)}</dd>
          </div>
        )}
      </dl>
      <section aria-labelledby="return-items-heading">
        <h2 id="return-items-heading" className="text-xl font-bold">
          Items
        </h2>
        <ul className="mt-2 list-disc pl-6 text-sm">
          {found.items.map((item) => (
            <li key={item.orderItemId}>
              {item.quantity} × {item.name}
              {item.variantTitle ? ` (${item.variantTitle})` : ""}
            </li>
          ))}
        </ul>
      </section>
      {next.length > 0 && (
        <section aria-labelledby="return-actions-heading">
          <h2 id="return-actions-heading" className="text-xl font-bold">
            Actions
          </h2>
          <div className="mt-3 flex flex-wrap items-start gap-4">
            {next.map((to: ReturnStatus) =>
              to === "rejected" ? (
                <Form method="post" key={to} className="space-y-2">
                  <input type="hidden" name="to" value={to} />
                  <label className="block text-sm">
                    Why it is rejected (the customer reads it)
                    <input
                      type="text"
                      name="rejectionReason"
                      maxLength={300}
                      required
                      className="mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2"
                    />
                  </label>
                  <button
                    type="submit"
                    className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
                  >
                    {ACTION_LABELS.rejected}
                  </button>
                </Form>
              ) : (
                <Form method="post" key={to}>
                  <input type="hidden" name="to" value={to} />
                  <button type="submit" className={button}>
                    {ACTION_LABELS[to]}
                  </button>
                </Form>
              ),
            )}
          </div>
        </section>
      )}
    </div>
  );
}
