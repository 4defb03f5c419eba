import { type ReactNode, Suspense, use } from "react";

/**
 * A part of a page rendered on the server in a later turn of the event loop (decision 041): React
 * renders a page in one go, and the listing of a large catalogue — every brand, 24 cards — held
 * the server's thread 50–85 ms, every other request waiting. A part in turn `turn` waits that many
 * turns (setImmediate) before React renders it, so the page is rendered in slices with other
 * requests answered between them. The server sends a page only once all of it is rendered
 * (entry.server.tsx, onAllReady): the parts are in the HTML where they belong, never a fallback
 * for a script to replace, so nothing depends on JavaScript. In the browser it renders at once.
 * `of` is an object the page's render keeps (its loader data, a prop): the turn's wait is kept
 * with it, so the render React retries finds it over.
 */
export function InTurn({ of, turn, children }: { of: object; turn: number; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Waits of={of} turn={turn}>
        {children}
      </Waits>
    </Suspense>
  );
}

function Waits({ of, turn, children }: { of: object; turn: number; children: ReactNode }) {
  if (typeof window === "undefined") use(turnOf(of, turn));
  return children;
}

/**
 * What the server's render needs for parts in turns to land in the HTML where they belong (with
 * `onAllReady`): every part inline, however large — React would otherwise move a large one after
 * the page, for a script to put in place.
 */
export const INLINE_PARTS = { progressiveChunkSize: Number.POSITIVE_INFINITY } as const;

const waits = new WeakMap<object, Map<number, Promise<void>>>();

function turnOf(of: object, turn: number): Promise<void> {
  let turns = waits.get(of);
  if (!turns) {
    turns = new Map();
    waits.set(of, turns);
  }
  let wait = turns.get(turn);
  if (!wait) {
    wait = afterTurns(turn);
    turns.set(turn, wait);
  }
  return wait;
}

function afterTurns(turns: number): Promise<void> {
  return new Promise((resolve) => {
    const next = (left: number) => (left <= 0 ? resolve() : setImmediate(() => next(left - 1)));
    next(turns);
  });
}
