import { Heart } from "lucide-react";
import { Form, useLocation, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../root.tsx";

/** Whether the signed-in user has saved this product (the root loader knows their wishlist). */
export function useInWishlist(productId: number): boolean {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return root?.wishlist.includes(productId) ?? false;
}

/**
 * Add to / Remove from Wishlist: a plain form posting to /account/wishlist (works without
 * JavaScript) that comes back to this page. It says which of the two it is, from what the page
 * shows, so an old tab cannot undo a newer click. Signed out, the server asks to sign in first
 * and saves the product afterwards.
 */
export function WishlistButton({
  productId,
  productName,
  variant,
}: {
  productId: number;
  productName: string;
  /** "full": the product page's labelled button; "icon": the heart on a product card */
  variant: "full" | "icon";
}) {
  const saved = useInWishlist(productId);
  const location = useLocation();
  const heart = <Heart aria-hidden="true" className={`size-5 ${saved ? "fill-current text-red-700" : ""}`} />;
  return (
    <Form method="post" action="/account/wishlist" preventScrollReset>
      <input type="hidden" name="intent" value={saved ? "remove" : "add"} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {variant === "full" ? (
        <button
          type="submit"
          className="flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 bg-white px-6 py-3 font-semibold text-gray-800 hover:border-gray-400 hover:bg-gray-50"
        >
          {heart}
          <span>
            {saved ? "Remove from Wishlist" : "Add to Wishlist"}
            <span className="sr-only">: {productName}</span>
          </span>
        </button>
      ) : (
        <button
          type="submit"
          title={saved ? "Remove from wishlist" : "Add to wishlist"}
          className="flex size-10 items-center justify-center rounded-full bg-white/90 text-gray-800 shadow-sm ring-1 ring-gray-300 hover:bg-white hover:text-red-700"
        >
          {heart}
          <span className="sr-only">
            {saved ? `Remove ${productName} from wishlist` : `Add ${productName} to wishlist`}
          </span>
        </button>
      )}
    </Form>
  );
}
