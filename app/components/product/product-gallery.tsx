import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { CardImage } from "../../lib/catalog-types.ts";
import { ProductImage } from "../product-image.tsx";
import { useHydrated } from "./use-hydrated.ts";

const MAIN_SIZES = "(min-width: 1280px) 38rem, (min-width: 1024px) 48vw, (min-width: 640px) 36rem, 100vw";
const THUMB_SIZES = "6rem";

/**
 * The main picture and its thumbnails. With JavaScript the thumbnails are buttons that swap the
 * main picture; without it they are links to `?image=N`, which the loader turns into `selectedIndex`.
 */
export function ProductGallery({
  images,
  productName,
  selectedIndex = 0,
}: {
  images: CardImage[];
  productName: string;
  selectedIndex?: number;
}) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(selectedIndex);
  // A ?image=N navigation (a thumbnail link followed before scripts ran) selects that picture.
  useEffect(() => setSelected(selectedIndex), [selectedIndex]);

  const current = images[selected] ?? images[0];
  return (
    <div className="flex flex-col gap-4">
      <div className="relative aspect-square overflow-hidden rounded-2xl border border-gray-200 bg-gray-50">
        {current ? (
          <ProductImage
            key={current.key}
            image={current}
            sizes={MAIN_SIZES}
            priority
            className="size-full object-contain"
          />
        ) : (
          <div className="flex size-full items-center justify-center text-gray-600">
            No image available for {productName}
          </div>
        )}
      </div>
      {images.length > 1 && (
        <ul aria-label="Product images" className="grid grid-cols-4 gap-3 sm:grid-cols-5">
          {images.map((image, index) => {
            const active = index === selected;
            const label = `Show image ${index + 1} of ${images.length}`;
            const className = `block aspect-square w-full overflow-hidden rounded-lg border-2 bg-gray-50 transition ${
              active ? "border-brand-700" : "border-gray-200 hover:border-gray-400"
            }`;
            const thumbnail = (
              <ProductImage
                image={{ ...image, alt: "" }}
                sizes={THUMB_SIZES}
                className="size-full object-cover"
              />
            );
            return (
              <li key={image.key}>
                {hydrated ? (
                  <button
                    type="button"
                    aria-label={label}
                    aria-pressed={active}
                    onClick={() => setSelected(index)}
                    className={className}
                  >
                    {thumbnail}
                  </button>
                ) : (
                  <Link
                    to={`?image=${index + 1}`}
                    preventScrollReset
                    replace
                    aria-label={label}
                    aria-current={active ? "true" : undefined}
                    className={className}
                  >
                    {thumbnail}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
