import { data } from "react-router";
import { OrderDetails } from "../components/account/order-details.tsx";
import { servicesFrom } from "../context.ts";
import { getUserOrder } from "../domain/accounts/account-orders.server.ts";
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
  return { order: shown };
}

export default function AccountOrder({ loaderData }: Route.ComponentProps) {
  return <OrderDetails order={loaderData.order} />;
}
