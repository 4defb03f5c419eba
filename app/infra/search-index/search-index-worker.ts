/**
 * Worker-thread entry of the search index, in one of three roles (search-index.server.ts starts
 * them when the server gave it this file's URL, server/main.ts):
 * - `build`: builds the index's arrays with a database connection of its own and sends them on
 *   `port` to the searcher, moving (not copying) the typed arrays; a build of at least
 *   `snapshot.minProducts` products is also written as the snapshot when `snapshot.write` says so;
 * - `load`: sends the snapshot kept on disk (index-snapshot.ts) the same way;
 * - `search`: holds the last index it was sent — a build, or the last build with a patch the app
 *   sent (patched-index.ts) — and answers the app's calls on it (index-handle.ts), so no search
 *   runs on the app's thread.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { logger } from "../../adapters/logger.server.ts";
import { createDatabase } from "../../db/database.server.ts";
import { buildIndexParts } from "./build-index.server.ts";
import { CatalogSearchIndex } from "./catalog-index.ts";
import {
  type FromSearcher,
  type IndexInfo,
  infoOf,
  patched,
  type SearcherCall,
  type ToSearcher,
} from "./index-handle.ts";
import { type IndexParts, transferList } from "./index-parts.ts";
import { readSnapshot, writeSnapshot } from "./index-snapshot.ts";
import type { ListingIndex } from "./patched-index.ts";

export type WorkerJob =
  | {
      role: "build" | "load";
      databaseUrl: string;
      port: MessagePort;
      snapshot: { path: string; write: boolean; minProducts: number } | null;
    }
  | { role: "search" };

const job = workerData as WorkerJob;

if (job.role === "search") serve();
else await produce(job);

async function produce(job: Extract<WorkerJob, { role: "build" | "load" }>) {
  const send = (parts: IndexParts | null) => job.port.postMessage(parts, parts ? transferList(parts) : []);
  try {
    if (job.role === "load") {
      send(job.snapshot ? readSnapshot(job.snapshot.path) : null);
      return;
    }
    const db = createDatabase(job.databaseUrl, { poolSize: 1 });
    try {
      // nothing else runs on this thread: no slicing
      const parts = await buildIndexParts(db, () => false, Number.POSITIVE_INFINITY);
      // written before it is sent: sending moves the arrays away
      const snapshot = job.snapshot;
      if (parts && snapshot?.write && parts.ids.length >= snapshot.minProducts) {
        try {
          writeSnapshot(snapshot.path, parts);
        } catch (error) {
          // a snapshot is a convenience: the index is sent all the same
          logger.warn({ err: error, path: snapshot.path }, "could not write the search index snapshot");
        }
      }
      send(parts);
    } finally {
      await db.destroy();
    }
  } finally {
    job.port.close();
  }
}

function serve() {
  let index: ListingIndex | null = null;
  const reply = (message: FromSearcher) => parentPort?.postMessage(message);
  parentPort?.on("message", (message: ToSearcher) => {
    if (message.type === "parts-from") {
      let answered = false;
      const taken = (info: IndexInfo | null) => {
        if (answered) return;
        answered = true;
        reply({ type: "taken", token: message.token, info });
      };
      message.port.once("message", (parts: IndexParts | null) => {
        // producers run one at a time (the app's thread sees to it): the last sent is the newest
        if (parts) index = new CatalogSearchIndex(parts);
        message.port.close();
        taken(parts && index ? infoOf(index) : null);
      });
      // a builder that stopped without sending closes its end: nothing was taken
      message.port.once("close", () => taken(null));
      return;
    }
    if (message.type === "patch") {
      // refused (null) when a newer build came meanwhile: the patch was made for another one
      const next = patched(index, message.baseVersion, message.patch, message.parts);
      if (next) index = next;
      reply({ type: "taken", token: message.token, info: next ? infoOf(next) : null });
      return;
    }
    try {
      if (!index) throw new Error("no index yet");
      const method = index[message.method as SearcherCall] as (...args: unknown[]) => unknown;
      reply({ type: "answer", id: message.id, ok: true, value: method.apply(index, message.args) });
    } catch (error) {
      reply({ type: "answer", id: message.id, ok: false, error: String(error) });
    }
  });
}
