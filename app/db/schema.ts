import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Timestamps are ISO-8601 UTC strings on both engines (sortable, engine-neutral). */
type Timestamp = string;
/** Booleans are stored as 0/1 integers on both engines. */
type Flag = 0 | 1;

export interface CategoriesTable {
  /** lower-case slug used in URLs, e.g. "electronics" or "smartphones" */
  id: string;
  name: string;
  parentId: string | null;
  position: number;
}

export interface ProductsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  description: string;
  brand: string;
  categoryId: string;
  subcategoryId: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  discountPercentage: number | null;
  rating: number;
  reviewCount: number;
  stock: number;
  /** JSON object of name → value */
  specifications: string;
  featured: Flag;
  newArrival: Flag;
  bestSeller: Flag;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  archivedAt: Timestamp | null;
}

export interface ProductImagesTable {
  id: Generated<number>;
  productId: number;
  position: number;
  /** file-store key prefix; variants live at `${key}-${width}.webp` */
  key: string;
  alt: string;
  width: number;
  height: number;
  /** JSON array of the widths rendered, ascending */
  widths: string;
}

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  createdAt: Timestamp;
}

export interface CartsTable {
  /** random token; the guest's HttpOnly cookie carries it (signed) */
  id: string;
  userId: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CartItemsTable {
  cartId: string;
  productId: number;
  quantity: number;
  addedAt: Timestamp;
}

export interface ReviewsTable {
  id: Generated<number>;
  productId: number;
  userId: string | null;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  helpfulCount: Generated<number>;
  reported: Generated<Flag>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: Timestamp;
}

/** Live product counts per category/subcategory/brand, maintained by triggers (migration 0310). */
export interface CatalogFacetsTable {
  categoryId: string;
  /** '' when the product has no subcategory */
  subcategoryId: string;
  brandKey: string;
  brandName: string;
  productCount: number;
}

export interface DB {
  categories: CategoriesTable;
  products: ProductsTable;
  productImages: ProductImagesTable;
  newsletterSubscribers: NewsletterSubscribersTable;
  carts: CartsTable;
  cartItems: CartItemsTable;
  reviews: ReviewsTable;
  contactMessages: ContactMessagesTable;
  catalogFacets: CatalogFacetsTable;
}

export type Product = Selectable<ProductsTable>;
export type NewProduct = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
export type ProductImage = Selectable<ProductImagesTable>;
export type Category = Selectable<CategoriesTable>;
