import { sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import type { Database } from "./database.server.ts";
import * as catalog from "./migrations/2026-11-22T0200-catalog.ts";
import * as shopping from "./migrations/2026-11-22T0300-shopping.ts";
import * as catalogFacets from "./migrations/2026-11-22T0310-catalog-facets.ts";
import * as catalogQuerySpeed from "./migrations/2026-11-22T0320-catalog-query-speed.ts";
import * as checkout from "./migrations/2026-11-22T0400-checkout.ts";
import * as accounts from "./migrations/2026-11-22T0500-accounts.ts";
import * as admin from "./migrations/2026-11-23T0700-admin.ts";
import * as catalogRollups from "./migrations/2026-11-23T0800-catalog-rollups.ts";
import * as orderConfirmations from "./migrations/2026-11-23T0900-order-confirmations.ts";
import * as confirmationClaims from "./migrations/2026-11-23T1000-confirmation-claims.ts";
import * as catalogVersion from "./migrations/2026-11-23T1100-catalog-version.ts";
import * as accountCarts from "./migrations/2026-11-25T0110-account-carts.ts";
import * as checkoutProgress from "./migrations/2026-11-25T0120-checkout-progress.ts";
import * as productVariants from "./migrations/2026-11-25T1200-product-variants.ts";
import * as variantFacets from "./migrations/2026-11-25T1300-variant-facets.ts";
import * as paymentWorkflow from "./migrations/2026-11-25T1400-payment-workflow.ts";
import * as paymentEvents from "./migrations/2026-11-26T1500-payment-events.ts";
import * as staffRoles from "./migrations/2026-11-26T1600-staff-roles.ts";
import * as fulfilment from "./migrations/2026-11-26T1700-fulfilment.ts";
import * as customerAccounts from "./migrations/2026-11-26T1800-customer-accounts.ts";
import * as salesRollups from "./migrations/2026-11-26T1900-sales-rollups.ts";
import * as shopSettings from "./migrations/2026-11-26T2000-shop-settings.ts";
import * as refundWorkflow from "./migrations/2026-11-27T2100-refund-workflow.ts";
import * as stockLedger from "./migrations/2026-11-27T2200-stock-ledger.ts";
import * as staffInvitations from "./migrations/2026-11-27T2300-staff-invitations.ts";
import * as jobLeases from "./migrations/2026-11-28T0100-job-leases.ts";
import * as jobTurns from "./migrations/2026-11-28T0200-job-turns.ts";
import * as backups from "./migrations/2026-11-28T0300-backups.ts";
import * as unrecordedRefunds from "./migrations/2026-11-28T0350-unrecorded-refunds.ts";
import * as markets from "./migrations/2026-11-28T0400-markets.ts";
import * as invoices from "./migrations/2026-11-28T0410-invoices.ts";
import * as promotions from "./migrations/2026-11-28T0500-promotions.ts";
import * as promotionCodes from "./migrations/2026-11-28T0600-promotion-codes.ts";
import * as promotionRevision from "./migrations/2026-11-28T0700-promotion-revision.ts";
import * as shopTimeZone from "./migrations/2026-11-28T0705-shop-time-zone.ts";
import * as customerGroups from "./migrations/2026-11-28T0710-customer-groups.ts";
import * as giftCards from "./migrations/2026-11-28T0730-gift-cards.ts";
import * as giftCardPayments from "./migrations/2026-11-28T0740-gift-card-payments.ts";
import * as promotionUses from "./migrations/2026-11-28T0745-promotion-uses.ts";
import * as priceLists from "./migrations/2026-11-28T0750-price-lists.ts";
import * as giftCardProducts from "./migrations/2026-11-28T0770-gift-card-products.ts";
import * as couponsToPromotions from "./migrations/2026-11-28T0780-coupons-to-promotions.ts";
import * as apiKeys from "./migrations/2026-11-29T0800-api-keys.ts";
import * as apiIdempotency from "./migrations/2026-11-29T0805-api-idempotency.ts";
import * as webhooks from "./migrations/2026-11-29T0810-webhooks.ts";
import * as webhookEventsMore from "./migrations/2026-11-29T0830-webhook-events-more.ts";
import * as customerCreatedAnyAccount from "./migrations/2026-11-29T0835-customer-created-any-account.ts";
import * as searchMisses from "./migrations/2026-11-29T0900-search-misses.ts";
import * as searchSynonyms from "./migrations/2026-11-29T0905-search-synonyms.ts";
import * as catalogChanges from "./migrations/2026-12-07T2230-catalog-changes.ts";

/**
 * Migrations are listed here rather than read from disk so the bundled server and the CLI
 * run exactly the same set. Add new ones at the end; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  "2026-11-22T0200-catalog": catalog,
  "2026-11-22T0300-shopping": shopping,
  "2026-11-22T0310-catalog-facets": catalogFacets,
  "2026-11-22T0320-catalog-query-speed": catalogQuerySpeed,
  "2026-11-22T0400-checkout": checkout,
  "2026-11-22T0500-accounts": accounts,
  "2026-11-23T0700-admin": admin,
  "2026-11-23T0800-catalog-rollups": catalogRollups,
  "2026-11-23T0900-order-confirmations": orderConfirmations,
  "2026-11-23T1000-confirmation-claims": confirmationClaims,
  "2026-11-23T1100-catalog-version": catalogVersion,
  "2026-11-25T0110-account-carts": accountCarts,
  "2026-11-25T0120-checkout-progress": checkoutProgress,
  "2026-11-25T1200-product-variants": productVariants,
  "2026-11-25T1300-variant-facets": variantFacets,
  "2026-11-25T1400-payment-workflow": paymentWorkflow,
  "2026-11-26T1500-payment-events": paymentEvents,
  "2026-11-26T1600-staff-roles": staffRoles,
  "2026-11-26T1700-fulfilment": fulfilment,
  "2026-11-26T1800-customer-accounts": customerAccounts,
  "2026-11-26T1900-sales-rollups": salesRollups,
  "2026-11-26T2000-shop-settings": shopSettings,
  "2026-11-27T2100-refund-workflow": refundWorkflow,
  "2026-11-27T2200-stock-ledger": stockLedger,
  "2026-11-27T2300-staff-invitations": staffInvitations,
  "2026-11-28T0100-job-leases": jobLeases,
  "2026-11-28T0200-job-turns": jobTurns,
  "2026-11-28T0300-backups": backups,
  "2026-11-28T0350-unrecorded-refunds": unrecordedRefunds,
  "2026-11-28T0400-markets": markets,
  "2026-11-28T0410-invoices": invoices,
  "2026-11-28T0500-promotions": promotions,
  "2026-11-28T0600-promotion-codes": promotionCodes,
  "2026-11-28T0700-promotion-revision": promotionRevision,
  "2026-11-28T0705-shop-time-zone": shopTimeZone,
  "2026-11-28T0710-customer-groups": customerGroups,
  "2026-11-28T0730-gift-cards": giftCards,
  "2026-11-28T0740-gift-card-payments": giftCardPayments,
  "2026-11-28T0745-promotion-uses": promotionUses,
  "2026-11-28T0750-price-lists": priceLists,
  "2026-11-28T0770-gift-card-products": giftCardProducts,
  "2026-11-28T0780-coupons-to-promotions": couponsToPromotions,
  "2026-11-29T0800-api-keys": apiKeys,
  "2026-11-29T0805-api-idempotency": apiIdempotency,
  "2026-11-29T0810-webhooks": webhooks,
  "2026-11-29T0830-webhook-events-more": webhookEventsMore,
  "2026-11-29T0835-customer-created-any-account": customerCreatedAnyAccount,
  "2026-11-29T0900-search-misses": searchMisses,
  "2026-11-29T0905-search-synonyms": searchSynonyms,
  "2026-12-07T2230-catalog-changes": catalogChanges,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The migrations this code knows, oldest first (a backup from a newer version names one it does not). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

export async function migrateToLatest(db: Database): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * The database's migrations against this code's (readiness, `doctor`): the ones the code has that
 * the database lacks (pending), and the ones the database has that the code does not know (a newer
 * version ran there).
 */
export async function migrationState(db: Database): Promise<{ pending: string[]; unknown: string[] }> {
  let recorded: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    recorded = rows.map((row) => row.name);
  } catch (error) {
    // a database that answers but has no kysely_migration table: no migration ran there yet
    const answers = await sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );
    if (!answers) throw error;
    recorded = [];
  }
  const applied = new Set(recorded);
  return {
    pending: Object.keys(migrations).filter((name) => !applied.has(name)),
    unknown: recorded.filter((name) => !Object.hasOwn(migrations, name)),
  };
}
