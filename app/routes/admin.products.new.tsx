import { useForm } from "@conform-to/react";
import { data, Form, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ImageInput } from "../components/admin/image-input.tsx";
import { ProductFields } from "../components/admin/product-fields.tsx";
import { servicesFrom } from "../context.ts";
import { addProduct, checkImageUploads } from "../domain/catalog/admin/add-product.server.ts";
import { productFormSchema } from "../domain/catalog/admin/product-form.server.ts";
import {
  EMPTY_PRODUCT_FORM,
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  readProductFormValues,
} from "../domain/catalog/admin/product-form.ts";
import { parseProductFields, readProductRequest, refusedForm } from "../http/product-upload.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.products.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Add Product", "/admin/products/new");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  return null;
}

const READ_REFUSALS = {
  "file-too-large": { status: 413, message: PRODUCT_FORM_MESSAGES.fileTooLarge },
  "too-many-files": { status: 413, message: PRODUCT_FORM_MESSAGES.tooManyFiles },
  "too-many-parts": { status: 413, message: PRODUCT_FORM_MESSAGES.formTooLarge },
  unreadable: { status: 400, message: PRODUCT_FORM_MESSAGES.unreadable },
} as const;

/**
 * The spec's order: images present, required fields, file types by content; only then are the
 * images re-encoded and stored and the rows written.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "products");
  // the whole of the services: a test's may carry a `log` that hears of failed uploads
  const services = servicesFrom(context);
  const read = await readProductRequest(request);
  if (!read.ok) {
    const { status, message } = READ_REFUSALS[read.error.code];
    return data({ result: refusedForm(message, { images: message }), details: [] as string[] }, { status });
  }
  const submission = parseProductFields(read.form, productFormSchema({ withStock: true }));
  const refuse = (status: number, message: string, images?: string, details: string[] = []) =>
    data(
      {
        result: submission.reply({ formErrors: [message], fieldErrors: images ? { images: [images] } : {} }),
        details,
      },
      { status },
    );
  const images = checkImageUploads(read.uploads);
  if (!images.ok && images.error.code === "no-images") {
    return refuse(400, PRODUCT_FORM_MESSAGES.noImages, PRODUCT_FORM_MESSAGES.noImages);
  }
  if (submission.status !== "success")
    return data({ result: submission.reply(), details: [] as string[] }, { status: 400 });
  const added = await addProduct(services, {
    input: submission.value,
    uploads: read.uploads,
    actor: { id: admin.id, email: admin.email },
  });
  if (added.ok) return redirectWithToast("/admin", { type: "success", message: PRODUCT_FORM_MESSAGES.added });
  const { error } = added;
  switch (error.code) {
    case "no-images":
      return refuse(400, PRODUCT_FORM_MESSAGES.noImages, PRODUCT_FORM_MESSAGES.noImages);
    case "rejected-files":
      return refuse(
        415,
        PRODUCT_FORM_MESSAGES.rejectedFiles,
        PRODUCT_FORM_MESSAGES.rejectedFiles,
        error.details,
      );
    case "upload-failed":
      return refuse(422, PRODUCT_FORM_MESSAGES.addFailed, error.detail, [error.detail]);
    default:
      return refuse(500, PRODUCT_FORM_MESSAGES.addFailed);
  }
}

export default function AddProduct({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm<Record<ProductField | "images", unknown>>({
    lastResult: actionData?.result,
  });
  const shown = actionData?.result.initialValue;
  return (
    <section aria-labelledby="add-product-heading" className="max-w-3xl">
      <h1 id="add-product-heading" className="text-3xl font-bold">
        Add Product
      </h1>
      <p className="mt-1 text-sm text-gray-700">Fields marked * are required.</p>
      <Form method="post" id={form.id} encType="multipart/form-data" noValidate className="mt-6 space-y-6">
        <AdminMessage feedback={refusal(actionData?.result, actionData?.details)} />
        <ProductFields
          values={shown ? readProductFormValues(shown) : EMPTY_PRODUCT_FORM}
          fields={fields}
          withStock
          withWeight
        />
        <ImageInput id="product-images" label="Images" required error={fields.images.errors?.[0]} />
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
