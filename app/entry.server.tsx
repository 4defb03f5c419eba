import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { logger } from "./adapters/logger.server.ts";
import { createApi } from "./api/api.server.ts";
import { InlineCssProvider } from "./components/document-styles.tsx";
import { NonceProvider } from "./components/nonce.tsx";
import { INLINE_PARTS } from "./components/render-in-turns.tsx";
import { getServices, openedDatabase } from "./composition.server.ts";
import { backupServices } from "./domain/backups/take-backup.server.ts";
import {
  checkDatabase,
  checkReadiness as checkDatabaseReadiness,
  type Readiness,
} from "./domain/health.server.ts";
import { inlineCss } from "./http/inline-css.server.ts";
import { deferHydrationStream } from "./infra/deferred-hydration.server.ts";
import { startJobs } from "./jobs/background-jobs.server.ts";
import { requestInfoContext } from "./lib/request-context.ts";
import { mailShop } from "./lib/shop-settings.ts";

export { setMailWorker } from "./adapters/mail/mailer.server.ts";
// The HTTP server (server/) reaches the app's single copy of these through the build's entry module.
export {
  closeServices,
  dataStamp,
  getServices,
  setSearchIndexWorker,
  setSqliteReaderWorker,
} from "./composition.server.ts";
export { requestInfoContext } from "./lib/request-context.ts";

export const streamTimeout = 5_000;

/** The REST API under /api/v1 (server/app.ts hands it every request there), over the app's services. */
let api: ReturnType<typeof createApi> | null = null;
export function handleApi(request: Request): Response | Promise<Response> {
  api ??= createApi(getServices);
  return api.fetch(request);
}

/** Housekeeping timers on the app's own database (server/main.ts starts them); returns their stop. */
export function startBackgroundJobs(): () => void {
  return startJobs(async () => {
    const { db, mail, config, gateway, settings, files } = await getServices();
    return {
      db,
      mail,
      gateway,
      shop: mailShop(await settings.current(), config.PUBLIC_URL),
      backups: backupServices({ config, db, files }),
      webhooksAllowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === "true",
    };
  });
}

/** Liveness and readiness in one (server/app.ts's /healthz): the process answers and the database does too. */
export async function checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    return await checkDatabase((await getServices()).db);
  } catch {
    return { ok: false, database: "down" };
  }
}

/**
 * Readiness (server/app.ts's /readyz): the process has finished starting (its services are open),
 * its database answers and has every migration applied. Never opens anything itself.
 */
export async function checkReadiness(): Promise<Readiness> {
  const db = openedDatabase();
  if (!db) return { ok: false, started: false };
  return checkDatabaseReadiness(db);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestInfoContext);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined;
    // a page is sent once all of it is rendered: parts rendered in later turns of the event loop
    // (render-in-turns.tsx) are then in the HTML where they belong, for browsers without
    // JavaScript too — no fallback for a script to replace
    const readyOption: keyof RenderToPipeableStreamOptions = "onAllReady";

    // Anything that throws before the render has started (building its props, reading the
    // stylesheet) rejects here: React Router answers with one 500 page, and no timer is left
    // behind to abort a render that never began.
    let render: ReturnType<typeof renderToPipeableStream>;
    try {
      render = renderToPipeableStream(
        <NonceProvider value={nonce}>
          <InlineCssProvider value={inlineCss()}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </InlineCssProvider>
        </NonceProvider>,
        {
          nonce,
          ...INLINE_PARTS,
          [readyOption]() {
            shellRendered = true;
            const body = new PassThrough({
              final(callback) {
                clearTimeout(timeoutId);
                timeoutId = undefined;
                callback();
              },
            });
            // The client went away: the server cancels the response stream, which destroys `body`
            // with an AbortError after React Router's stream adapter has stopped listening. Without
            // a listener of our own that error is uncaught and stops the process; stop rendering.
            body.on("error", () => render.abort());
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            if (process.env.NODE_ENV === "production") {
              // hydrate after the page has loaded (see deferred-hydration.server.ts)
              const deferred = deferHydrationStream();
              deferred.pipe(body);
              render.pipe(deferred);
            } else {
              render.pipe(body);
            }
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
          },
          onShellError(error: unknown) {
            clearTimeout(timeoutId);
            reject(error);
          },
          onError(error: unknown) {
            responseStatusCode = 500;
            if (shellRendered) logger.error({ err: error, url: request.url }, "streaming render failed");
          },
        },
      );
    } catch (error) {
      reject(error);
      return;
    }
    // Armed only once there is a render to abort: a stream still open after the deadline is cut.
    timeoutId = setTimeout(() => render.abort(), streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const { requestId } = context.get(requestInfoContext);
  // React Router's own refusals (405 for a method a route does not handle, 404, 400) are the
  // visitor's mistake, not ours: an operator is paged by errors, so they are logged below that.
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.info({ requestId, url: request.url, status: error.status }, "request refused");
    return;
  }
  logger.error({ err: error, requestId, url: request.url }, "unexpected error");
};
