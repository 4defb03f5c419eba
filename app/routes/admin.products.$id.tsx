import { type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { DeleteProductButton } from "../components/admin/delete-product-button.tsx";
import { ImageInput } from "../components/admin/image-input.tsx";
import { OptionEditor } from "../components/admin/option-editor.tsx";
import { ProductFields } from "../components/admin/product-fields.tsx";
import { StockBadge } from "../components/admin/stock-badge.tsx";
import { VariantGrid } from "../components/admin/variant-grid.tsx";
import { VariantList } from "../components/admin/variant-list.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { imageUrl } from "../components/product-image.tsx";
import { servicesFrom } from "../context.ts";
import {
  addProductImages,
  EDIT_MESSAGES,
  type EditIntent,
  editIntentSchema,
  imageActionSchema,
  stockChangeSchema,
  variantRemovalSchema,
} from "../domain/catalog/admin/edit-product.server.ts";
import { productFormSchema } from "../domain/catalog/admin/product-form.server.ts";
import {
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  type ProductFormValues,
  readProductFormValues,
} from "../domain/catalog/admin/product-form.ts";
import { moveImage, removeImage } from "../domain/catalog/admin/product-images.server.ts";
import { getAdminProduct } from "../domain/catalog/admin/product-list.server.ts";
import { adjustStock, updateProduct } from "../domain/catalog/admin/product-write.server.ts";
import type { RemovedVariant } from "../domain/catalog/admin/variant-editor.server.ts";
import { applyVariantEditorForm } from "../domain/catalog/admin/variant-editor-action.server.ts";
import { INVALID_MESSAGE, VARIANT_EDITOR_FORMS } from "../domain/catalog/admin/variant-editor-form.server.ts";
import { removeVariant } from "../domain/catalog/admin/variant-write.server.ts";
import { parseProductFields, readProductRequest, refusedForm } from "../http/product-upload.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { kgText } from "../lib/weight.ts";
import type { Route } from "./+types/admin.products.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Edit ${loaderData.product.name}` : "Edit product",
    `/admin/products/${params.id}`,
  );

async function productOr404(context: Route.LoaderArgs["context"], id: string) {
  const productId = positiveInt(id);
  const product = productId ? await getAdminProduct(servicesFrom(context).db, productId) : null;
  if (!product || product.archivedAt) throw data(null, { status: 404 });
  return product;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  return { product: await productOr404(context, params.id) };
}

const READ_REFUSALS = {
  "file-too-large": { status: 413, message: PRODUCT_FORM_MESSAGES.fileTooLarge },
  "too-many-files": { status: 413, message: PRODUCT_FORM_MESSAGES.tooManyFiles },
  "too-many-parts": { status: 413, message: PRODUCT_FORM_MESSAGES.formTooLarge },
  unreadable: { status: 400, message: PRODUCT_FORM_MESSAGES.unreadable },
} as const;

const UPLOAD_FAILED = "Failed to upload images. Please try again.";

