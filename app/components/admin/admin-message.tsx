import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { useToast } from "../toasts.tsx";

export interface AdminFeedback {
  message: string;
  type: "error" | "success";
  details?: string[];
}

/**
 * A refused form's message for AdminMessage: the form's own error (`formErrors` of the route's
 * `submission.reply`), else null. `details` lists what the message sums up (CSV problems, files).
 * The same result gives the same feedback object on every render, so it is toasted once (a new
 * answer, even with the same words, is a new result and toasts again).
 */
export function refusal(result: SubmissionResult | undefined, details?: string[]): AdminFeedback | null {
  const message = result?.error?.[""]?.[0];
  if (!result || !message) return null;
  let feedback = shown.get(result);
  if (!feedback) {
    feedback = { type: "error", message, ...(details ? { details } : {}) };
    shown.set(result, feedback);
  }
  return feedback;
}
const shown = new WeakMap<SubmissionResult, AdminFeedback>();

/** An action's outcome shown beside the form (works without JavaScript) and as a toast. */
export function AdminMessage({ feedback, id }: { feedback: AdminFeedback | null | undefined; id?: string }) {
  const { showToast } = useToast();
  const toasted = useRef<AdminFeedback | null>(null);
  useEffect(() => {
    if (feedback && toasted.current !== feedback) {
      toasted.current = feedback;
      showToast(feedback.message, feedback.type);
    }
  }, [feedback, showToast]);
  if (!feedback) return null;
  const error = feedback.type === "error";
  return (
    <div
      id={id}
      role={error ? "alert" : "status"}
      className={`rounded-lg border p-3 text-sm font-medium ${
        error ? "border-red-300 bg-red-50 text-red-800" : "border-green-300 bg-green-50 text-green-900"
      }`}
    >
      <p>{feedback.message}</p>
      {feedback.details && feedback.details.length > 0 && (
        <ul className="mt-1 list-disc pl-5 font-normal">
          {feedback.details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
