import { Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { StockBadge } from "../components/admin/stock-badge.tsx";
import { servicesFrom } from "../context.ts";
import { listLowStockProducts } from "../domain/catalog/admin/product-list.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.low-stock";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Low stock", "/admin/low-stock");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  return { products: await listLowStockProducts(servicesFrom(context).db) };
}

export default function LowStock({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
  return (
    <section aria-labelledby="low-stock-heading">
      <h1 id="low-stock-heading" className="text-3xl font-bold">
        Low stock
      </h1>
      <p className="mt-1 text-gray-700">
        Products (each size, colour or other variant on its own) with 10 or fewer in stock, fewest first.
      </p>
      {products.length === 0 ? (
        <p className="mt-6 text-gray-700">Every product has more than 10 in stock.</p>
      ) : (
        <ul className="mt-6 divide-y divide-gray-200">
          {products.map((product) => (
            <li key={product.variantId} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <span>
                <Link
                  to={`/admin/products/${product.id}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  {product.name}
                </Link>{" "}
                <span className="text-gray-700">({product.brand})</span>
                {product.variantTitle && <span className="block text-sm">{product.variantTitle}</span>}
                <span className="block text-sm text-gray-700">SKU: {product.sku}</span>
              </span>
              <StockBadge stock={product.stock} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
