import { PenLine } from "lucide-react";
import { Link } from "react-router";
import type { ProductReview } from "../../domain/reviews/list-reviews.server.ts";
import { StarRating } from "../star-rating.tsx";

const reviewDate = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** The product's rating summary and its latest written reviews (texts rendered as text, never HTML). */
export function ReviewsPanel({
  rating,
  reviewCount,
  reviews,
  writeReviewHref,
}: {
  rating: number;
  reviewCount: number;
  reviews: ProductReview[];
  writeReviewHref: string;
}) {
  return (
    <div className="grid gap-8 lg:grid-cols-[16rem_1fr]">
      <div className="flex flex-col items-start gap-2 rounded-xl border border-gray-200 bg-gray-50 p-6 lg:self-start">
        <p className="text-4xl font-extrabold text-gray-900">
          {rating.toFixed(1)}
          <span className="text-base font-medium text-gray-600"> out of 5</span>
        </p>
        <StarRating rating={rating} />
        <p className="text-sm text-gray-700">
          {`Based on ${reviewCount.toLocaleString("en-US")} ${reviewCount === 1 ? "review" : "reviews"}`}
        </p>
        <Link
          to={writeReviewHref}
          className="mt-3 inline-flex items-center gap-2 rounded-lg border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
        >
          <PenLine aria-hidden="true" className="size-4" />
          Write a Review
        </Link>
      </div>
      <div>
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
                      <time dateTime={review.createdAt}>{reviewDate.format(new Date(review.createdAt))}</time>
                    </p>
                    <p className="mt-3 whitespace-pre-line text-gray-700">{review.body}</p>
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
