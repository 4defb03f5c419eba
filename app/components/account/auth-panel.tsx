import { type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useToast } from "../toasts.tsx";

/** What POST /account answers to a refused form: which form, and Conform's submission result. */
export interface AuthFeedback {
  mode: "sign-in" | "register";
  result: SubmissionResult;
}

const INPUT =
  "mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2 text-gray-900 aria-[invalid=true]:border-red-700";

/**
 * /account signed out: the Sign In / Register toggle (spec). The toggle is a pair of links, so it
 * works without JavaScript; a refusal comes back as `feedback` (read with Conform, no validation in
 * the browser), shown beside the form and, with JavaScript, as a toast.
 */
export function AuthPanel({
  mode,
  redirectTo,
  feedback,
}: {
  mode: "sign-in" | "register";
  redirectTo: string | null;
  feedback: AuthFeedback | null;
}) {
  const navigation = useNavigation();
  const { showToast } = useToast();
  const [form, fields] = useForm<{ name: string; email: string; password: string }>({
    lastResult: feedback?.result,
    id: "auth",
  });
  const message = form.errors?.[0];
  const toasted = useRef<AuthFeedback | null>(null);
  useEffect(() => {
    if (feedback && message && toasted.current !== feedback) {
      toasted.current = feedback;
      showToast(message, "error");
    }
  }, [feedback, message, showToast]);
  const busy = navigation.state === "submitting";
  const current = feedback?.mode ?? mode;
  const href = (next: "sign-in" | "register") => {
    const params = new URLSearchParams();
    if (next === "register") params.set("mode", "register");
    if (redirectTo) params.set("redirectTo", redirectTo);
    const text = params.toString();
    return text ? `/account?${text}` : "/account";
  };
  const errors: Record<string, string | undefined> = {
    name: fields.name.errors?.[0],
    email: fields.email.errors?.[0],
    password: fields.password.errors?.[0],
  };
  const kept = (value: unknown) => (typeof value === "string" ? value : "");
  const tab = (value: "sign-in" | "register", label: string) => (
    <Link
      to={href(value)}
      aria-current={current === value ? "page" : undefined}
      className={`flex-1 rounded-md px-4 py-2 text-center font-semibold ${
        current === value ? "bg-brand-700 text-white" : "text-gray-800 hover:bg-gray-100"
      }`}
    >
      {label}
    </Link>
  );
  const fieldError = (name: string) =>
    errors[name] ? (
      <p id={`auth-${name}-error`} className="mt-1 text-sm text-red-700">
        {errors[name]}
      </p>
    ) : null;

  return (
    <div className="mx-auto max-w-md">
      <nav className="flex gap-1 rounded-lg border border-gray-300 p-1" aria-label="Sign in or register">
        {tab("sign-in", "Sign In")}
        {tab("register", "Register")}
      </nav>

      <Form
        id={form.id}
        onSubmit={form.onSubmit}
        method="post"
        action="/account"
        className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6"
      >
        <h2 className="text-xl font-bold">{current === "sign-in" ? "Sign In" : "Create Account"}</h2>
        <input type="hidden" name="intent" value={current} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        {message && (
          <p
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800"
          >
            {message}
          </p>
        )}
        {current === "register" && (
          <div>
            <label htmlFor="auth-name" className="block text-sm font-semibold">
              Name
            </label>
            <input
              id="auth-name"
              name="name"
              type="text"
              autoComplete="name"
              required
              maxLength={100}
              defaultValue={kept(fields.name.initialValue)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "auth-name-error" : undefined}
              className={INPUT}
            />
            {fieldError("name")}
          </div>
        )}
        <div>
          <label htmlFor="auth-email" className="block text-sm font-semibold">
            Email
          </label>
          <input
            id="auth-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={kept(fields.email.initialValue)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? "auth-email-error" : undefined}
            className={INPUT}
          />
          {fieldError("email")}
        </div>
        <div>
          <label htmlFor="auth-password" className="block text-sm font-semibold">
            Password
          </label>
          <input
            id="auth-password"
            name="password"
            type="password"
            autoComplete={current === "sign-in" ? "current-password" : "new-password"}
            required
            minLength={current === "register" ? 8 : undefined}
            maxLength={128}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={current === "register" ? "auth-password-hint" : undefined}
            className={INPUT}
          />
          {current === "register" && (
            <p
              id="auth-password-hint"
              className={`mt-1 text-sm ${errors.password ? "text-red-700" : "text-gray-600"}`}
            >
              {errors.password ?? "Password must be at least 8 characters."}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          {current === "sign-in" ? "Sign In" : "Create Account"}
        </button>
        {current === "sign-in" && (
          <p className="text-center text-sm">
            <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
              Forgot your password?
            </Link>
          </p>
        )}
      </Form>
    </div>
  );
}
