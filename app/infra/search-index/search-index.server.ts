import { Worker } from "node:worker_threads";
import { logger } from "../../adapters/logger.server.ts";
import type { Database } from "../../db/database.server.ts";
import { type ListingQuery, PRICE_MAX, PRICE_MIN } from "../../lib/listing-query.ts";
import { recordSearchIndexBuild } from "../metrics.server.ts";
import { readerOf } from "../sqlite-readers.server.ts";
import { buildIndexParts, buildSearchIndex, readCatalogVersion, SLICE_MS } from "./build-index.server.ts";
import { changesSince } from "./catalog-changes.server.ts";
import { type IndexInfo, localHandle, Searcher, type SearchIndexHandle } from "./index-handle.ts";
import type { IndexAnswer } from "./index-parts.ts";
import type { OptionCountRow } from "./option-index.ts";
import type { WorkerJob } from "./search-index-worker.ts";

/**
 * Keeps each database's search index (decision 004, revision 3): attached when the app opens its
 * database, patched with the products written since its build whenever `catalog_version` moved
 * (catalog-changes.server.ts, patched-index.ts) — rebuilt in the background when the log no
 * longer holds those changes or many products changed — and asked by the listing while it is
 * fresh — or, in a large catalogue, while a patch or a newer build is made (decision 041) —
 * otherwise SQL answers. With worker threads (the server) the index is built in one and held and
 * asked in another, the searcher (index-handle.ts), so neither a build nor a search holds the
 * app's thread; without (tests), built in slices between requests and asked on this thread.
 * The index itself is catalog-index.ts; building it, build-index.server.ts.
 */

/**
 * Where the worker entry is (server/main.ts knows), what it connects to, and where the last index
 * of a large catalogue is kept for the next start (index-snapshot.ts), if anywhere.
 */
export interface SearchIndexWorker {
  url: URL;
  databaseUrl: string;
  snapshotPath?: string;
}

/** How often at most a build is also written as the snapshot (each is the index's size on disk). */
const SNAPSHOT_EVERY_MS = 10 * 60_000;

interface Attached {
  index: SearchIndexHandle | null;
  building: Promise<void> | null;
  /** the patch being made of `index`'s build, if any */
  patching: Promise<void> | null;
  worker: SearchIndexWorker | null;
  /** the thread holding and asking the index (with `worker`) */
  searcher: Searcher | null;
  stopWorker: (() => void) | null;
  /** no new build before this time (ms): a build may not take more than half the time */
  notBefore: number;
  closed: boolean;
  /** from this many products a stale index answers while the next one is built */
  staleFromProducts: number;
  /** indexes taken up so far */
  builds: number;
  /** the index is the snapshot of an earlier run: never fresh, whatever its version says */
  fromSnapshot: boolean;
  /** no snapshot is written before this time (ms) */
  snapshotNotBefore: number;
}

/**
 * Up to this many products SQL answers a searched or option-filtered listing well within a
 * second; its cost grows with the catalogue (17–26 s for an option listing at 1M, decisions 035, 041).
 */
const SQL_FAST_UP_TO_PRODUCTS = 20_000;

const attached = new WeakMap<Database, Attached>();

/**
 * Keeps a search index for `db` from now on (the first build starts at once): built in a worker
 * thread and asked in another when `worker` is given, else on this thread in slices between
 * requests.
 */
export function attachSearchIndex(
  db: Database,
  worker: SearchIndexWorker | null = null,
  { staleFromProducts = STALE_INDEX_FROM_PRODUCTS }: { staleFromProducts?: number } = {},
): void {
  if (attached.has(db)) return;
  const state: Attached = {
    index: null,
    building: null,
    patching: null,
    worker,
    searcher: null,
    stopWorker: null,
    notBefore: 0,
    closed: false,
    staleFromProducts,
    builds: 0,
    fromSnapshot: false,
    snapshotNotBefore: 0,
  };
  attached.set(db, state);
  if (worker) state.searcher = startSearcher(db, state, worker);
  if (worker?.snapshotPath) loadSnapshot(db, state, worker.snapshotPath);
  else startBuild(db, state);
}

