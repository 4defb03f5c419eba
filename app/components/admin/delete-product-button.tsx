import { Form, useSubmit } from "react-router";
import { PRODUCT_FORM_MESSAGES } from "../../domain/catalog/admin/product-form.ts";
import { CONFIRM_FIELD, CONFIRM_VALUE } from "../../lib/confirm.ts";

/**
 * Delete with a confirm step. Without JavaScript the button opens the confirmation page
 * (GET /admin/products/:id/delete); with it, the browser's confirm dialog asks the spec's question
 * and the delete is posted straight away.
 */
export function DeleteProductButton({ productId, productName }: { productId: number; productName: string }) {
  const submit = useSubmit();
  const action = `/admin/products/${productId}/delete`;
  return (
    <Form
      method="get"
      action={action}
      onSubmit={(event) => {
        event.preventDefault();
        if (window.confirm(PRODUCT_FORM_MESSAGES.deleteConfirm)) {
          submit({ intent: "delete", [CONFIRM_FIELD]: CONFIRM_VALUE }, { method: "post", action });
        }
      }}
    >
      <button
        type="submit"
        className="rounded-lg border border-red-700 px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50"
      >
        Delete<span className="sr-only"> {productName}</span>
      </button>
    </Form>
  );
}
