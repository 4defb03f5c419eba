import { createContext, type RouterContextProvider } from "react-router";
import type { Auth } from "./adapters/auth/auth.server.ts";
import type { FileStore } from "./adapters/files/file-store.ts";
import type { Mailer } from "./adapters/mail/mail-message.ts";
import type { PaymentGateway } from "./adapters/payments/payment-gateway.ts";
import type { Database } from "./db/database.server.ts";
import type { Env } from "./env.server.ts";

/** What the app is assembled from (app/composition.server.ts opens them). */
export interface AppServices {
  /** the shop's configuration (validated environment) */
  config: Env;
  db: Database;
  files: FileStore;
  auth: Auth;
  mail: Mailer;
  gateway: PaymentGateway;
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
