import { Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { getAdminDashboard } from "../domain/reports/dashboard.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.dashboard";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Dashboard", "/admin/dashboard");

/** The counters that were the admin landing page before /admin became the spec's product list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "reports");
  return getAdminDashboard(servicesFrom(context).db);
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const cards = [
    { to: "/admin", label: "Live products", value: loaderData.products },
    { to: "/admin/low-stock", label: "Low on stock (10 or fewer)", value: loaderData.lowStock },
    { to: "/admin/orders?status=paid", label: "Paid orders to ship", value: loaderData.ordersToShip },
  ];
  return (
    <section aria-labelledby="dashboard-heading">
      <h1 id="dashboard-heading" className="text-3xl font-bold">
        Dashboard
      </h1>
      <ul className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="block rounded-xl border border-gray-200 p-5 hover:border-brand-600">
              <span className="block text-3xl font-bold">{card.value}</span>
              <span className="mt-1 block text-gray-800">{card.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6">
        <Link
          to="/admin/products/new"
          className="inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Add Product
        </Link>
      </p>
    </section>
  );
}
