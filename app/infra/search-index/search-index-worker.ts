/**
 * Worker-thread entry: builds the search index's arrays with a database connection of its own
 * and sends them to the app's thread, moving (not copying) the typed arrays. Started by
 * search-index.server.ts when the server gave it this file's URL (server/main.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { createDatabase } from "../../db/database.server.ts";
import { buildIndexParts, transferList } from "./build-index.server.ts";

const { databaseUrl } = workerData as { databaseUrl: string };
const db = createDatabase(databaseUrl, { poolSize: 1 });
try {
  // nothing else runs on this thread: no slicing
  const parts = await buildIndexParts(db, () => false, Number.POSITIVE_INFINITY);
  parentPort?.postMessage(parts, parts ? transferList(parts) : []);
} finally {
  await db.destroy();
}
