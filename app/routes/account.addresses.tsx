import { data, Form, Link } from "react-router";
import { AddressForm } from "../components/account/address-form.tsx";
import { servicesFrom } from "../context.ts";
import {
  ADDRESS_MESSAGES,
  type AddressDetails,
  addAddress,
  addressActionSchema,
  deleteAddress,
  getAddress,
  listAddresses,
  setDefaultAddress,
  toAddressId,
  updateAddress,
} from "../domain/accounts/addresses.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requireUser } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { countryName } from "../lib/countries.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.addresses";

const PATH = "/account/addresses";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Addresses",
      description: "Your saved delivery addresses.",
      path: PATH,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

function details(address: AddressDetails): AddressDetails {
  const { firstName, lastName, phone, address: line, city, state, zipCode, country } = address;
  return { firstName, lastName, phone, address: line, city, state, zipCode, country };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const { db } = servicesFrom(context);
  const edit = new URL(request.url).searchParams.get("edit");
  const editing = edit === null ? null : await getAddress(db, user.id, toAddressId(edit));
  if (edit !== null && !editing) throw data(null, { status: 404 });
  const addresses = await listAddresses(db, user.id);
  return {
    addresses: addresses.map((a) => ({ id: a.id, isDefault: Number(a.isDefault) === 1, ...details(a) })),
    editing: editing && { id: editing.id, values: details(editing) },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const { db } = servicesFrom(context);
  const submission = await parseForm(request, addressActionSchema);
  if (submission.status !== "success") {
    const intent = submission.payload.intent;
    if (intent !== "create" && intent !== "update") throw data(null, { status: 400 });
    return data(
      {
        intent,
        addressId: toAddressId(submission.payload.addressId),
        result: submission.reply({ formErrors: [ADDRESS_MESSAGES.invalid] }),
      },
      { status: 400 },
    );
  }
  const input = submission.value;
  switch (input.intent) {
    case "create": {
      const { intent: _intent, ...details } = input;
      await addAddress(db, user.id, details);
      return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.added });
    }
    case "update": {
      const { intent: _intent, addressId: id, ...details } = input;
      if (!(await updateAddress(db, user.id, id, details))) throw data(null, { status: 404 });
      return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.updated });
    }
    case "delete":
      if (!(await deleteAddress(db, user.id, input.addressId))) throw data(null, { status: 404 });
      return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.deleted });
    case "set-default":
      if (!(await setDefaultAddress(db, user.id, input.addressId))) throw data(null, { status: 404 });
      return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.defaultSet });
  }
}

export default function AccountAddresses({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, editing } = loaderData;
  const refused = actionData ?? null;
  const editFormAction = editing ? `${PATH}?edit=${editing.id}` : PATH;
  return (
    <div className="space-y-6">
      <section aria-labelledby="addresses-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="addresses-heading" className="text-xl font-bold">
          Addresses
        </h2>
        {addresses.length === 0 ? (
          <p className="mt-3 text-gray-700">You have no saved addresses yet. Add one below.</p>
        ) : (
          <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
            {addresses.map((address) => {
              const label = `${address.firstName} ${address.lastName}, ${address.address}`;
              return (
                <li key={address.id} className="rounded-lg border border-gray-200 p-4 text-sm">
                  {address.isDefault && (
                    <p className="mb-2 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
                      Default
                    </p>
                  )}
                  <address className="not-italic">
                    {address.firstName} {address.lastName}
                    <br />
                    {address.address}
                    <br />
                    {address.city}, {address.state} {address.zipCode}
                    <br />
                    {countryName(address.country)}
                    <br />
                    {address.phone}
                  </address>
                  <div className="mt-3 flex flex-wrap items-center gap-3">
                    <Link
                      to={`${PATH}?edit=${address.id}`}
                      aria-label={`Edit: ${label}`}
                      className="font-semibold text-brand-700 hover:underline"
                    >
                      Edit
                    </Link>
                    {!address.isDefault && (
                      <Form method="post" action={PATH}>
                        <input type="hidden" name="intent" value="set-default" />
                        <input type="hidden" name="addressId" value={address.id} />
                        <button
                          type="submit"
                          aria-label={`Set as default: ${label}`}
                          className="font-semibold text-brand-700 hover:underline"
                        >
                          Set as default
                        </button>
                      </Form>
                    )}
                    <Form method="post" action={PATH}>
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="addressId" value={address.id} />
                      <button
                        type="submit"
                        aria-label={`Delete: ${label}`}
                        className="font-semibold text-red-700 hover:underline"
                      >
                        Delete
                      </button>
                    </Form>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {editing ? (
        <section aria-labelledby="edit-address-heading" className="rounded-xl border border-gray-200 p-6">
          <h2 id="edit-address-heading" className="text-xl font-bold">
            Edit Address
          </h2>
          <AddressForm
            idPrefix="edit-address"
            action={editFormAction}
            intent="update"
            addressId={editing.id}
            values={editing.values}
            lastResult={refused?.intent === "update" ? refused.result : undefined}
            submitLabel="Save Address"
            cancelTo={PATH}
          />
        </section>
      ) : (
        <section aria-labelledby="add-address-heading" className="rounded-xl border border-gray-200 p-6">
          <h2 id="add-address-heading" className="text-xl font-bold">
            Add a New Address
          </h2>
          <AddressForm
            idPrefix="new-address"
            action={PATH}
            intent="create"
            values={{}}
            lastResult={refused?.intent === "create" ? refused.result : undefined}
            submitLabel="Add Address"
          />
        </section>
      )}
    </div>
  );
}
