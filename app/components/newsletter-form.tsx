import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";

/** What /newsletter answers to a refused sign-up: Conform's submission result. */
export interface NewsletterActionData {
  result: SubmissionResult;
}

/**
 * The message of a refused sign-up: the address's own error, else the form's (rate limit). This
 * form is on every page, so it reads the submission result without Conform's client library
 * (decision 017: the first-load JavaScript budget).
 */
export function formMessage(result: SubmissionResult): string | undefined {
  return result.error?.email?.[0] ?? result.error?.[""]?.[0];
}

/**
 * E-mail sign-up. Without JavaScript it posts to /newsletter, which answers with a page (error)
 * or a redirect back here with a toast; with JavaScript the same post happens in place.
 */
export function NewsletterForm({ id, tone = "light" }: { id: string; tone?: "light" | "dark" }) {
  const fetcher = useFetcher<NewsletterActionData>();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const error = fetcher.data ? formMessage(fetcher.data.result) : undefined;
  const errorId = `${id}-error`;

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data === undefined) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/newsletter"
      preventScrollReset
      noValidate
      className="flex flex-col gap-1"
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label
        htmlFor={id}
        className={`text-sm font-medium ${tone === "dark" ? "text-gray-100" : "text-gray-800"}`}
      >
        Email address
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="email"
          name="email"
          required
          autoComplete="email"
          maxLength={254}
          placeholder="you@example.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="min-w-0 flex-1 rounded-lg border border-gray-400 bg-white px-3 py-2 text-sm text-gray-900"
        />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          Subscribe
        </button>
      </div>
      {error && (
        <p
          id={errorId}
          role="alert"
          className={`text-sm font-medium ${tone === "dark" ? "text-red-300" : "text-red-700"}`}
        >
          {error}
        </p>
      )}
    </fetcher.Form>
  );
}
