import { data, Form } from "react-router";
import { z } from "zod";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { FilterSelect, ListFilters } from "../components/admin/list-filters.tsx";
import { servicesFrom } from "../context.ts";
import { listSearchMisses } from "../domain/catalog/search-misses.server.ts";
import {
  addSynonyms,
  listSynonyms,
  removeSynonyms,
  SYNONYM_MESSAGES,
} from "../domain/catalog/search-synonyms.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { SEARCH_MISS_PERIODS, type SearchMissPeriod } from "../lib/search-misses.ts";
import type { Route } from "./+types/admin.searches";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Searches that found nothing", "/admin/searches");

const DEFAULT_PERIOD: SearchMissPeriod = 30;

/** The period asked for (`days=7|30|90`); anything else is the default. */
function periodOf(searchParams: URLSearchParams): SearchMissPeriod {
  const days = Number(searchParams.get("days"));
  return (SEARCH_MISS_PERIODS as readonly number[]).includes(days)
    ? (days as SearchMissPeriod)
    : DEFAULT_PERIOD;
}

/** What shoppers searched for in vain over a period, most often first, and the synonyms (issue 33). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const days = periodOf(new URL(request.url).searchParams);
  const { db } = servicesFrom(context);
  const [misses, synonyms] = await Promise.all([listSearchMisses(db, { days }), listSynonyms(db)]);
  return { days, misses, synonyms };
}

const synonymActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add-synonyms"), words: z.string().max(2_000).default("") }),
  z.object({
    intent: z.literal("remove-synonyms"),
    id: z.coerce.number().int().positive().max(2_147_483_647),
  }),
]);

/** Synonyms added (refused beside the field) or removed; back to the page with a toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "products");
  const submission = await parseForm(request, synonymActionSchema);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [SYNONYM_MESSAGES.words] }) }, { status: 400 });
  }
  const { db } = servicesFrom(context);
  const actor = { id: staff.id, email: staff.email };
  const input = submission.value;
  // back to the page as it was (its period); never request.url, which is the .data fetch's with JavaScript
  const days = periodOf(new URL(request.url).searchParams);
  const back = days === DEFAULT_PERIOD ? "/admin/searches" : `/admin/searches?days=${days}`;
  if (input.intent === "add-synonyms") {
    const added = await addSynonyms(db, { text: input.words, actor });
    if (!added.ok) {
      const message = added.error.code === "too-many" ? SYNONYM_MESSAGES.tooMany : SYNONYM_MESSAGES.words;
      return data(
        { result: submission.reply({ formErrors: [message], fieldErrors: { words: [message] } }) },
        { status: 400 },
      );
    }
    return redirectWithToast(back, {
      type: "success",
      message: SYNONYM_MESSAGES.added(added.value.words),
    });
  }
  const removed = await removeSynonyms(db, { id: input.id, actor });
  return redirectWithToast(
    back,
    removed.ok
      ? { type: "success", message: SYNONYM_MESSAGES.removed }
      : { type: "error", message: SYNONYM_MESSAGES.notFound },
  );
}

export default function Searches({ loaderData, actionData }: Route.ComponentProps) {
  const { days, misses, synonyms } = loaderData;
  const wordsError = actionData?.result.error?.words?.[0];
  return (
    <section aria-labelledby="searches-heading">
      <h1 id="searches-heading" className="text-3xl font-bold">
        Searches that found nothing
      </h1>
      <p className="mt-1 text-gray-700">
        What shoppers searched for without finding a product, and how often — add the products, or make their
        words synonyms of words the shop uses.
      </p>
      <ListFilters action="/admin/searches" label="Period" submitLabel="Show">
        <FilterSelect
          id="searches-days"
          name="days"
          label="Period"
          value={String(days)}
          options={SEARCH_MISS_PERIODS.map((n) => ({ value: String(n), label: `Last ${n} days` }))}
        />
      </ListFilters>
      {misses.length === 0 ? (
        <p className="mt-6 text-gray-700">Every search in the last {days} days found something.</p>
      ) : (
        <ol
          className="mt-6 divide-y divide-gray-200"
          aria-label={`Searches that found nothing, last ${days} days`}
        >
          {misses.map((miss) => (
            <li
              key={miss.term}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3"
            >
              <span className="min-w-0 font-semibold break-words">“{miss.term}”</span>
              <span className="text-sm text-gray-700">
                {miss.count === 1 ? "once" : `${miss.count} times`}, last on{" "}
                <time dateTime={miss.lastDay}>{miss.lastDay}</time>
              </span>
            </li>
          ))}
        </ol>
      )}

      <section aria-labelledby="synonyms-heading" className="mt-10">
        <h2 id="synonyms-heading" className="text-xl font-bold">
          Synonyms
        </h2>
        <p className="mt-1 text-gray-700">
          A search for one of these words also finds what holds the others — at once, for every search.
        </p>
        <AdminMessage feedback={refusal(actionData?.result)} />
        <Form method="post" noValidate className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="add-synonyms" />
          <div className="min-w-0 max-w-full flex-1">
            <label htmlFor="synonym-words" className="block text-sm font-semibold">
              Words that mean the same
            </label>
            <input
              id="synonym-words"
              name="words"
              type="text"
              maxLength={2000}
              required
              aria-invalid={wordsError ? true : undefined}
              aria-describedby={wordsError ? "synonym-words-hint synonym-words-error" : "synonym-words-hint"}
              className="mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2"
            />
            <p id="synonym-words-hint" className="mt-1 text-sm text-gray-700">
              Separated by commas, e.g. tee, t-shirt.
            </p>
            {wordsError && (
              <p id="synonym-words-error" className="mt-1 text-sm font-medium text-red-700">
                {wordsError}
              </p>
            )}
          </div>
          <button
            type="submit"
            className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Add synonyms
          </button>
        </Form>
        {synonyms.length === 0 ? (
          <p className="mt-6 text-gray-700">No synonyms yet.</p>
        ) : (
          <ul className="mt-6 divide-y divide-gray-200" aria-label="Synonyms">
            {synonyms.map((group) => (
              <li key={group.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span className="min-w-0 break-words">{group.words.join(" · ")}</span>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-synonyms" />
                  <input type="hidden" name="id" value={group.id} />
                  <button
                    type="submit"
                    aria-label={`Remove synonyms ${group.words.join(", ")}`}
                    className="rounded-lg border border-gray-400 px-3 py-1.5 text-sm font-semibold hover:bg-gray-100"
                  >
                    Remove
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
