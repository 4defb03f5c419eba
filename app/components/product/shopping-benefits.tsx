import { RotateCcw, ShieldCheck, Truck } from "lucide-react";
import { formatMoneyShort } from "../../lib/money.ts";
import { useShopSettings } from "../shop-settings.ts";

const benefits = (freeFrom: string | null) => [
  freeFrom
    ? { icon: Truck, title: "Free Delivery", text: `On orders over ${freeFrom}` }
    : { icon: Truck, title: "Tracked Delivery", text: "Every order ships with tracking" },
  { icon: RotateCcw, title: "30-day return policy", text: "Returns within 30 days for a full refund" },
  { icon: ShieldCheck, title: "Secure Checkout", text: "Encrypted payment; card numbers are never stored" },
];

/** The side panel: delivery, returns and checkout promises. */
export function ShoppingBenefits() {
  const shop = useShopSettings();
  return (
    <ul
      aria-label="Delivery, returns and payment"
      className="divide-y divide-gray-200 rounded-xl border border-gray-200"
    >
      {benefits(
        shop.terms.freeShippingThresholdCents === null
          ? null
          : formatMoneyShort(shop.terms.freeShippingThresholdCents, shop.currency),
      ).map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex items-start gap-3 p-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <div>
            <p className="font-semibold text-gray-900">{title}</p>
            <p className="text-sm text-gray-700">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
