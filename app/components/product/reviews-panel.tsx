import type { SubmissionResult } from "@conform-to/react";
import { Flag, LogIn, PenLine, ThumbsUp } from "lucide-react";
import { Form, Link } from "react-router";
import type { ProductReview } from "../../domain/reviews/list-reviews.server.ts";
import { formatCount, formatLongDate } from "../../infra/format.ts";
import { StarRating } from "../star-rating.tsx";
import { DeleteReviewForm, ReviewForm } from "./review-form.tsx";

/** The signed-in shopper's side of the reviews: their own review and their votes. */
export interface ReviewViewer {
  ownReview: { id: number; rating: number; title: string; body: string } | null;
  /** ids of the shown reviews they marked helpful / reported */
  helpful: number[];
  reported: number[];
}

/**
 * The product's rating summary and its latest written reviews (texts rendered as text, never
 * HTML). Signed in: write, edit or delete one's own review, mark others helpful or report them
 * (plain forms posting to the product page). Signed out: a link to sign in and come back.
 */
export function ReviewsPanel({
  rating,
  reviewCount,
  reviews,
  signInHref,
  formAction,
  viewer = null,
  lastResult,
}: {
  rating: number;
  reviewCount: number;
  reviews: ProductReview[];
  signInHref: string;
  /** the product page's path, where the review forms post */
  formAction: string;
  viewer?: ReviewViewer | null;
  /** the action's answer to a refused review form */
  lastResult?: SubmissionResult;
}) {
  const own = viewer?.ownReview ?? null;
  return (
    <div className="grid gap-8 lg:grid-cols-[16rem_1fr]">
      <div className="flex flex-col items-start gap-2 rounded-xl border border-gray-200 bg-gray-50 p-6 lg:self-start">
        <p className="text-4xl font-extrabold text-gray-900">
          {rating.toFixed(1)}
          <span className="text-base font-medium text-gray-600"> out of 5</span>
        </p>
        <StarRating rating={rating} />
        <p className="text-sm text-gray-700">
          {`Based on ${formatCount(reviewCount)} ${reviewCount === 1 ? "review" : "reviews"}`}
        </p>
        {!viewer && (
          <Link
            to={signInHref}
            className="mt-3 inline-flex items-center gap-2 rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            <LogIn aria-hidden="true" className="size-4" />
            Sign in to write a review
          </Link>
        )}
      </div>
      <div>
        {viewer && (
          <div className="mb-8 rounded-xl border border-gray-200 p-5">
            <details open={lastResult !== undefined || undefined}>
              <summary className="inline-flex cursor-pointer items-center gap-2 font-semibold text-brand-700">
                <PenLine aria-hidden="true" className="size-4" />
                {own ? "Edit Your Review" : "Write a Review"}
              </summary>
              <ReviewForm
                action={formAction}
                editing={own !== null}
                initial={
                  own
                    ? { rating: String(own.rating), title: own.title, body: own.body }
                    : { rating: "", title: "", body: "" }
                }
                lastResult={lastResult}
              />
            </details>
            {own && (
              <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-gray-200 pt-4 text-sm text-gray-700">
                <p>{`You rated this product ${own.rating} out of 5.`}</p>
                <DeleteReviewForm action={formAction} />
              </div>
            )}
          </div>
        )}
        {reviews.length === 0 ? (
          <p className="text-gray-700">No written reviews yet. Share your experience with other shoppers.</p>
        ) : (
          <>
            {reviewCount > reviews.length && (
              <p className="mb-4 text-sm text-gray-600">
                {`Showing the ${reviews.length} most recent ${reviews.length === 1 ? "review" : "reviews"}.`}
              </p>
            )}
            <ol className="divide-y divide-gray-200">
              {reviews.map((review) => (
                <li key={review.id} className="py-5 first:pt-0">
                  <article aria-labelledby={`review-${review.id}-title`}>
                    <StarRating rating={review.rating} />
                    <h3 id={`review-${review.id}-title`} className="mt-2 font-semibold text-gray-900">
                      {review.title}
                    </h3>
                    <p className="mt-1 text-sm text-gray-600">
                      <span className="font-medium text-gray-800">{review.authorName}</span>
                      <span aria-hidden="true"> · </span>
                      <span className="sr-only">, </span>
                      <time dateTime={review.createdAt}>{formatLongDate(review.createdAt)}</time>
                    </p>
                    <p className="mt-3 whitespace-pre-line break-words text-gray-700">{review.body}</p>
                    <ReviewActions
                      review={review}
                      formAction={formAction}
                      mine={own?.id === review.id}
                      helpful={viewer?.helpful.includes(review.id) ?? false}
                      reported={viewer?.reported.includes(review.id) ?? false}
                    />
                  </article>
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * Helpful (once per shopper) and Report (flags the review for the admins). Signed out, the
 * server sends the shopper to sign in first; one's own review gets neither.
 */
function ReviewActions({
  review,
  formAction,
  mine,
  helpful,
  reported,
}: {
  review: ProductReview;
  formAction: string;
  mine: boolean;
  helpful: boolean;
  reported: boolean;
}) {
  const count = review.helpfulCount;
  const button =
    "inline-flex min-h-8 items-center gap-1.5 rounded-lg border border-gray-300 px-3 py-1 text-sm font-medium text-gray-800 hover:bg-gray-100";
  const voteForm = (intent: "helpful" | "report", label: string, icon: React.ReactNode) => (
    <Form method="post" action={formAction} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="reviewId" value={review.id} />
      <button type="submit" className={button}>
        {icon}
        <span>
          {label}
          <span className="sr-only">{`: ${review.title}`}</span>
        </span>
      </button>
    </Form>
  );
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-gray-700">
      {count > 0 && (
        <p>
          {count === 1 ? "1 person found this helpful." : `${formatCount(count)} people found this helpful.`}
        </p>
      )}
      {mine ? (
        <p className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
          Your review
        </p>
      ) : (
        <>
          {helpful ? (
            <p className="font-medium text-green-800">You found this helpful.</p>
          ) : (
            voteForm("helpful", "Helpful", <ThumbsUp aria-hidden="true" className="size-4" />)
          )}
          {reported ? (
            <p className="font-medium text-gray-700">Reported</p>
          ) : (
            voteForm("report", "Report", <Flag aria-hidden="true" className="size-4" />)
          )}
        </>
      )}
    </div>
  );
}