/** The edit page's forms (one intent each): the details, stock, and the image gallery. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "products");
  const productId = positiveInt(params.id);
  if (!productId) throw data(null, { status: 404 });
  // the whole of the services: a test's may carry a `log` that hears of failed uploads
  const services = servicesFrom(context);
  const { db } = services;
  const actor = { id: admin.id, email: admin.email, role: admin.role };
  const refuse = (
    intent: EditIntent | null,
    status: number,
    result: SubmissionResult<string[]>,
    details: string[] = [],
    removing: RemovedVariant[] = [],
  ) => data({ intent, result, details, removing }, { status });
  const done = (message: string) =>
    redirectWithToast(`/admin/products/${productId}`, { type: "success", message });
  const read = await readProductRequest(request);
  if (!read.ok) {
    const { status, message } = READ_REFUSALS[read.error.code];
    return refuse("add-images", status, refusedForm(message, { images: message }));
  }
  const { form, uploads } = read;
  // which form it is, decided on the parsed value (the same reading every form's schema gets)
  const posted = parseProductFields(form, editIntentSchema);
  const intent = posted.status === "success" ? posted.value.intent : null;
  switch (intent) {
    case "update": {
      const submission = parseProductFields(form, productFormSchema({ withStock: false }));
      if (submission.status !== "success") return refuse(intent, 400, submission.reply());
      const result = await updateProduct(db, { id: productId, input: submission.value, actor });
      if (result.ok) return done(EDIT_MESSAGES.updated);
      if (result.error.code === "not-found")
        return refuse(intent, 404, submission.reply({ formErrors: [EDIT_MESSAGES.notFound] }));
      const [field, message] =
        result.error.code === "priced-per-variant"
          ? (["price", EDIT_MESSAGES.pricePerVariant] as const)
          : (["weight", EDIT_MESSAGES.weightPerVariant] as const);
      return refuse(
        intent,
        409,
        submission.reply({ formErrors: [message], fieldErrors: { [field]: [message] } }),
      );
    }
    case "remove-variant": {
      const submission = parseProductFields(form, variantRemovalSchema);
      if (submission.status !== "success") throw data(null, { status: 400 });
      if (submission.value.confirm !== CONFIRM_VALUE) {
        return refuse(intent, 400, refusedForm(EDIT_MESSAGES.removeUnconfirmed));
      }
      const result = await removeVariant(db, { productId, variantId: submission.value.variantId }, actor);
      if (result.ok) {
        const { outcome, sku } = result.value;
        return done(
          `${outcome === "deleted" ? EDIT_MESSAGES.variantDeleted : EDIT_MESSAGES.variantArchived}: ${sku}`,
        );
      }
      return result.error.code === "last-variant"
        ? refuse(intent, 409, refusedForm(EDIT_MESSAGES.lastVariant))
        : refuse(intent, 404, refusedForm(EDIT_MESSAGES.notFound));
    }
    case "options":
    case "variants":
    case "bulk-variants": {
      // the options editor: options, the variant grid, and bulk changes (variant-editor-action.server.ts)
      const submission = parseProductFields(form, VARIANT_EDITOR_FORMS[intent]);
      if (submission.status !== "success") {
        return refuse(intent, 400, submission.reply({ formErrors: [INVALID_MESSAGE[intent]] }));
      }
      const result = await applyVariantEditorForm(db, productId, submission.value, actor);
      if (result.ok) return done(result.value.message);
      const { code, message, fields, removing } = result.error;
      const fieldErrors = Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, [text]]));
      const status = { confirm: 200, "not-found": 404, stale: 409, invalid: 409 }[code];
      return refuse(intent, status, submission.reply({ formErrors: [message], fieldErrors }), [], removing);
    }
    case "stock": {
      const submission = parseProductFields(form, stockChangeSchema);
      if (submission.status !== "success") {
        return refuse(intent, 400, submission.reply({ formErrors: [EDIT_MESSAGES.stockInvalid] }));
      }
      const result = await adjustStock(db, { id: productId, delta: submission.value.delta, actor });
      if (result.ok) {
        return done(`${EDIT_MESSAGES.stockUpdated}: ${result.value.before} → ${result.value.after}`);
      }
      if (result.error.code === "forbidden") throw data("Your role does not allow this.", { status: 403 });
      if (result.error.code === "not-found") return refuse(intent, 404, refusedForm(EDIT_MESSAGES.notFound));
      const message =
        result.error.code === "negative" ? EDIT_MESSAGES.stockNegative : EDIT_MESSAGES.stockPerVariant;
      return refuse(intent, 409, refusedForm(message, { delta: message }));
    }
    case "add-images": {
      const result = await addProductImages(services, { id: productId, uploads, actor });
      if (result.ok) return done(EDIT_MESSAGES.imagesAdded);
      const { error } = result;
      switch (error.code) {
        case "not-found":
          return refuse(intent, 404, refusedForm(EDIT_MESSAGES.notFound));
        case "no-images":
          return refuse(
            intent,
            400,
            refusedForm(PRODUCT_FORM_MESSAGES.noImages, { images: PRODUCT_FORM_MESSAGES.noImages }),
          );
        case "rejected-files": {
          const message = PRODUCT_FORM_MESSAGES.rejectedFiles;
          return refuse(intent, 415, refusedForm(message, { images: message }), error.details);
        }
        case "not-an-image": {
          const message = PRODUCT_FORM_MESSAGES.rejectedFiles;
          return refuse(intent, 422, refusedForm(message, { images: error.detail || message }), [
            error.detail,
          ]);
        }
        case "upload-failed":
          return refuse(intent, 422, refusedForm(UPLOAD_FAILED, { images: error.detail || UPLOAD_FAILED }), [
            error.detail,
          ]);
        default:
          return refuse(
            intent,
            500,
            refusedForm(UPLOAD_FAILED, { images: error.detail ?? UPLOAD_FAILED }),
            error.detail ? [error.detail] : [],
          );
      }
    }
    case "move-image":
    case "remove-image": {
      const submission = parseProductFields(form, imageActionSchema);
      if (submission.status !== "success") return refuse(intent, 400, refusedForm(EDIT_MESSAGES.badRequest));
      const change = submission.value;
      const result =
        change.intent === "move-image"
          ? await moveImage(db, {
              id: productId,
              imageId: change.imageId,
              direction: change.direction,
              actor,
            })
          : await removeImage(services, { id: productId, imageId: change.imageId, actor });
      if (result.ok)
        return done(intent === "move-image" ? EDIT_MESSAGES.imageMoved : EDIT_MESSAGES.imageRemoved);
      if (result.error.code === "last-image")
        return refuse(intent, 409, refusedForm(EDIT_MESSAGES.lastImage));
      return refuse(intent, 404, refusedForm(EDIT_MESSAGES.notFound));
    }
    default:
      return refuse(null, 400, refusedForm(EDIT_MESSAGES.badRequest));
  }
}

function formValues(product: Route.ComponentProps["loaderData"]["product"]): ProductFormValues {
  const money = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));
  return {
    name: product.name,
    description: product.description,
    price: money(product.priceCents),
    originalPrice: money(product.originalPriceCents),
    category: product.categoryId,
    subcategory: product.subcategoryId ?? "",
    brand: product.brand,
    stock: String(product.stock),
    taxClass: product.taxClass,
    weight: product.weightGrams === null ? null : kgText(product.weightGrams),
    specifications: Object.entries(product.specifications).map(([name, value]) => ({ name, value })),
    featured: product.featured,
    newArrival: product.newArrival,
    bestSeller: product.bestSeller,
    giftCard: product.giftCard,
  };
}

const BUTTON =
  "rounded-lg px-4 py-2 font-semibold text-white bg-brand-700 hover:bg-brand-800 disabled:opacity-60";
const SMALL_BUTTON =
  "rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:opacity-50";

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = (intent: EditIntent) =>
    actionData && actionData.intent === intent ? refusal(actionData.result, actionData.details) : null;
  // the image buttons' forms (and unknown ones) answer at the top of the page
  const otherFailure =
    actionData && [null, "move-image", "remove-image"].includes(actionData.intent)
      ? refusal(actionData.result, actionData.details)
      : null;
  const updateResult = actionData?.intent === "update" ? actionData.result : undefined;
  const [form, fields] = useForm<Record<ProductField, unknown>>({ lastResult: updateResult });
  const answerOf = (intent: EditIntent) => (actionData?.intent === intent ? actionData.result : null);
  const fieldError = (intent: EditIntent, field: string) =>
    actionData?.intent === intent ? actionData.result.error?.[field]?.[0] : undefined;
  return (
    <div className="space-y-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        {/* a long name (one word longer than a phone) wraps instead of widening the page */}
        <div className="min-w-0 max-w-full">
          <h1 className="text-3xl font-bold break-words">Edit {product.name}</h1>
          <p className="mt-1 text-sm text-gray-700">
            Product #{product.id} ·{" "}
            <Link to={`/products/${product.slug}`} className="text-brand-700 hover:underline">
              View in shop
            </Link>{" "}
            ·{" "}
            <Link to={`/admin/audit?product=${product.id}`} className="text-brand-700 hover:underline">
              History
            </Link>
          </p>
        </div>
        <DeleteProductButton productId={product.id} productName={product.name} />
      </div>
      <AdminMessage feedback={otherFailure} />

      <section aria-labelledby="details-heading" className="max-w-3xl">
        <h2 id="details-heading" className="text-xl font-bold">
          Details
        </h2>
        <Form method="post" id={form.id} noValidate className="mt-4 space-y-6">
          <input type="hidden" name="intent" value="update" />
          <AdminMessage feedback={failed("update")} />
          <ProductFields
            key={product.updatedAt}
            values={
              updateResult?.initialValue
                ? readProductFormValues(updateResult.initialValue)
                : formValues(product)
            }
            fields={fields}
            withStock={false}
            withWeight={product.options.length === 0}
          />
          <button type="submit" disabled={busy} className={BUTTON}>
            Save changes
          </button>
        </Form>
      </section>

      <OptionEditor
        productId={product.id}
        options={product.options}
        variantCount={product.variants.length}
        answer={actionData?.intent === "options" ? actionData : null}
        feedback={failed("options")}
        busy={busy}
      />
      {product.options.length > 0 && (
        <VariantGrid
          product={product}
          answer={answerOf("variants")}
          bulkAnswer={answerOf("bulk-variants")}
          feedback={failed("variants")}
          bulkFeedback={failed("bulk-variants")}
          busy={busy}
        />
      )}
      {product.options.length > 0 ? (
        <VariantList product={product} feedback={failed("remove-variant")} />
      ) : (
        <section aria-labelledby="stock-heading" className="max-w-3xl">
          <h2 id="stock-heading" className="text-xl font-bold">
            Stock
          </h2>
          <p className="mt-2 flex flex-wrap items-center gap-3">
            <span>Current stock:</span> <StockBadge stock={product.stock} />
            <Link
              to={`/admin/products/${product.id}/stock`}
              className="font-semibold text-brand-700 hover:underline"
            >
              Stock history
            </Link>
          </p>
          <Form method="post" noValidate className="mt-4 flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="stock" />
            <FormField
              id="stock-delta"
              name="delta"
              label="Change stock by"
              type="number"
              step={1}
              inputMode="numeric"
              hint="A positive number adds stock, a negative one removes it."
              error={fieldError("stock", "delta")}
            />
            <button type="submit" disabled={busy} className={BUTTON}>
              Adjust stock
            </button>
          </Form>
          <div className="mt-3">
            <AdminMessage feedback={failed("stock")} />
          </div>
        </section>
      )}

      <section aria-labelledby="images-heading" className="max-w-3xl">
        <h2 id="images-heading" className="text-xl font-bold">
          Images
        </h2>
        <ol className="mt-4 space-y-3">
          {product.images.map((image, index) => (
            <li
              key={image.id}
              className="flex flex-wrap items-center gap-4 rounded-lg border border-gray-200 p-3"
            >
              <img
                src={imageUrl(image.key, image.widths[0] ?? 320)}
                alt={image.alt}
                width={80}
                height={80}
                className="size-20 rounded object-cover"
              />
              <span className="text-sm text-gray-800">Image {index + 1}</span>
              <div className="ml-auto flex flex-wrap gap-2">
                {(["up", "down"] as const).map((direction) => (
                  <Form method="post" key={direction}>
                    <input type="hidden" name="intent" value="move-image" />
                    <input type="hidden" name="imageId" value={image.id} />
                    <input type="hidden" name="direction" value={direction} />
                    <button
                      type="submit"
                      className={SMALL_BUTTON}
                      disabled={
                        busy || (direction === "up" ? index === 0 : index === product.images.length - 1)
                      }
                    >
                      {direction === "up" ? "Move up" : "Move down"}
                      <span className="sr-only"> image {index + 1}</span>
                    </button>
                  </Form>
                ))}
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-image" />
                  <input type="hidden" name="imageId" value={image.id} />
                  <button
                    type="submit"
                    className={SMALL_BUTTON}
                    disabled={busy || product.images.length === 1}
                  >
                    Remove<span className="sr-only"> image {index + 1}</span>
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
        <Form method="post" encType="multipart/form-data" noValidate className="mt-6 space-y-4">
          <input type="hidden" name="intent" value="add-images" />
          <AdminMessage feedback={failed("add-images")} />
          <ImageInput id="more-images" label="Add images" error={fieldError("add-images", "images")} />
          <button type="submit" disabled={busy} className={BUTTON}>
            Upload images
          </button>
        </Form>
      </section>
    </div>
  );
}
