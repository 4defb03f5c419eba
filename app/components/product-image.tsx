import type { CardImage } from "../lib/catalog-types.ts";

export function imageUrl(key: string, width: number): string {
  return `/images/${key}-${width}.webp`;
}

/** Responsive product picture: srcset over the stored widths, intrinsic size set (no layout shift). */
export function ProductImage({
  image,
  sizes,
  priority = false,
  className = "",
}: {
  image: CardImage;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const widths = [...image.widths].sort((a, b) => a - b);
  const fallback = widths.find((w) => w >= 640) ?? widths[widths.length - 1]!;
  return (
    <img
      src={imageUrl(image.key, fallback)}
      srcSet={widths.map((w) => `${imageUrl(image.key, w)} ${w}w`).join(", ")}
      sizes={sizes}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : "auto"}
      decoding="async"
      className={className}
    />
  );
}
