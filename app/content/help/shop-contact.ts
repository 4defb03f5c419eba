import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../../root.tsx";

export interface ShopContactDetails {
  name: string;
  email: string;
  phone: string;
  address: string;
}

const FALLBACK: ShopContactDetails = { name: "Cartwheel", email: "", phone: "", address: "" };

/** The shop's name and contact details, as configured on the server (root loader). */
export function useShopContact(): ShopContactDetails {
  return useRouteLoaderData<typeof rootLoader>("root")?.contact ?? FALLBACK;
}

/** "+1 (555) 010-0199" → "tel:+15550100199" */
export const telHref = (phone: string) => `tel:${phone.replace(/[^+\d]/g, "")}`;
