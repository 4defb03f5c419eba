import { CircleCheck, CircleX, Clock } from "lucide-react";
import { data, Link, redirect, useRouteLoaderData } from "react-router";
import { z } from "zod";
import { Price } from "../components/price.tsx";
import { Breadcrumb } from "../components/product/breadcrumb.tsx";
import { JsonLd } from "../components/product/json-ld.tsx";
import { ProductGallery } from "../components/product/product-gallery.tsx";
import { ProductTabs } from "../components/product/product-tabs.tsx";
import { PurchaseForm } from "../components/product/purchase-form.tsx";
import { ReviewsPanel } from "../components/product/reviews-panel.tsx";
import { ShoppingBenefits } from "../components/product/shopping-benefits.tsx";
import { SpecificationsTable } from "../components/product/specifications-table.tsx";
import {
  breadcrumbJsonLd,
  decimalPrice,
  metaDescription,
  productBreadcrumbs,
  productJsonLd,
  productPath,
  shareImagePath,
} from "../components/product/structured-data.ts";
import { VariantPicker } from "../components/product/variant-picker.tsx";
import { ProductGrid } from "../components/product-card.tsx";
import { useMoney, useShopSettings } from "../components/shop-settings.ts";
import { StarRating } from "../components/star-rating.tsx";
import { servicesFrom } from "../context.ts";
import { getProductDetail, getRelatedProducts } from "../domain/catalog/product-detail.server.ts";
import { listProductReviews } from "../domain/reviews/list-reviews.server.ts";
import { listUserVotes, type VoteResult, voteOnReview } from "../domain/reviews/review-votes.server.ts";
import {
  deleteReview,
  findUserReview,
  REVIEW_MESSAGES,
  reviewSchema,
  saveReview,
} from "../domain/reviews/write-review.server.ts";
import { parseForm } from "../http/form.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatCount } from "../infra/format.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { productsUrl } from "../lib/catalog-constants.ts";
import { discountPercent } from "../lib/money.ts";
import { signInPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { stockLevel, stockMessage } from "../lib/stock.ts";
import { type OptionValues, selectVariant, valueChoices } from "../lib/variants.ts";
import type { loader as rootLoader } from "../root.tsx";
import type { Route } from "./+types/products.$productId";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { product } = loaderData;
  const { origin, contact } = rootMetaData(matches);
  const image = product.images[0];
  return [
    ...seoMeta({
      title: product.name,
      description: metaDescription(product.description),
      path: productPath(product.slug),
      origin,
      shopName: contact.name,
      image: image ? shareImagePath(image) : undefined,
      type: "product",
    }),
    { property: "product:price:amount", content: decimalPrice(product.priceCents) },
    { property: "product:price:currency", content: "USD" },
  ];
};

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db } = servicesFrom(context);
  // a signed-in member sees their groups' prices (decision 037); their page is private (it carries
  // the session's cookie, decision 010), so it is never kept for anyone else
  const user = await getSessionUser(request, context);
  const product = await getProductDetail(db, params.productId, new Date(), user?.id ?? null);
  if (!product) throw data(null, { status: 404 });
  const url = new URL(request.url);
  // /products/1 and /products/Kestrel-X12-Smartphone live at the slug URL.
  if (params.productId !== product.slug) {
    throw redirect(`${productPath(product.slug)}${url.search}`, 301);
  }
  // the picker's form without JavaScript (?option1=M&option2=Black) → that variant's own URL
  const chosen = chosenValues(url.searchParams);
  if (chosen) {
    const picked = selectVariant(product.variants, { values: chosen });
    throw redirect(picked ? `${productPath(product.slug)}?variant=${picked.id}` : productPath(product.slug));
  }
  const variantParam = url.searchParams.get("variant") ?? "";
  const selected = selectVariant(product.variants, {
    variantId: /^[1-9]\d{0,9}$/.test(variantParam) ? Number(variantParam) : null,
  });
  const [reviews, related] = await Promise.all([
    listProductReviews(db, product.id),
    getRelatedProducts(db, product, undefined, user?.id ?? null),
  ]);
  const viewer = user
    ? {
        ownReview: await findUserReview(db, { productId: product.id, userId: user.id }),
        ...(await listUserVotes(
          db,
          user.id,
          reviews.map((review) => review.id),
        )),
      }
    : null;
  return {
    product,
    reviews,
    related,
    viewer,
    selectedVariantId: selected?.id ?? null,
    selectedImage: url.searchParams.has("image")
      ? imageIndexFromQuery(url.searchParams.get("image"), product.images.length)
      : (selected?.imageIndex ?? 0),
  };
}

