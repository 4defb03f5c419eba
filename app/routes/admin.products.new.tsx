import { data, Form, useNavigation } from "react-router";
import { AdminMessage } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ImageInput } from "../components/admin/image-input.tsx";
import { ProductFields } from "../components/admin/product-fields.tsx";
import { servicesFrom } from "../context.ts";
import { addProductFromRequest } from "../domain/catalog/admin/add-product.server.ts";
import { EMPTY_PRODUCT_FORM, PRODUCT_FORM_MESSAGES } from "../domain/catalog/admin/product-form.ts";
import { requireAdmin } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.products.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Add Product", "/admin/products/new");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const { db, files } = servicesFrom(context);
  const outcome = await addProductFromRequest({ db, files }, request, { id: admin.id, email: admin.email });
  if (outcome.ok) {
    return redirectWithToast("/admin", { type: "success", message: PRODUCT_FORM_MESSAGES.added });
  }
  const { status, ...rest } = outcome;
  return data(rest, { status });
}

export default function AddProduct({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const feedback = actionData
    ? { type: "error" as const, message: actionData.message, details: actionData.details }
    : null;
  return (
    <section aria-labelledby="add-product-heading" className="max-w-3xl">
      <h1 id="add-product-heading" className="text-3xl font-bold">
        Add Product
      </h1>
      <p className="mt-1 text-sm text-gray-700">Fields marked * are required.</p>
      <Form method="post" encType="multipart/form-data" noValidate className="mt-6 space-y-6">
        <AdminMessage feedback={feedback} />
        <ProductFields
          values={actionData?.values ?? EMPTY_PRODUCT_FORM}
          errors={actionData?.fieldErrors ?? {}}
          withStock
        />
        <ImageInput id="product-images" label="Images" required error={actionData?.fieldErrors.images} />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? "Adding product…" : "Add Product"}
        </button>
      </Form>
    </section>
  );
}
