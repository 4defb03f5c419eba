import { createContext, type RouterContextProvider } from "react-router";
import type { Auth } from "./adapters/auth/auth.server.ts";
import type { FileStore } from "./adapters/files/file-store.ts";
import type { Mailer } from "./adapters/mail/mail-message.ts";
import type { PaymentGateway } from "./adapters/payments/payment-gateway.ts";
import type { Database } from "./db/database.server.ts";
import type { ShopSettingsSource } from "./domain/settings/shop-settings.server.ts";
import type { Env } from "./env.server.ts";
import { type MailShop, mailShop, type ShopSettings } from "./lib/shop-settings.ts";

/** What the app is assembled from (app/composition.server.ts opens them). */
export interface AppServices {
  /** the shop's configuration (validated environment) */
  config: Env;
  db: Database;
  files: FileStore;
  auth: Auth;
  mail: Mailer;
  gateway: PaymentGateway;
  /** the shop's settings as stored by the owner (Admin → Settings) */
  settings: ShopSettingsSource;
}

/**
 * The shop's services (database, file store, auth) for loaders and actions. The root route's
 * middleware puts the app's own in (`provideServices`, app/composition.server.ts); a route test
 * sets its own before calling a loader or action, and the middleware leaves them.
 */
export const servicesContext = createContext<AppServices | null>(null);

/** The services of this request: `const { db } = servicesFrom(context)`. */
export function servicesFrom(context: Readonly<RouterContextProvider>): AppServices {
  const services = context.get(servicesContext);
  if (!services) throw new Error("no services in the request context (the root middleware sets them)");
  return services;
}

const shopSettingsContext = createContext<Promise<ShopSettings> | null>(null);

/**
 * The shop's settings for this request (name, contact details, currency, tax, shipping), read
 * once per request however many loaders ask: `const shop = await shopSettingsFrom(context)`.
 */
export function shopSettingsFrom(context: Readonly<RouterContextProvider>): Promise<ShopSettings> {
  let settings = context.get(shopSettingsContext);
  if (!settings) {
    settings = servicesFrom(context).settings.current();
    (context as RouterContextProvider).set(shopSettingsContext, settings);
  }
  return settings;
}

/** The shop as this request's e-mails name it (settings' name and tax label, the public URL). */
export async function mailShopFrom(context: Readonly<RouterContextProvider>): Promise<MailShop> {
  return mailShop(await shopSettingsFrom(context), servicesFrom(context).config.PUBLIC_URL);
}
