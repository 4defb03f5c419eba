import { data, redirect } from "react-router";
import { NameForm } from "../components/account/name-form.tsx";
import { servicesFrom } from "../context.ts";
import { changeName, nameSchema, SETTINGS_MESSAGES } from "../domain/accounts/account-settings.server.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
import { appendCookies, authSessionOf, requireUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.edit-profile";

const PATH = "/account/edit-profile";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Edit Profile",
      description: "Change the name on your account.",
      path: PATH,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { name: user.name };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(request, context);
  const submission = await parseForm(request, nameSchema);
  if (submission.payload.intent !== "name") throw data(null, { status: 400 });
  if (submission.status !== "success") {
    return data(
      { result: refusedReply(submission, { formErrors: [SETTINGS_MESSAGES.invalid] }) },
      { status: 400 },
    );
  }
  const { sessionCookies } = await changeName(
    { auth: servicesFrom(context).auth },
    authSessionOf(request),
    submission.value,
  );
  const headers = await createToastHeaders({ type: "success", message: SETTINGS_MESSAGES.nameChanged });
  return redirect("/account", { headers: appendCookies(headers, sessionCookies) });
}

export default function AccountEditProfile({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="edit-profile-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="edit-profile-heading" className="text-xl font-bold">
        Edit Profile
      </h2>
      <NameForm action={PATH} name={loaderData.name} result={actionData?.result} />
    </section>
  );
}
