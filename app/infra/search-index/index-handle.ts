import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import type { ListingQuery } from "../../lib/listing-query.ts";
import { CatalogSearchIndex } from "./catalog-index.ts";
import { type IndexAnswer, type IndexParts, transferList } from "./index-parts.ts";
import type { OptionCountRow } from "./option-index.ts";
import { type IndexPatch, type ListingIndex, PatchedIndex } from "./patched-index.ts";

/**
 * An index as the listing asks it (decision 041): in this thread (tests, a server without worker
 * threads) or in the index's searcher thread, so that no search — 25–40 ms for a category's
 * listing at a million products, ~100 ms for a typo's corrections — holds the app's event loop.
 */
export interface SearchIndexHandle extends IndexInfo {
  search(query: ListingQuery): Promise<IndexAnswer>;
  firstMatches(query: ListingQuery, limit: number): Promise<number[]>;
  optionCounts(query: ListingQuery): Promise<OptionCountRow[]>;
  correctionsFor(
    words: readonly string[],
    synonyms: ListingQuery["synonyms"],
  ): Promise<Record<string, string[]> | null>;
  /**
   * This index's base (the last build) with `patch` applied — `parts` are the changed products'
   * rows (patched-index.ts) — or null when the holder has taken up another build meanwhile.
   */
  patch(patch: IndexPatch, parts: IndexParts): Promise<SearchIndexHandle | null>;
}

/** The methods a searcher thread answers, with their arguments. */
export interface SearcherCalls {
  search: [ListingQuery];
  firstMatches: [ListingQuery, number];
  optionCounts: [ListingQuery];
  correctionsFor: [readonly string[], ListingQuery["synonyms"]];
}
export type SearcherCall = keyof SearcherCalls;

/** What a searcher thread reports of the index it took up. */
export interface IndexInfo {
  version: number;
  /** the version of the build it is (a patched index: the build its patch applies to) */
  baseVersion: number;
  size: number;
  wordsCount: number;
  bytes: number;
}

/** The build an index is, or applies its patch to. */
export const baseOf = (index: ListingIndex): CatalogSearchIndex =>
  index instanceof PatchedIndex ? index.base : (index as CatalogSearchIndex);

export const infoOf = (index: ListingIndex): IndexInfo => ({
  version: index.version,
  baseVersion: baseOf(index).version,
  size: index.size,
  wordsCount: index.wordsCount,
  bytes: index.bytes,
});

/** `patch` applied to the base of `index` when that is the build of `baseVersion`, else null. */
export function patched(
  index: ListingIndex | null,
  baseVersion: number,
  patch: IndexPatch,
  parts: IndexParts,
): ListingIndex | null {
  const base = index ? baseOf(index) : null;
  return base && base.version === baseVersion
    ? new PatchedIndex(base, new CatalogSearchIndex(parts), patch)
    : null;
}

/** An index in this thread. */
export function localHandle(index: ListingIndex): SearchIndexHandle {
  const info = infoOf(index);
  return {
    ...info,
    search: async (query) => index.search(query),
    firstMatches: async (query, limit) => index.firstMatches(query, limit),
    optionCounts: async (query) => index.optionCounts(query),
    correctionsFor: async (words, synonyms) => index.correctionsFor(words, synonyms),
    patch: async (patch, parts) => {
      const next = patched(index, info.baseVersion, patch, parts);
      return next ? localHandle(next) : null;
    },
  };
}

/** Messages between the app's thread and a searcher thread (search-index-worker.ts). */
export type ToSearcher =
  | { type: "parts-from"; port: MessagePort; token: number }
  | { type: "patch"; token: number; baseVersion: number; patch: IndexPatch; parts: IndexParts }
  | { type: "call"; id: number; method: SearcherCall; args: unknown[] };
export type FromSearcher =
  | { type: "taken"; token: number; info: IndexInfo | null }
  | { type: "answer"; id: number; ok: true; value: unknown }
  | { type: "answer"; id: number; ok: false; error: string };

