import { data, Form, Link } from "react-router";
import { AddressForm } from "../components/account/address-form.tsx";
import { getDb } from "../composition.server.ts";
import {
  ADDRESS_MESSAGES,
  type AddressDetails,
  addAddress,
  addressValues,
  deleteAddress,
  getAddress,
  listAddresses,
  setDefaultAddress,
  updateAddress,
  validateAddress,
} from "../domain/accounts/addresses.server.ts";
import { countryName } from "../domain/checkout/shipping-form.ts";
import { requireUser } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
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

const toId = (value: unknown) => (typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : 0);

function details(address: AddressDetails): AddressDetails {
  const { firstName, lastName, phone, address: line, city, state, zipCode, country } = address;
  return { firstName, lastName, phone, address: line, city, state, zipCode, country };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const db = await getDb();
  const edit = new URL(request.url).searchParams.get("edit");
  const editing = edit === null ? null : await getAddress(db, user.id, toId(edit));
  if (edit !== null && !editing) throw data(null, { status: 404 });
  const addresses = await listAddresses(db, user.id);
  return {
    addresses: addresses.map((a) => ({ id: a.id, isDefault: Number(a.isDefault) === 1, ...details(a) })),
    editing: editing && { id: editing.id, values: details(editing) },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const db = await getDb();
  const form = await request.formData().catch(() => new FormData());
  const intent = form.get("intent");
  const id = toId(form.get("addressId"));

  if (intent === "create" || intent === "update") {
    const checked = validateAddress(Object.fromEntries(form));
    if (!checked.ok) {
      return data(
        {
          intent,
          addressId: id,
          message: ADDRESS_MESSAGES.invalid,
          fieldErrors: checked.fieldErrors as Record<string, string>,
          values: addressValues(form),
        },
        { status: 400 },
      );
    }
    if (intent === "create") {
      await addAddress(db, user.id, checked.value);
      return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.added });
    }
    if (!(await updateAddress(db, user.id, id, checked.value))) throw data(null, { status: 404 });
    return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.updated });
  }
  if (intent === "delete") {
    if (!(await deleteAddress(db, user.id, id))) throw data(null, { status: 404 });
    return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.deleted });
  }
  if (intent === "set-default") {
    if (!(await setDefaultAddress(db, user.id, id))) throw data(null, { status: 404 });
    return redirectWithToast(PATH, { type: "success", message: ADDRESS_MESSAGES.defaultSet });
  }
  throw data(null, { status: 400 });
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
            values={refused?.intent === "update" ? refused.values : editing.values}
            fieldErrors={refused?.intent === "update" ? refused.fieldErrors : {}}
            message={refused?.intent === "update" ? refused.message : null}
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
            values={refused?.intent === "create" ? refused.values : {}}
            fieldErrors={refused?.intent === "create" ? refused.fieldErrors : {}}
            message={refused?.intent === "create" ? refused.message : null}
            submitLabel="Add Address"
          />
        </section>
      )}
    </div>
  );
}
