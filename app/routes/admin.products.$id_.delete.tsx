import { data, Form, Link, redirect } from "react-router";
import { logger } from "../adapters/logger.server.ts";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { deleteProduct, deleteProductSchema } from "../domain/catalog/admin/product-delete.server.ts";
import { PRODUCT_FORM_MESSAGES } from "../domain/catalog/admin/product-form.ts";
import { getAdminProduct } from "../domain/catalog/admin/product-list.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_FIELD, CONFIRM_VALUE } from "../lib/confirm.ts";
import type { Route } from "./+types/admin.products.$id_.delete";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, "Delete product", `/admin/products/${params.id}/delete`);

/** The confirmation step without JavaScript (with it, the browser's confirm dialog asks instead). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const id = positiveInt(params.id);
  const product = id ? await getAdminProduct(servicesFrom(context).db, id) : null;
  if (!product || product.archivedAt) throw data(null, { status: 404 });
  return { product: { id: product.id, name: product.name } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "products");
  const id = positiveInt(params.id);
  const fail = () =>
    redirectWithToast("/admin", { type: "error", message: PRODUCT_FORM_MESSAGES.deleteFailed });
  if (!id) return fail();
  // a post that was not confirmed (an old page, a replayed request) lands on the question instead
  const submission = await parseForm(request, deleteProductSchema);
  if (submission.status !== "success") return redirect(`/admin/products/${id}/delete`, 303);
  try {
    const { db, files } = servicesFrom(context);
    const result = await deleteProduct({ db, files }, { id, actor: { id: admin.id, email: admin.email } });
    if (!result.ok) return fail();
    return redirectWithToast("/admin", { type: "success", message: PRODUCT_FORM_MESSAGES.deleted });
  } catch (error) {
    logger.error({ err: error, productId: id }, "product delete failed");
    return fail();
  }
}

export default function ConfirmDelete({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <section aria-labelledby="delete-heading" className="max-w-xl rounded-xl border border-red-300 p-6">
      <h1 id="delete-heading" className="text-2xl font-bold">
        Delete {product.name}
      </h1>
      <p className="mt-3 text-gray-900">{PRODUCT_FORM_MESSAGES.deleteConfirm}</p>
      <p className="mt-1 text-sm text-gray-700">
        A product that appears in orders is archived instead: orders keep it, the shop no longer shows it.
      </p>
      <div className="mt-6 flex gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
          <button
            type="submit"
            className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
          >
            Yes, delete
          </button>
        </Form>
        <Link
          to="/admin"
          className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
        >
          Cancel
        </Link>
      </div>
    </section>
  );
}
