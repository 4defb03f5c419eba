import { type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { REVIEW_LIMITS, REVIEW_RATINGS } from "../../domain/reviews/review-limits.ts";
import { formatCount } from "../../infra/format.ts";
import { FormAlert, SUBMIT_BUTTON } from "../account/form-alert.tsx";

const INPUT =
  "mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2 text-gray-900 aria-[invalid=true]:border-red-700";

/**
 * Write or edit the user's review of this product: rating 1–5, title and text, posted to the
 * product page's action (a plain form: works without JavaScript). The server checks everything.
 */
export function ReviewForm({
  action,
  initial,
  lastResult,
  editing,
}: {
  action: string;
  initial: { rating: string; title: string; body: string };
  /** the action's answer to a refused form: messages beside the fields, the typed values kept */
  lastResult?: SubmissionResult;
  editing: boolean;
}) {
  // Conform reads the action's SubmissionResult (no validation in the browser: the server answers)
  const [form, fields] = useForm({ id: "review-form", lastResult, defaultValue: initial });
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const values = {
    rating: text(fields.rating.initialValue),
    title: text(fields.title.initialValue),
    body: text(fields.body.initialValue),
  };
  const errors: Partial<Record<"rating" | "title" | "body", string>> = {
    rating: fields.rating.errors?.[0],
    title: fields.title.errors?.[0],
    body: fields.body.errors?.[0],
  };
  const describedBy = (field: "rating" | "title" | "body", hint?: string) =>
    [hint, errors[field] ? `review-${field}-error` : null].filter(Boolean).join(" ") || undefined;
  const fieldError = (field: "rating" | "title" | "body") =>
    errors[field] ? (
      <p id={`review-${field}-error`} className="mt-1 text-sm font-medium text-red-700">
        {errors[field]}
      </p>
    ) : null;

  return (
    <Form method="post" action={action} className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="save-review" />
      <FormAlert message={form.errors?.[0]} />
      <fieldset aria-describedby={describedBy("rating")}>
        <legend className="text-sm font-semibold">Rating</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {REVIEW_RATINGS.map((stars) => (
            <label key={stars} className="flex min-h-6 items-center gap-1.5 text-sm">
              <input
                type="radio"
                name="rating"
                value={stars}
                required
                defaultChecked={values.rating === String(stars)}
                aria-invalid={errors.rating ? true : undefined}
                className="size-4 accent-brand-700"
              />
              {stars === 1 ? "1 star" : `${stars} stars`}
            </label>
          ))}
        </div>
        {fieldError("rating")}
      </fieldset>
      <div>
        <label htmlFor="review-title" className="block text-sm font-semibold">
          Title
        </label>
        <input
          id="review-title"
          name="title"
          type="text"
          required
          maxLength={REVIEW_LIMITS.titleMax}
          defaultValue={values.title}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={describedBy("title")}
          className={INPUT}
        />
        {fieldError("title")}
      </div>
      <div>
        <label htmlFor="review-body" className="block text-sm font-semibold">
          Review
        </label>
        <textarea
          id="review-body"
          name="body"
          required
          rows={5}
          maxLength={REVIEW_LIMITS.bodyMax}
          defaultValue={values.body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={describedBy("body", "review-body-hint")}
          className={INPUT}
        />
        <p id="review-body-hint" className="mt-1 text-sm text-gray-600">
          {`Up to ${formatCount(REVIEW_LIMITS.bodyMax)} characters.`}
        </p>
        {fieldError("body")}
      </div>
      <button type="submit" className={SUBMIT_BUTTON}>
        {editing ? "Update Review" : "Submit Review"}
      </button>
    </Form>
  );
}

/** Deletes the user's own review of this product. */
export function DeleteReviewForm({ action }: { action: string }) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value="delete-review" />
      <button
        type="submit"
        className="rounded-lg border border-red-700 px-4 py-2 font-semibold text-red-700 hover:bg-red-50"
      >
        Delete Review
      </button>
    </Form>
  );
}
