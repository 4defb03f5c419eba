import { ShoppingCart } from "lucide-react";
import { Form, Link, useLocation } from "react-router";
import type { ProductCardData } from "../lib/catalog-types.ts";
import { Price } from "./price.tsx";
import { ProductImage } from "./product-image.tsx";
import { StarRating } from "./star-rating.tsx";
import { WishlistButton } from "./wishlist-button.tsx";

export function ProductCard({ product, priority = false }: { product: ProductCardData; priority?: boolean }) {
  const href = `/products/${product.slug}`;
  const outOfStock = product.stock <= 0;
  const location = useLocation();
  return (
    <article className="group flex w-full flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm transition hover:shadow-md">
      <div className="relative aspect-square bg-gray-100">
        {product.image && (
          <ProductImage
            image={product.image}
            sizes="(min-width: 1280px) 18rem, (min-width: 768px) 25vw, 50vw"
            priority={priority}
            className="size-full object-cover"
          />
        )}
        <ul className="absolute top-2 left-2 flex flex-col items-start gap-1" aria-label="Badges">
          {product.discountPercentage ? (
            <li className="rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
              {product.discountPercentage}% OFF
            </li>
          ) : null}
          {product.newArrival && (
            <li className="rounded bg-green-800 px-2 py-0.5 text-xs font-bold text-white">NEW</li>
          )}
          {product.bestSeller && (
            <li className="rounded bg-amber-800 px-2 py-0.5 text-xs font-bold text-white">BEST SELLER</li>
          )}
        </ul>
        <div className="absolute top-2 right-2">
          <WishlistButton productId={product.id} productName={product.name} variant="icon" />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{product.brand}</p>
        <StarRating rating={product.rating} reviewCount={product.reviewCount} />
        <h3 className="line-clamp-2 font-semibold">
          <Link to={href} prefetch="intent" className="hover:text-brand-700">
            {product.name}
          </Link>
        </h3>
        <div className="mt-auto pt-2">
          <Price
            cents={product.priceCents}
            originalCents={product.originalPriceCents}
            from={product.priceVaries}
            member={product.memberPrice}
          />
        </div>
        {product.variantCount > 1 ? (
          // several variants: the choice is made on the product page
          <div className="pt-2">
            <Link
              to={href}
              className="flex w-full items-center justify-center gap-2 rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
            >
              Choose Options
              <span className="sr-only">: {product.name}</span>
            </Link>
          </div>
        ) : (
          <Form method="post" action="/cart" preventScrollReset className="pt-2">
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <input type="hidden" name="productId" value={product.id} />
            <input type="hidden" name="quantity" value="1" />
            <button
              type="submit"
              disabled={outOfStock}
              className="flex w-full items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-gray-400"
            >
              <ShoppingCart aria-hidden="true" className="size-4" />
              Add to Cart
              <span className="sr-only">: {product.name}</span>
            </button>
          </Form>
        )}
      </div>
    </article>
  );
}

export function ProductGrid({
  products,
  priorityCount = 0,
}: {
  products: ProductCardData[];
  priorityCount?: number;
}) {
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.id} className="flex">
          <ProductCard product={product} priority={index < priorityCount} />
        </li>
      ))}
    </ul>
  );
}
