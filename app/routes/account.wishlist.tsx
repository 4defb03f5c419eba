import { Heart, ShoppingCart, Trash2 } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import { Price } from "../components/price.tsx";
import { ProductImage } from "../components/product-image.tsx";
import { StarRating } from "../components/star-rating.tsx";
import { servicesFrom } from "../context.ts";
import { signInToSaveUrl } from "../domain/wishlist/pending-wishlist.ts";
import {
  addToWishlist,
  listWishlist,
  removeFromWishlist,
  WISHLIST_MESSAGES,
  type WishlistChange,
  wishlistFormSchema,
} from "../domain/wishlist/wishlist.server.ts";
import { parseForm } from "../http/form.server.ts";
import { getSessionUser, requireUser } from "../http/session.server.ts";
import { createToastHeaders, redirectWithToast } from "../http/toast.server.ts";
import { safeRedirectPath, signInPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.wishlist";

const PATH = "/account/wishlist";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Wishlist",
      description: "The products you saved for later.",
      path: PATH,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { items: await listWishlist(servicesFrom(context).db, user.id) };
}

/**
 * POST /account/wishlist: add or remove a product (from the product page, a product card or this
 * page), then back to the page the form was on with a toast. The forms say which, from what the
 * page showed, so a second click on an old tab cannot undo the first. Signed out, an add is
 * carried through sign-in (see pending-wishlist.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, wishlistFormSchema);
  if (submission.status !== "success") throw data(null, { status: 400 });
  const { intent, productId } = submission.value;
  const backTo = safeRedirectPath(submission.value.redirectTo, PATH);

  const user = await getSessionUser(request, context);
  if (!user) {
    if (intent === "remove") return redirect(signInPath(backTo));
    return redirectWithToast(signInToSaveUrl(backTo, productId), {
      type: "info",
      message: WISHLIST_MESSAGES.signInFirst,
    });
  }
  const { db } = servicesFrom(context);
  const change =
    intent === "add"
      ? await addToWishlist(db, user.id, productId)
      : await removeFromWishlist(db, user.id, productId);
  return redirect(backTo, { headers: await createToastHeaders(wishlistToast(change)) });
}

function wishlistToast(outcome: WishlistChange) {
  if (!outcome.ok) return { type: "error" as const, message: WISHLIST_MESSAGES.unavailable };
  const { change, product } = outcome.value;
  return {
    type: "success" as const,
    message:
      change === "added" ? WISHLIST_MESSAGES.added(product.name) : WISHLIST_MESSAGES.removed(product.name),
  };
}

export default function AccountWishlist({ loaderData }: Route.ComponentProps) {
  const { items } = loaderData;
  return (
    <section aria-labelledby="wishlist-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="wishlist-heading" className="text-xl font-bold">
        Wishlist
      </h2>
      {items.length === 0 ? (
        <div className="mt-4 flex flex-col items-start gap-3 text-gray-700">
          <Heart aria-hidden="true" className="size-8 text-gray-500" />
          <p>Your wishlist is empty. Save products you love with Add to Wishlist.</p>
          <Link to="/products" className="font-semibold text-brand-700 hover:underline">
            Browse products
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-700">
            {items.length === 1 ? "1 saved product" : `${items.length} saved products`}
          </p>
          <ul className="mt-4 divide-y divide-gray-200">
            {items.map((item) => {
              const href = `/products/${item.slug}`;
              const outOfStock = item.stock <= 0;
              return (
                <li key={item.id} className="flex flex-wrap items-center gap-4 py-4">
                  <div className="size-20 shrink-0 overflow-hidden rounded-lg bg-gray-100">
                    {item.image && (
                      <ProductImage image={item.image} sizes="5rem" className="size-full object-cover" />
                    )}
                  </div>
                  <div className="min-w-40 flex-1">
                    <p className="text-xs font-semibold tracking-wide text-gray-600 uppercase">
                      {item.brand}
                    </p>
                    <h3 className="font-semibold">
                      <Link to={href} className="hover:text-brand-700 hover:underline">
                        {item.name}
                      </Link>
                    </h3>
                    <StarRating rating={item.rating} reviewCount={item.reviewCount} />
                    <div className="mt-1">
                      <Price cents={item.priceCents} originalCents={item.originalPriceCents} />
                    </div>
                    {outOfStock && <p className="mt-1 text-sm font-semibold text-red-700">Out of Stock</p>}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Form method="post" action="/cart">
                      <input type="hidden" name="intent" value="add" />
                      <input type="hidden" name="productId" value={item.id} />
                      <input type="hidden" name="quantity" value="1" />
                      <input type="hidden" name="redirectTo" value={PATH} />
                      <button
                        type="submit"
                        disabled={outOfStock}
                        className="flex items-center gap-2 rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-gray-400"
                      >
                        <ShoppingCart aria-hidden="true" className="size-4" />
                        <span>
                          Add to Cart<span className="sr-only">: {item.name}</span>
                        </span>
                      </button>
                    </Form>
                    <Form method="post" action={PATH}>
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="productId" value={item.id} />
                      <input type="hidden" name="redirectTo" value={PATH} />
                      <button
                        type="submit"
                        className="flex items-center gap-2 rounded-lg border border-gray-400 px-4 py-2 text-sm font-semibold text-gray-900 hover:bg-gray-100"
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        <span>
                          Remove<span className="sr-only">: {item.name}</span>
                        </span>
                      </button>
                    </Form>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
