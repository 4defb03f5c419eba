import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * Hydrate after the browser has painted the server-rendered page once: the page is complete and
 * usable without JavaScript, so its first (and largest) paint should not wait for hydration work.
 */
function afterFirstPaint(run: () => void) {
  requestAnimationFrame(() => setTimeout(run, 0));
}

afterFirstPaint(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
