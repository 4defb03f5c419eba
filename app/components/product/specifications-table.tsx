import type { Specification } from "../../domain/catalog/product-detail.server.ts";

export const NO_SPECIFICATIONS = "No specifications available for this product.";

export function SpecificationsTable({
  specifications,
  productName,
}: {
  specifications: Specification[];
  productName: string;
}) {
  if (specifications.length === 0) return <p className="text-gray-700">{NO_SPECIFICATIONS}</p>;
  return (
    <div className="overflow-hidden rounded-xl border border-gray-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Specifications of {productName}</caption>
        <tbody className="divide-y divide-gray-200">
          {specifications.map((spec) => (
            <tr key={spec.name} className="even:bg-gray-50">
              <th scope="row" className="w-1/3 px-4 py-3 align-top font-semibold text-gray-900 sm:w-1/4">
                {spec.name}
              </th>
              <td className="px-4 py-3 text-gray-700">{spec.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
