import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { AccountsTable, SessionsTable, StaffInvitationsTable, UsersTable } from "./schema-auth.ts";
import type { BackupRunsTable, BackupSettingsTable } from "./schema-backups.ts";
import type {
  CartGiftCardRecipientsTable,
  GiftCardDeliveriesTable,
  GiftCardMovementsTable,
  GiftCardsTable,
} from "./schema-gift-cards.ts";
import type {
  CustomerGroupMembersTable,
  CustomerGroupPricesTable,
  CustomerGroupsTable,
} from "./schema-groups.ts";
import type {
  ApiIdempotencyTable,
  ApiKeysTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
  WebhookStateTable,
} from "./schema-integrations.ts";
import type { InvoiceCountersTable, InvoicesTable } from "./schema-invoices.ts";
import type {
  MarketsTable,
  OrderTaxLinesTable,
  ShippingMethodsTable,
  TaxClassColumn,
  ZonesTable,
  ZoneTaxRatesTable,
} from "./schema-markets.ts";
import type {
  OrderRefundItemsTable,
  OrderRefundsTable,
  PaymentEventsTable,
  ReturnItemsTable,
  ReturnsTable,
  StockMovementsTable,
  TestGatewayPaymentsTable,
  TestGatewayRefundsTable,
} from "./schema-payments.ts";
import type {
  PromotionCampaignsTable,
  PromotionCodesTable,
  PromotionRedemptionsTable,
  PromotionRevisionTable,
  PromotionsTable,
} from "./schema-promotions.ts";

import type {
  CatalogBrandsTable,
  CatalogCategoryTotalsTable,
  CatalogChangesTable,
  CatalogFacetsTable,
  CatalogPriceBandsTable,
  CatalogPriceBandTotalsTable,
  CatalogVersionTable,
} from "./schema-rollups.ts";
import type {
  SalesDaysTable,
  SalesMonthsTable,
  SalesProductDaysTable,
  SalesProductMonthsTable,
  ShopSettingsTable,
} from "./schema-sales.ts";

export type * from "./schema-auth.ts";
export type * from "./schema-backups.ts";
export type * from "./schema-groups.ts";
export type * from "./schema-payments.ts";
export type * from "./schema-rollups.ts";
export type * from "./schema-sales.ts";

import type { Flag, Timestamp } from "./schema-types.ts";

export type { Flag, Timestamp } from "./schema-types.ts";

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
  /** the live variants' distinct option values, space-separated (searched; migration 1300) */
  optionText: Generated<string>;
  /** the in-stock live variants as the search index reads them: "cents\tname\u001fvalue…" per line */
  variantFacets: Generated<string>;
  /** the rate its lines bear in each zone (migration 2026-11-28T0400) */
  taxClass: Generated<TaxClassColumn>;
  /** 1: a gift card, its variants the amounts: delivered by e-mail, no shipping, no tax (migration 0770) */
  giftCard: Generated<Flag>;
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
  /** the coupon the shopper applied (upper-case code); re-validated whenever the cart is priced */
  couponCode: Generated<string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** where the cart estimates shipping and tax for (the shopper's choice; null: the shop's default) */
  estimateCountry: Generated<string | null>;
  estimateRegion: Generated<string | null>;
}

/** The checkout in progress of one cart (decision 012); every column but the key may be null. */
export interface CheckoutProgressTable {
  cartId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  /** a shipping method's code in the address's zone */
  shippingMethod: string | null;
  paymentToken: string | null;
  paymentBrand: string | null;
  paymentLast4: string | null;
  paymentExpiry: string | null;
  cardName: string | null;
  /** 0/1: save the card to the account when the order is placed */
  saveInfo: Generated<number>;
  idempotencyKey: string | null;
  placedOrderNumber: string | null;
  /** JSON: the refused step's values and field messages (known fields only), shown once */
  feedback: string | null;
  /** JSON array of the gift cards' ids applied at the payment step (migration 0740); never codes */
  giftCardIds: string | null;
  updatedAt: Timestamp;
}

/** A product's option (migration 1200): position 1..3, its name and ordered values. */
export interface ProductOptionsTable {
  productId: number;
  position: number;
  name: string;
  /** JSON array of the values, in the order the shop shows them */
  optionValues: string;
}

/**
 * One sellable combination of a product's options (migration 1200): the truth for price and
 * stock. The product row keeps a summary (cheapest live variant's prices, summed stock).
 */
/** One row per live variant and option: the listing's option facets (migration 1300). */
export interface VariantOptionValuesTable {
  variantId: number;
  productId: number;
  /** "Colour" → "colour" (lib/variants.ts optionFacetKey) */
  optionKey: string;
  /** the value in lower case */
  valueKey: string;
  optionName: string;
  optionValue: string;
}