/** The searcher thread; should it stop, listings use SQL until a new one holds a new build. */
function startSearcher(db: Database, state: Attached, worker: SearchIndexWorker): Searcher {
  return new Searcher(worker.url, (error) => {
    if (state.closed) return;
    logger.error(
      { err: error },
      "the search index's searcher stopped; listings use SQL until the next build",
    );
    state.index = null;
    state.searcher = startSearcher(db, state, worker);
    state.notBefore = Math.max(state.notBefore, Date.now() + 10_000);
  });
}

/**
 * A producer thread (search-index-worker.ts: a build, or the snapshot's reader) sending its parts
 * straight to the searcher: what the searcher took up, null when nothing came. `stop` ends it.
 */
function produceInWorker(
  state: Attached,
  role: "build" | "load",
  snapshot: Extract<WorkerJob, { snapshot: unknown }>["snapshot"],
): { info: Promise<IndexInfo | null>; stop: () => void } {
  const worker = state.worker!;
  const { port, taken } = state.searcher!.receiver();
  const job: WorkerJob = { role, databaseUrl: worker.databaseUrl, port, snapshot };
  const thread = new Worker(worker.url, { workerData: job, transferList: [port] });
  const failed = new Promise<never>((_, reject) => {
    thread.once("error", reject);
    thread.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the search index worker stopped (exit code ${code})`));
    });
  });
  return { info: Promise.race([taken, failed]), stop: () => void thread.terminate() };
}

/** The handle of what the searcher took up. */
function handleOf(state: Attached, info: IndexInfo | null): SearchIndexHandle | null {
  return info && state.searcher ? state.searcher.handle(info) : null;
}

/**
 * Takes up the index kept on disk by an earlier run (index-snapshot.ts) — as a stale one: it
 * answers only in a catalogue of at least `staleFromProducts`, like any stale index — then builds
 * a fresh one at once, whatever its version says (the database may have been restored meanwhile).
 */
function loadSnapshot(db: Database, state: Attached, path: string) {
  const started = Date.now();
  const job = produceInWorker(state, "load", { path, write: false, minProducts: 0 });
  state.stopWorker = job.stop;
  state.building = job.info
    .then((info) => {
      const index = handleOf(state, info);
      if (state.closed || !index || state.index) return;
      state.index = index;
      state.fromSnapshot = true;
      state.builds += 1;
      recordSearchIndexBuild("loaded", (Date.now() - started) / 1000);
      logger.info(
        { products: index.size, version: index.version, ms: Date.now() - started },
        "search index snapshot loaded; a fresh build follows",
      );
    })
    .catch((error: unknown) => {
      if (!state.closed) logger.warn({ err: error }, "could not load the search index snapshot");
    })
    .finally(() => {
      state.building = null;
      state.stopWorker = null;
      startBuild(db, state);
    });
}

/**
 * A patch is made when at most this many products changed since the build (the changed products'
 * rows are read and indexed on this thread, sliced; every search then asks both indexes) ...
 */
export const PATCH_MAX_PRODUCTS = 5_000;
/** ... and from this many a new build starts as well (the patches answer until it is taken up). */
export const REBUILD_FROM_CHANGED_PRODUCTS = 1_000;

/**
 * Brings the index up to the catalogue's version by patching its build with the products written
 * since (decision 041): their rows read, indexed apart, and handed to the holder of the index —
 * moments rather than a whole build's seconds in a large catalogue. A build starts instead when
 * the log no longer reaches back to the build or too many products changed, and also when many
 * have (REBUILD_FROM_CHANGED_PRODUCTS): each patch is made from the build, so it grows until then.
 */
function startPatch(db: Database, state: Attached) {
  const index = state.index;
  if (state.patching || state.closed || !index || state.fromSnapshot) return;
  const started = Date.now();
  state.patching = (async () => {
    // read off the app's thread on SQLite (its reader threads), like the listing's long reads
    const reader = readerOf(db);
    const patch = await changesSince(reader, index.baseVersion, PATCH_MAX_PRODUCTS);
    if (typeof patch === "string" || patch.changed.length >= REBUILD_FROM_CHANGED_PRODUCTS) {
      startBuild(db, state);
    }
    if (typeof patch === "string" || patch.version === index.version) return;
    const parts = await buildIndexParts(reader, () => state.closed || state.index !== index, SLICE_MS, {
      onlyIds: patch.changed,
    });
    if (!parts || state.closed || state.index !== index) return;
    const next = await index.patch(patch, parts);
    // a build taken up meanwhile is newer than the patch of the one before
    if (!next || state.closed || state.index !== index) return;
    state.index = next;
    state.builds += 1;
    recordSearchIndexBuild("patched", (Date.now() - started) / 1000);
  })()
    .catch((error: unknown) => {
      if (state.closed) return;
      logger.warn({ err: error }, "could not patch the search index; a build follows");
      startBuild(db, state);
    })
    .finally(() => {
      state.patching = null;
    });
}

/** Stops using and building the index of `db` (before the database closes). */
export async function detachSearchIndex(db: Database): Promise<void> {
  const state = attached.get(db);
  if (!state) return;
  state.closed = true;
  attached.delete(db);
  state.stopWorker?.();
  await state.patching;
  await state.building;
  await state.searcher?.stop();
}

function startBuild(db: Database, state: Attached) {
  if (state.building || state.closed || Date.now() < state.notBefore) return;
  const started = Date.now();
  let built: Promise<SearchIndexHandle | null>;
  if (state.worker && state.searcher) {
    const path = state.worker.snapshotPath;
    const write = Boolean(path) && started >= state.snapshotNotBefore;
    if (write) state.snapshotNotBefore = started + SNAPSHOT_EVERY_MS;
    const job = produceInWorker(
      state,
      "build",
      path ? { path, write, minProducts: state.staleFromProducts } : null,
    );
    state.stopWorker = job.stop;
    built = job.info.then((info) => handleOf(state, info));
  } else {
    built = buildSearchIndex(db, () => state.closed).then((index) => (index ? localHandle(index) : null));
  }
  state.building = built
    .then(async (index) => {
      if (state.closed) return;
      const seconds = (Date.now() - started) / 1000;
      if (!index) {
        recordSearchIndexBuild("failed", seconds);
        return;
      }
      // builds run one at a time, each reading the catalogue after the last: the newest is taken
      // up — over a snapshot too, even one of a higher version (a database restored since)
      state.index = index;
      state.fromSnapshot = false;
      state.builds += 1;
      const changed = (await readCatalogVersion(db)) !== index.version;
      recordSearchIndexBuild(changed ? "stale" : "built", seconds);
      logger.info(
        {
          products: index.size,
          words: index.wordsCount,
          megabytes: Math.round(index.bytes / 1e6),
          ms: Date.now() - started,
        },
        changed
          ? "search index built; the catalogue changed meanwhile, so another follows"
          : "search index built",
      );
    })
    .catch((error: unknown) => {
      if (state.closed) return;
      recordSearchIndexBuild("failed", (Date.now() - started) / 1000);
      logger.warn({ err: error }, "could not build the search index; searches use SQL");
    })
    .finally(() => {
      state.building = null;
      state.stopWorker = null;
      state.notBefore = Math.max(state.notBefore, Date.now() + (Date.now() - started));
    });
}

/**
 * From this many products the last index answers while a newer one is built (decision 041): SQL
 * would hold a listing — and on SQLite every request — for seconds. Below it SQL answers at once,
 * exactly, while the index is rebuilt.
 */
export const STALE_INDEX_FROM_PRODUCTS = SQL_FAST_UP_TO_PRODUCTS;

/**
 * The index to answer from: `db`'s when it is fresh, or — in a catalogue of at least
 * `staleFromProducts` — the last one built, a build's time old at most; otherwise null (the
 * caller answers with SQL). A stale index starts a rebuild.
 */
async function answeringIndex(db: Database): Promise<SearchIndexHandle | null> {
  const state = attached.get(db);
  if (!state || state.closed) return null;
  const version = await readCatalogVersion(db);
  if (state.index && state.index.version === version && !state.fromSnapshot) return state.index;
  if (state.index && !state.fromSnapshot) startPatch(db, state);
  else startBuild(db, state);
  return state.index && state.index.size >= state.staleFromProducts ? state.index : null;
}

/**
 * The catalogue's words close to each search word that nothing holds — neither the word nor one
 * of its synonyms — (typo tolerance, decision 041), from the last index built, fresh or not; null
 * when there are none, or no index yet (the words are then taken as typed).
 */
export async function searchCorrections(
  db: Database,
  words: readonly string[],
  synonyms: ListingQuery["synonyms"],
): Promise<Record<string, string[]> | null> {
  const index = attached.get(db)?.index;
  return index ? asked(index.correctionsFor(words, synonyms)) : null;
}

/**
 * What the index answered, or null (SQL answers instead) when it could not: its searcher thread
 * stopped meanwhile (it is started again, startSearcher) — a listing never fails for the index.
 */
async function asked<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    logger.warn({ err: error }, "the search index did not answer; SQL answers");
    return null;
  }
}

/** Up to this many products a priced listing during a sale is left to SQL (pricesMatter, below). */
export const SALE_BY_SQL_MAX_PRODUCTS = SQL_FAST_UP_TO_PRODUCTS;

/**
 * The index holds regular prices: while catalogue promotions are live (`query.sale`, decision 035)
 * a listing whose answer depends on prices — price bounds, or (`sorted`) a price order — is
 * answered by SQL, which prices as a shopper pays, in a catalogue of up to
 * SALE_BY_SQL_MAX_PRODUCTS. In a larger one the index answers it by regular prices (the cards
 * still show the sale prices): a known gap, traded for not sending such listings to a SQL that
 * takes seconds.
 */
function pricesMatter(index: SearchIndexHandle, query: ListingQuery, sorted: boolean): boolean {
  if (!query.sale || query.sale.length === 0 || index.size > SALE_BY_SQL_MAX_PRODUCTS) return false;
  return (
    query.minPrice > PRICE_MIN ||
    query.maxPrice < PRICE_MAX ||
    (sorted && (query.sort === "price-asc" || query.sort === "price-desc"))
  );
}

/** The listing's answer (row filters: a search, options, prices, rating, flags) from the index (see answeringIndex), else null. */
export async function searchFromIndex(db: Database, query: ListingQuery): Promise<IndexAnswer | null> {
  const index = await answeringIndex(db);
  if (!index || pricesMatter(index, query, true)) return null;
  return asked(index.search(query));
}

/**
 * The first `limit` products a search alone lists (suggestions, decision 041) from the index (see
 * answeringIndex) — no total or facets counted — else null.
 */
export async function firstMatchesFromIndex(
  db: Database,
  query: ListingQuery,
  limit: number,
): Promise<number[] | null> {
  const index = await answeringIndex(db);
  return index ? asked(index.firstMatches(query, limit)) : null;
}

/** The option facets of a listing without search or option filters from the index (see answeringIndex), else null. */
export async function optionCountsFromIndex(
  db: Database,
  query: ListingQuery,
): Promise<OptionCountRow[] | null> {
  const index = await answeringIndex(db);
  if (!index || pricesMatter(index, query, false)) return null;
  return asked(index.optionCounts(query));
}

/**
 * Which index `db` answers from, for caches of what searches answer (the page cache): it changes
 * whenever a new index is taken up. Null when none is attached.
 */
export function searchIndexStamp(db: Database): string | null {
  const state = attached.get(db);
  if (!state) return null;
  return `i${state.builds}`;
}

/**
 * Waits for a fresh index — a build or a build patched (not a snapshot) — (benchmarks and tests);
 * null when none could be made.
 */
export async function searchIndexReady(db: Database, timeoutMs = 600_000): Promise<SearchIndexHandle | null> {
  const state = attached.get(db);
  if (!state) return null;
  const deadline = Date.now() + timeoutMs;
  while (!state.closed && Date.now() < deadline) {
    const version = await readCatalogVersion(db);
    if (state.index?.version === version && !state.fromSnapshot) return state.index;
    state.notBefore = 0;
    if (state.index && !state.fromSnapshot) startPatch(db, state);
    else startBuild(db, state);
    await (state.patching ?? state.building ?? new Promise((r) => setTimeout(r, 10)));
  }
  return null;
}