/** The values the picker's GET form chose (each at most 100 characters), or null when it was not sent. */
function chosenValues(params: URLSearchParams): OptionValues | null {
  const values = (["option1", "option2", "option3"] as const).map((name) => {
    const value = params.get(name);
    return value === null ? null : value.slice(0, 100);
  }) as OptionValues;
  return values.some((value) => value !== null) ? values : null;
}

/** `?image=N` (1-based, from a thumbnail link without JavaScript) → index into the images. */
function imageIndexFromQuery(value: string | null, count: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
}

const actionSchema = z.discriminatedUnion("intent", [
  reviewSchema.extend({ intent: z.literal("save-review") }),
  z.object({ intent: z.literal("delete-review") }),
  z.object({
    intent: z.enum(["helpful", "report"]),
    reviewId: z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  }),
]);

/**
 * POST /products/:slug: the signed-in shopper's review (save, delete) and votes on others'
 * (helpful, report). POST → redirect to the Reviews tab → toast; a refused review form comes
 * back beside its fields (400). Signed out → sign in, then back here.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { db } = servicesFrom(context);
  const product = await getProductDetail(db, params.productId);
  if (!product) throw data(null, { status: 404 });
  const submission = await parseForm(request, actionSchema);
  // a malformed vote or an unknown intent is refused at once; a review form is answered beside its fields
  if (submission.status !== "success" && submission.payload.intent !== "save-review")
    throw data(null, { status: 400 });
  const reviewsPath = `${productPath(product.slug)}#reviews`;

  const user = await getSessionUser(request, context);
  if (!user) {
    return redirectWithToast(signInPath(reviewsPath), {
      type: "info",
      message: REVIEW_MESSAGES.signInFirst,
    });
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [REVIEW_MESSAGES.invalid] }) }, { status: 400 });
  }
  const input = submission.value;
  switch (input.intent) {
    case "save-review": {
      const { intent: _intent, ...review } = input;
      const saved = await saveReview(db, { productId: product.id, user, review });
      if (!saved.ok) throw data(null, { status: 404 });
      return redirectWithToast(reviewsPath, {
        type: "success",
        message: saved.value.outcome === "created" ? REVIEW_MESSAGES.created : REVIEW_MESSAGES.updated,
      });
    }
    case "delete-review": {
      const deleted = await deleteReview(db, { productId: product.id, userId: user.id });
      return redirectWithToast(
        reviewsPath,
        deleted
          ? { type: "success", message: REVIEW_MESSAGES.deleted }
          : { type: "error", message: REVIEW_MESSAGES.notFound },
      );
    }
    case "helpful":
    case "report": {
      const result = await voteOnReview(db, {
        productId: product.id,
        reviewId: input.reviewId,
        userId: user.id,
        kind: input.intent,
      });
      return redirectWithToast(reviewsPath, voteToast(input.intent, result));
    }
  }
}

function voteToast(kind: "helpful" | "report", result: VoteResult) {
  if (result.ok) {
    return {
      type: "success" as const,
      message: kind === "helpful" ? REVIEW_MESSAGES.helpful : REVIEW_MESSAGES.reported,
    };
  }
  switch (result.error.code) {
    case "already":
      return {
        type: "info" as const,
        message: kind === "helpful" ? REVIEW_MESSAGES.alreadyHelpful : REVIEW_MESSAGES.alreadyReported,
      };
    case "own":
      return { type: "info" as const, message: REVIEW_MESSAGES.ownReview };
    case "not-found":
      return { type: "error" as const, message: REVIEW_MESSAGES.notFound };
  }
}

export const headers = sharedPageHeaders;

const STOCK_STYLES = {
  "in-stock": { icon: CircleCheck, className: "text-green-800" },
  low: { icon: Clock, className: "text-amber-800" },
  out: { icon: CircleX, className: "text-red-700" },
} as const;

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const money = useMoney();
  const { currency } = useShopSettings();
  const { product, reviews, related, viewer, selectedImage, selectedVariantId } = loaderData;
  const origin = useRouteLoaderData<typeof rootLoader>("root")?.origin ?? "http://localhost:3000";
  const path = productPath(product.slug);
  const crumbs = productBreadcrumbs(product);
  // what the page sells: the selected variant (price, savings, stock, SKU, the cart's form)
  const variant = product.variants.find((v) => v.id === selectedVariantId) ?? product.variants[0];
  const priceCents = variant?.priceCents ?? product.priceCents;
  const originalPriceCents = variant ? variant.originalPriceCents : product.originalPriceCents;
  const memberPrice = Boolean(variant ? variant.memberPrice : product.memberPrice);
  const stock = variant?.stock ?? product.stock;
  const savingCents =
    originalPriceCents !== null && originalPriceCents > priceCents ? originalPriceCents - priceCents : 0;
  const savingPercent = discountPercent(priceCents, originalPriceCents);
  const level = stockLevel(stock);
  const { icon: StockIcon, className: stockClass } = STOCK_STYLES[level];

  return (
    // A new product is a new page: no gallery, stepper or tab state carries over.
    <div key={product.id} className="mx-auto max-w-7xl px-4 py-6 md:py-8">
      <Breadcrumb crumbs={crumbs} />

      <div className="mt-6 grid gap-8 lg:grid-cols-2 lg:gap-12">
        <ProductGallery
          key={selectedImage}
          images={product.images}
          productName={product.name}
          selectedIndex={selectedImage}
        />

        <div className="flex flex-col gap-6">
          <div>
            <Link
              to={productsUrl({ brand: product.brand.toLowerCase() })}
              className="inline-flex min-h-6 items-center text-sm font-semibold tracking-wide text-brand-700 uppercase hover:underline"
            >
              {product.brand}
            </Link>
            <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">
              {product.name}
            </h1>
            <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
              <StarRating rating={product.rating} />
              <span className="font-semibold text-gray-900">{product.rating.toFixed(1)}</span>
              <a href="#reviews" className="inline-flex min-h-6 items-center text-brand-700 hover:underline">
                {`${formatCount(product.reviewCount)} ${product.reviewCount === 1 ? "review" : "reviews"}`}
              </a>
            </div>
          </div>

          <div className="flex flex-col gap-2 border-y border-gray-200 py-5" data-testid="product-price">
            <Price cents={priceCents} originalCents={originalPriceCents} size="lg" member={memberPrice} />
            {savingCents > 0 && (
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-green-800">
                <span className="rounded bg-green-50 px-2 py-0.5 ring-1 ring-green-700/20">
                  You save {money(savingCents)}
                  {savingPercent ? ` (${savingPercent}%)` : ""}
                </span>
              </p>
            )}
          </div>

          <p className="leading-relaxed text-gray-700">{product.description}</p>

          {variant && product.options.length > 0 && (
            <VariantPicker
              path={path}
              options={product.options}
              choices={valueChoices(product.options, product.variants, variant)}
              selected={variant}
            />
          )}

          <div className="flex flex-col gap-1">
            <p data-testid="stock-message" className={`flex items-center gap-2 font-semibold ${stockClass}`}>
              <StockIcon aria-hidden="true" className="size-5" />
              {stockMessage(stock)}
            </p>
            {variant && <p className="text-sm text-gray-700">SKU: {variant.sku}</p>}
          </div>

          <PurchaseForm
            productId={product.id}
            variantId={variant?.id ?? null}
            productName={product.name}
            stock={stock}
            redirectTo={variant && product.options.length > 0 ? `${path}?variant=${variant.id}` : path}
            giftCard={product.giftCard}
          />

          <ShoppingBenefits />
        </div>
      </div>

      {/* below the fold: styled and laid out only when scrolled near (content-visibility) */}
      <div className="mt-14 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]">
        <ProductTabs
          label="Product information"
          tabs={[
            {
              id: "description",
              label: "Description",
              content: (
                <div className="max-w-3xl space-y-4 leading-relaxed text-gray-700">
                  <p className="whitespace-pre-line">{product.description}</p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                    <dt className="font-semibold text-gray-900">Brand</dt>
                    <dd>{product.brand}</dd>
                    <dt className="font-semibold text-gray-900">Category</dt>
                    <dd>
                      {product.category.name}
                      {product.subcategory ? ` › ${product.subcategory.name}` : ""}
                    </dd>
                  </dl>
                </div>
              ),
            },
            {
              id: "specifications",
              label: "Specifications",
              content: (
                <div className="max-w-3xl">
                  <SpecificationsTable specifications={product.specifications} productName={product.name} />
                </div>
              ),
            },
            {
              id: "reviews",
              label: "Reviews",
              content: (
                <ReviewsPanel
                  rating={product.rating}
                  reviewCount={product.reviewCount}
                  reviews={reviews}
                  signInHref={signInPath(`${path}#reviews`)}
                  formAction={path}
                  viewer={viewer}
                  lastResult={actionData?.result}
                />
              ),
            },
          ]}
        />
      </div>

      {related.length > 0 && (
        <section aria-labelledby="related-heading" className="mt-16">
          <h2 id="related-heading" className="mb-6 text-2xl font-bold">
            You May Also Like
          </h2>
          <ProductGrid products={related} />
        </section>
      )}

      <JsonLd data={productJsonLd(product, reviews, origin, currency)} />
      <JsonLd data={breadcrumbJsonLd(crumbs, origin)} />
    </div>
  );
}
