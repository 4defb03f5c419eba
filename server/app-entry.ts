import type { RouterContext } from "react-router";
import type { FileStore } from "../app/adapters/files/file-store.ts";
import type { RequestInfo } from "../app/lib/request-context.ts";

/**
 * What the server uses from the app build (app/entry.server.tsx re-exports these), so the
 * server and the routes share one database connection and one file store.
 */
export interface AppEntry {
  getServices(): Promise<{ files: FileStore }>;
  /** before getServices: build the search index in a worker thread running this file */
  setSearchIndexWorker(url: URL): void;
  /** before getServices: on SQLite, read the listing's long queries in worker threads running this file */
  setSqliteReaderWorker(url: URL): void;
  /** before the first e-mail: build and send messages in a child process running this file */
  setMailWorker(url: URL): void;
  closeServices(): Promise<void>;
  /** changes whenever the data may have changed; null when that cannot be known (PostgreSQL) */
  dataStamp(): string | null;
  checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }>;
  /** /readyz: started (services open), the database answers, no migration pending; else what is missing */
  checkReadiness(): Promise<{ ok: boolean } & Record<string, unknown>>;
  /** housekeeping timers (confirmation resends, rate-limit pruning); returns their stop */
  startBackgroundJobs(): () => void;
  requestInfoContext: RouterContext<RequestInfo>;
  /** the REST API: every request under /api/v1 */
  handleApi(request: Request): Response | Promise<Response>;
}
