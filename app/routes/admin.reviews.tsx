import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { FilterInput, FilterSelect, ListFilters, optionsOf } from "../components/admin/list-filters.tsx";
import { servicesFrom } from "../context.ts";
import {
  REPORTED_REVIEW_SORTS,
  REVIEW_RATINGS,
  type ReportedReviewSort,
  type ReviewRatingFilter,
} from "../domain/reviews/reported-review-list-query.ts";
import {
  listReportedReviews,
  moderateReview,
  REPORTED_REVIEW_MESSAGES,
  reportedReviewListQuerySchema,
  reviewModerationSchema,
} from "../domain/reviews/reported-reviews.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { parseListQuery } from "../lib/list-query.ts";
import type { Route } from "./+types/admin.reviews";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Reported reviews", "/admin/reviews");

/** The list's URL for a query (its defaults left out) and a page. */
function listHref(
  { search, rating, sort }: { search: string; rating: number | null; sort: ReportedReviewSort },
  page: number,
) {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (rating !== null) params.set("rating", String(rating));
  if (sort !== "reported-newest") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  return params.size ? `/admin/reviews?${params}` : "/admin/reviews";
}

/** Reported reviews: search, filter by rating, sort; bad values are left out. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "reviews");
  const query = parseListQuery(new URL(request.url).searchParams, reportedReviewListQuerySchema);
  const result = await listReportedReviews(servicesFrom(context).db, query);
  const { search, rating, sort } = query;
  return { ...result, search, rating, sort };
}

/** Keep (clear the reports) or Remove (delete the review; the product's rating follows). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "reviews");
  const submission = await parseForm(request, reviewModerationSchema);
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  // removing deletes the review for good: only from the confirm step
  if (submission.payload.intent === "remove" && submission.payload.confirm !== CONFIRM_VALUE) {
    return refuse(REPORTED_REVIEW_MESSAGES.removeUnconfirmed, 400);
  }
  if (submission.status !== "success") return refuse(REPORTED_REVIEW_MESSAGES.badRequest, 400);
  const outcome = await moderateReview(servicesFrom(context).db, {
    ...submission.value,
    actor: { id: admin.id, email: admin.email },
  });
  if (!outcome.ok) return refuse(REPORTED_REVIEW_MESSAGES.notFound, 404);
  // back to the list as it was filtered (the forms post to the page's own URL)
  const back = parseListQuery(new URL(request.url).searchParams, reportedReviewListQuerySchema);
  return redirectWithToast(listHref(back, back.page), {
    type: "success",
    message: REPORTED_REVIEW_MESSAGES[outcome.value],
  });
}

const RATING_LABELS: Record<ReviewRatingFilter, string> = {
  "1": "1 star",
  "2": "2 stars",
  "3": "3 stars",
  "4": "4 stars",
  "5": "5 stars",
};
const SORT_LABELS: Record<ReportedReviewSort, string> = {
  "reported-newest": "Reported most recently",
  "reported-oldest": "Waiting longest",
  "reports-desc": "Most reports",
  "rating-asc": "Lowest rating",
  "rating-desc": "Highest rating",
};

export default function ReportedReviews({ loaderData, actionData }: Route.ComponentProps) {
  const { reviews, page, hasMore, search, rating, sort } = loaderData;
  const pageLink = (n: number) => listHref({ search, rating, sort }, n);
  const filtered = Boolean(search || rating !== null);
  return (
    <section aria-labelledby="reviews-heading">
      <h1 id="reviews-heading" className="text-3xl font-bold">
        Reported reviews
      </h1>
      <p className="mt-1 text-gray-700">
        Keep clears the reports; Remove deletes the review and updates the product's rating.
      </p>
      <ListFilters action="/admin/reviews" label="Reported review filters">
        <FilterInput
          id="review-search"
          name="search"
          label="Product, author or text"
          value={search}
          maxLength={100}
        />
        <FilterSelect
          id="review-rating"
          name="rating"
          label="Rating"
          value={rating === null ? null : (String(rating) as ReviewRatingFilter)}
          options={optionsOf(REVIEW_RATINGS, RATING_LABELS)}
          emptyLabel="Any rating"
        />
        <FilterSelect
          id="review-sort"
          name="sort"
          label="Sort"
          value={sort}
          options={optionsOf(REPORTED_REVIEW_SORTS, SORT_LABELS)}
        />
      </ListFilters>
      <div className="mt-4">
        <AdminMessage feedback={refusal(actionData?.result)} />
      </div>
      {reviews.length === 0 ? (
        <p className="mt-6 text-gray-700">
          {filtered ? "No reported reviews found." : "No reported reviews."}
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {reviews.map((review) => (
            <li key={review.id}>
              <article
                aria-labelledby={`review-${review.id}-title`}
                className="rounded-xl border border-gray-200 p-5"
              >
                <h2 id={`review-${review.id}-title`} className="text-lg font-bold break-words">
                  {review.title}
                </h2>
                <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                  <div className="flex gap-1">
                    <dt className="font-semibold">Product:</dt>
                    <dd>
                      <Link to={`/products/${review.productSlug}`} className="text-brand-700 hover:underline">
                        {review.productName}
                      </Link>
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="font-semibold">Author:</dt>
                    <dd className="min-w-0 break-words">{review.authorName}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="font-semibold">Rating:</dt>
                    <dd>{review.rating} out of 5</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="font-semibold">Written:</dt>
                    <dd>
                      <OrderDate iso={review.createdAt} />
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="font-semibold">Reports:</dt>
                    <dd>{review.reports}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="font-semibold">Last reported:</dt>
                    <dd>
                      <OrderDate iso={review.lastReportedAt} />
                    </dd>
                  </div>
                </dl>
                <p className="mt-3 whitespace-pre-line break-words text-gray-900">{review.body}</p>
                <div className="mt-4 flex flex-wrap items-start gap-3">
                  <Form method="post">
                    <input type="hidden" name="reviewId" value={review.id} />
                    <input type="hidden" name="intent" value="keep" />
                    <button
                      type="submit"
                      className="rounded-lg border border-gray-400 px-4 py-2 font-semibold hover:bg-gray-100"
                    >
                      Keep<span className="sr-only"> review “{review.title}”</span>
                    </button>
                  </Form>
                  <ConfirmAction
                    label={
                      <>
                        Remove<span className="sr-only"> review “{review.title}”</span>
                      </>
                    }
                    question={`Remove the review “${review.title}” by ${review.authorName}? It is deleted and the product's rating is updated. This cannot be undone.`}
                    confirmLabel="Yes, remove review"
                    keepLabel="Don't remove"
                    keepTo={pageLink(page)}
                    fields={{ reviewId: review.id, intent: "remove" }}
                  />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={pageLink} />
    </section>
  );
}
