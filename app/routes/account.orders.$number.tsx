import { data } from "react-router";
import { OrderDetails } from "../components/account/order-details.tsx";
import { OrderDocuments } from "../components/invoice/document-links.tsx";
import { ReturnRequestForm } from "../components/order/return-request-form.tsx";
import { servicesFrom } from "../context.ts";
import { getUserOrder } from "../domain/accounts/account-orders.server.ts";
import { listOrderDocuments } from "../domain/invoices/documents.server.ts";
import { returnableOrder } from "../domain/returns/returns.server.ts";
import { requireUser } from "../http/session.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.orders.$number";

export const meta: Route.MetaFunction = ({ matches, params }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: `Order ${params.number}`,
      description: "The details of one of your orders.",
      path: `/account/orders/${params.number}`,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const order = await getUserOrder(servicesFrom(context).db, user.id, params.number);
  if (!order) throw data(null, { status: 404 });
  const { id: _id, email: _email, ...shown } = order;
  const returnable = await returnableOrder(servicesFrom(context).db, order.number);
  const canReturn = returnable.ok && returnable.value.lines.some((line) => line.returnable > 0);
  const documents = await listOrderDocuments(servicesFrom(context).db, order.number);
  return { order: shown, returns: canReturn ? returnable.value : null, documents };
}

export default function AccountOrder({ loaderData }: Route.ComponentProps) {
  const { order, returns, documents } = loaderData;
  return (
    <>
      <OrderDetails order={order} />
      <OrderDocuments
        documents={documents}
        hrefOf={(number) => `/account/invoices/${number}`}
        className="mt-6 rounded-xl border border-gray-200 p-6"
      />
      {returns && (
        <ReturnRequestForm
          orderNumber={order.number}
          back="account"
          closesOn={returns.closesOn}
          lines={returns.lines.filter((line) => line.returnable > 0)}
        />
      )}
    </>
  );
}
