import { data, redirect } from "react-router";
import { NameForm } from "../components/account/name-form.tsx";
import { servicesFrom } from "../context.ts";
import { changeName, SETTINGS_MESSAGES } from "../domain/accounts/account-settings.server.ts";
import { requireUser } from "../http/session.server.ts";
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
  const form = await request.formData().catch(() => new FormData());
  if (form.get("intent") !== "name") throw data(null, { status: 400 });
  const outcome = await changeName({ auth: servicesFrom(context).auth }, request, form);
  if (!outcome.ok) {
    const value = form.get("name");
    return data(
      {
        message: outcome.message,
        fieldErrors: outcome.fieldErrors,
        name: typeof value === "string" ? value.slice(0, 254) : "",
      },
      { status: outcome.status },
    );
  }
  const headers = await createToastHeaders({ type: "success", message: SETTINGS_MESSAGES.nameChanged });
  for (const cookie of outcome.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect("/account", { headers });
}

export default function AccountEditProfile({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="edit-profile-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="edit-profile-heading" className="text-xl font-bold">
        Edit Profile
      </h2>
      <NameForm
        action={PATH}
        name={actionData?.name ?? loaderData.name}
        error={actionData?.fieldErrors.name}
        message={actionData?.message}
      />
    </section>
  );
}
