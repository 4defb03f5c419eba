/**
 * Worker-thread entry: builds the search index's arrays with a database connection of its own
 * and sends them to the app's thread, moving (not copying) the typed arrays — or, asked to `load`,
 * sends the snapshot kept on disk (index-snapshot.ts). A build of at least `minProducts` products
 * is also written as the snapshot when `snapshot.write` says so. Started by search-index.server.ts
 * when the server gave it this file's URL (server/main.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { logger } from "../../adapters/logger.server.ts";
import { createDatabase } from "../../db/database.server.ts";
import { buildIndexParts, transferList } from "./build-index.server.ts";
import type { IndexParts } from "./index-parts.ts";
import { readSnapshot, writeSnapshot } from "./index-snapshot.ts";

export interface WorkerJob {
  databaseUrl: string;
  snapshot: { path: string; load: boolean; write: boolean; minProducts: number } | null;
}

const { databaseUrl, snapshot } = workerData as WorkerJob;
const send = (parts: IndexParts | null) => parentPort?.postMessage(parts, parts ? transferList(parts) : []);

if (snapshot?.load) {
  send(readSnapshot(snapshot.path));
} else {
  const db = createDatabase(databaseUrl, { poolSize: 1 });
  try {
    // nothing else runs on this thread: no slicing
    const parts = await buildIndexParts(db, () => false, Number.POSITIVE_INFINITY);
    // written before it is sent: sending moves the arrays away
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
}