export interface ProductVariantsTable {
  id: Generated<number>;
  productId: number;
  /** unique shop-wide */
  sku: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  barcode: string | null;
  /** its own picture among the product's images, else the product's */
  imageId: number | null;
  position: number;
  archivedAt: Timestamp | null;
  /** what weight-based shipping methods add up (migration 2026-11-28T0400) */
  weightGrams: Generated<number>;
}

export interface CartItemsTable {
  cartId: string;
  /** the line's key with the cart (migration 1200) */
  variantId: number;
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

export type OrderStatus =
  | "pending_payment"
  | "payment_failed"
  | "paid"
  | "shipped"
  | "delivered"
  | "cancelled"
  | "partially_refunded"
  | "refunded";

export interface OrdersTable {
  id: Generated<number>;
  /** public, random (not sequential) order number, e.g. CW-7K2M9QXD */
  number: string;
  idempotencyKey: string;
  userId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  /** the method's code in its zone (migration 2026-11-28T0400 dropped the CHECK of standard/express) */
  shippingMethod: string;
  /** the method's name when ordered */
  shippingMethodName: Generated<string>;
  /** whether the order's prices included tax (inclusive) or it was added (exclusive) */
  taxMode: Generated<"exclusive" | "inclusive">;
  /** the tax on the shipping (included in taxCents) */
  shippingTaxCents: Generated<number>;
  /** what the destination's tax went by ('Including VAT', 'Sales tax') */
  taxLabel: Generated<string>;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  couponCode: string | null;
  status: OrderStatus;
  paymentBrand: string;
  paymentLast4: string;
  /** the gateway's authorization id (never card data) */
  paymentReference: string;
  /** YYYY-MM-DD */
  estimatedDelivery: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** when the confirmation e-mail went out; null until then (migration 0900) */
  confirmationSentAt: Timestamp | null;
  /** confirmation sending attempts so far (also the claim token of the resend job) */
  confirmationAttempts: Generated<number>;
  /** when the latest sending attempt was claimed (migration 1000) */
  confirmationClaimedAt: Timestamp | null;
  /** the gateway that took the payment, e.g. "test" or "stripe" (migration 1400) */
  paymentGateway: Generated<string>;
  /** a pending_payment order's stock is held until then (the reconciliation job) */
  reservedUntil: Timestamp | null;
  paidAt: Timestamp | null;
  /** why the payment failed (the shopper's message) */
  paymentError: string | null;
  refundedCents: Generated<number>;
  /** what pending refunds promise to pay back (migration 2100): refunded + pending ≤ total */
  refundPendingCents: Generated<number>;
  /** the shop's currency when the order was placed (migration 2000) */
  currency: Generated<string>;
  /** when the provider reported a dispute (chargeback) */
  disputedAt: Timestamp | null;
  /** set when shipped (lib/carriers.ts ids); both optional */
  carrier: string | null;
  trackingNumber: string | null;
  /** what gift cards and store credit paid (migration 0740); the gateway took the rest */
  giftCardCents: Generated<number>;
}

export interface OrderItemsTable {
  id: Generated<number>;
  orderId: number;
  productId: number | null;
  /** the variant bought (migration 1200); may point at a variant deleted since */
  variantId: number | null;
  /** "Size: M · Colour: Black"; "" for a product without options */
  variantTitle: Generated<string>;
  sku: string | null;
  /** units of this line refunded so far, pending refunds included (migration 1400) */
  refundedQuantity: Generated<number>;
  /** units of this line put back into stock (a refund's restock, a return received; migration 2100) */
  restockedQuantity: Generated<number>;
  productSlug: string;
  name: string;
  brand: string;
  imageKey: string | null;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** as charged (migration 2026-11-28T0400); null on lines of orders placed before */
  discountCents: number | null;
  netCents: number | null;
  taxCents: number | null;
  grossCents: number | null;
  taxBasisPoints: number | null;
  taxRateId: string | null;
  taxLabel: string | null;
}

export interface OrderEventsTable {
  id: Generated<number>;
  orderId: number;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  /** 'checkout', 'system' or the acting user's id */
  actor: string;
  createdAt: Timestamp;
}

/** A background job's lease on SQLite (migration 2026-11-28T0100; PostgreSQL uses advisory locks). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expiresAt: Timestamp;
}

/** The last turn of a scheduled job done by any process (migration 2026-11-28T0200). */
export interface JobTurnsTable {
  name: string;
  turn: number;
  finishedAt: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  /** epoch milliseconds */
  windowStart: number;
  count: number;
}

export interface AddressesTable {
  id: Generated<number>;
  userId: string;
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  isDefault: Flag;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SavedCardsTable {
  id: Generated<number>;
  userId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cardholderName: string;
  gatewayToken: string;
  createdAt: Timestamp;
}

export interface WishlistItemsTable {
  userId: string;
  productId: number;
  addedAt: Timestamp;
}

export interface ReviewVotesTable {
  reviewId: number;
  userId: string;
  kind: "helpful" | "report";
  createdAt: Timestamp;
}

/** Admin changes (migration 0700): who, what, when, and the record before/after as JSON text. */
export interface AuditLogTable {
  id: Generated<number>;
  actorId: string;
  actorEmail: string;
  action: string;
  entityType: string;
  entityId: string;
  summary: string;
  beforeJson: string | null;
  afterJson: string | null;
  createdAt: Timestamp;
}

export interface DB {
  categories: CategoriesTable;
  products: ProductsTable;
  productImages: ProductImagesTable;
  productOptions: ProductOptionsTable;
  productVariants: ProductVariantsTable;
  variantOptionValues: VariantOptionValuesTable;
  newsletterSubscribers: NewsletterSubscribersTable;
  carts: CartsTable;
  cartItems: CartItemsTable;
  checkoutProgress: CheckoutProgressTable;
  reviews: ReviewsTable;
  contactMessages: ContactMessagesTable;
  catalogFacets: CatalogFacetsTable;
  catalogBrands: CatalogBrandsTable;
  catalogCategoryTotals: CatalogCategoryTotalsTable;
  catalogPriceBands: CatalogPriceBandsTable;
  catalogPriceBandTotals: CatalogPriceBandTotalsTable;
  catalogVersion: CatalogVersionTable;
  catalogChanges: CatalogChangesTable;
  orders: OrdersTable;
  orderRefunds: OrderRefundsTable;
  orderRefundItems: OrderRefundItemsTable;
  stockMovements: StockMovementsTable;
  staffInvitations: StaffInvitationsTable;
  salesDays: SalesDaysTable;
  salesProductDays: SalesProductDaysTable;
  salesMonths: SalesMonthsTable;
  salesProductMonths: SalesProductMonthsTable;
  shopSettings: ShopSettingsTable;
  markets: MarketsTable;
  zones: ZonesTable;
  zoneTaxRates: ZoneTaxRatesTable;
  shippingMethods: ShippingMethodsTable;
  orderTaxLines: OrderTaxLinesTable;
  invoiceCounters: InvoiceCountersTable;
  invoices: InvoicesTable;
  promotionCampaigns: PromotionCampaignsTable;
  promotions: PromotionsTable;
  promotionCodes: PromotionCodesTable;
  promotionRedemptions: PromotionRedemptionsTable;
  promotionRevision: PromotionRevisionTable;
  giftCards: GiftCardsTable;
  giftCardMovements: GiftCardMovementsTable;
  cartGiftCardRecipients: CartGiftCardRecipientsTable;
  giftCardDeliveries: GiftCardDeliveriesTable;
  customerGroups: CustomerGroupsTable;
  customerGroupMembers: CustomerGroupMembersTable;
  customerGroupPrices: CustomerGroupPricesTable;
  returns: ReturnsTable;
  returnItems: ReturnItemsTable;
  testGatewayPayments: TestGatewayPaymentsTable;
  testGatewayRefunds: TestGatewayRefundsTable;
  paymentEvents: PaymentEventsTable;
  orderItems: OrderItemsTable;
  orderEvents: OrderEventsTable;
  rateLimits: RateLimitsTable;
  jobLeases: JobLeasesTable;
  jobTurns: JobTurnsTable;
  backupSettings: BackupSettingsTable;
  backupRuns: BackupRunsTable;
  apiKeys: ApiKeysTable;
  apiIdempotency: ApiIdempotencyTable;
  searchMisses: SearchMissesTable;
  searchSynonyms: SearchSynonymsTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookEvents: WebhookEventsTable;
  webhookState: WebhookStateTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookAttempts: WebhookAttemptsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  addresses: AddressesTable;
  savedCards: SavedCardsTable;
  wishlistItems: WishlistItemsTable;
  reviewVotes: ReviewVotesTable;
  auditLog: AuditLogTable;
}

export type Product = Selectable<ProductsTable>;
export type NewProduct = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
export type ProductImage = Selectable<ProductImagesTable>;
export type Category = Selectable<CategoriesTable>;

/** A search that found nothing, counted per UTC day (migration 2026-11-29T0900, issue 33). */
export interface SearchMissesTable {
  /** YYYY-MM-DD */
  day: string;
  /** trimmed, lower case, single spaces, at most 100 characters */
  term: string;
  count: number;
}

/** A group of words that mean the same (migration 2026-11-29T0905, issue 33). */
export interface SearchSynonymsTable {
  id: Generated<number>;
  /** JSON array of lower-case words */
  words: string;
  createdAt: string;
}