/**
 * The app's side of a searcher thread: it holds the last index a builder sent it (the parts go
 * from the builder's thread to it directly, never through this one) and answers calls on it.
 */
export class Searcher {
  private readonly thread: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly taking = new Map<number, (info: IndexInfo | null) => void>();
  private failure: Error | null = null;

  constructor(url: URL, onExit: (error: Error) => void) {
    this.thread = new Worker(url, { workerData: { role: "search" } });
    // an idle searcher never keeps the process alive; one that owes an answer does (idle())
    this.thread.unref();
    this.thread.on("message", (message: FromSearcher) => {
      if (message.type === "taken") {
        this.taking.get(message.token)?.(message.info);
        this.taking.delete(message.token);
      } else {
        const call = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) call?.resolve(message.value);
        else call?.reject(new Error(message.error));
      }
      this.idle();
    });
    const fail = (error: Error) => {
      if (this.failure) return;
      this.failure = error;
      for (const call of this.pending.values()) call.reject(error);
      for (const taken of this.taking.values()) taken(null);
      this.pending.clear();
      this.taking.clear();
      onExit(error);
    };
    this.thread.on("error", fail);
    this.thread.on("exit", (code) =>
      fail(new Error(`the search index's searcher stopped (exit code ${code})`)),
    );
  }

  /**
   * A port for a builder (or the snapshot's reader) to send parts on, and what the searcher then
   * holds: the index's info, or null when nothing came.
   */
  receiver(): { port: MessagePort; taken: Promise<IndexInfo | null> } {
    const { port1, port2 } = new MessageChannel();
    const token = this.nextId++;
    const taken = new Promise<IndexInfo | null>((resolve) => {
      if (this.failure) return resolve(null);
      this.taking.set(token, resolve);
      this.thread.ref();
    });
    const message: ToSearcher = { type: "parts-from", port: port2, token };
    this.thread.postMessage(message, [port2]);
    return { port: port1, taken };
  }

  /** Sends a patch of the build of `baseVersion` (moving the parts' arrays): what the searcher then holds, or null. */
  private patch(baseVersion: number, patch: IndexPatch, parts: IndexParts): Promise<IndexInfo | null> {
    const token = this.nextId++;
    return new Promise<IndexInfo | null>((resolve) => {
      if (this.failure) return resolve(null);
      this.taking.set(token, resolve);
      this.thread.ref();
      const message: ToSearcher = { type: "patch", token, baseVersion, patch, parts };
      this.thread.postMessage(message, transferList(parts));
    });
  }

  /** The handle of the index the searcher took up with `info`. */
  handle(info: IndexInfo): SearchIndexHandle {
    const call = <M extends SearcherCall>(method: M, ...args: SearcherCalls[M]) =>
      new Promise<unknown>((resolve, reject) => {
        if (this.failure) return reject(this.failure);
        const id = this.nextId++;
        this.pending.set(id, { resolve, reject });
        this.thread.ref();
        const message: ToSearcher = { type: "call", id, method, args };
        this.thread.postMessage(message);
      });
    return {
      ...info,
      patch: async (patch, parts) => {
        const next = await this.patch(info.baseVersion, patch, parts);
        return next ? this.handle(next) : null;
      },
      search: (query) => call("search", query) as Promise<IndexAnswer>,
      firstMatches: (query, limit) => call("firstMatches", query, limit) as Promise<number[]>,
      optionCounts: (query) => call("optionCounts", query) as Promise<OptionCountRow[]>,
      correctionsFor: (words, synonyms) =>
        call("correctionsFor", words, synonyms) as Promise<Record<string, string[]> | null>,
    };
  }

  /** Lets the process end when nothing is owed. */
  private idle() {
    if (this.pending.size === 0 && this.taking.size === 0) this.thread.unref();
  }

  stop(): Promise<number> {
    return this.thread.terminate();
  }
}
