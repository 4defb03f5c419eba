import { logger } from "../adapters/logger.server.ts";

/**
 * Work a request starts but does not wait for: its answer must neither depend on it nor show it
 * in its timing (a password reset's token and e-mail happen only for an existing account, so
 * doing them on the request path told who has an account). The task starts a moment after the
 * request returned (AFTER_RESPONSE_DELAY_MS, so its database writes do not compete with that
 * response being rendered), runs in this process, and logs its failure; nothing retries it.
 * closeServices waits for the tasks still running (graceful shutdown).
 */
export const AFTER_RESPONSE_DELAY_MS = 50;

const pending = new Set<Promise<void>>();

export function runAfterResponse(name: string, task: () => Promise<unknown>): void {
  const run = new Promise<void>((resolve) => setTimeout(resolve, AFTER_RESPONSE_DELAY_MS))
    .then(task)
    .then(
      () => {},
      (error: unknown) => logger.error({ err: error, task: name }, "after-response task failed"),
    )
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** How many tasks have been started and not finished. */
export function pendingAfterResponseTasks(): number {
  return pending.size;
}

/** Resolves once every task started so far (and any they started) has finished. */
export async function settleAfterResponseTasks(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
