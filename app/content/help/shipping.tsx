import { Link } from "react-router";
import { useMoney, useShopSettings } from "../../components/shop-settings.ts";
import { CURRENCY_FORMATS } from "../../lib/money.ts";
import { methodCostCell, methodCostSentence } from "../../lib/shipping-terms-text.ts";

export default function ShippingContent() {
  const shop = useShopSettings();
  const money = useMoney();
  const { methods, freeShippingThresholdCents } = shop.terms;
  const places = listOf(shop.countries.map((country) => country.name));
  return (
    <>
      <p className="lead">
        Every order ships with tracking. Choose the speed that suits you at checkout — the shipping cost is
        always shown before you pay.
      </p>

      <h2>Delivery options</h2>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Shipping methods, delivery times and costs</caption>
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Delivery time</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {methods.map((method) => (
              <tr key={method.code} data-testid={`shipping-${method.code}`}>
                <th scope="row">{method.name}</th>
                <td>{method.days}</td>
                <td>{methodCostCell(method, money)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Business days are Monday to Friday, excluding public holidays. Your estimated delivery date is shown
        at checkout and again on your order confirmation. Where you live may change the methods and their
        prices: the checkout shows those for your address.
      </p>

      {freeShippingThresholdCents !== null && (
        <>
          <h2>How free shipping works</h2>
          <p>
            {methods
              .filter((method) => method.freeOverCents !== null)
              .map(
                (method) =>
                  `${method.name} is free when the items in your cart add up to ${money(method.freeOverCents ?? 0)} or more before tax.`,
              )
              .join(" ")}{" "}
            {methods.map((method) => methodCostSentence(method, money)).join(" ")}
          </p>
        </>
      )}

      <h2>Where we deliver</h2>
      <p>
        We currently deliver to {places}. Prices are shown and charged in{" "}
        {CURRENCY_FORMATS[shop.currency].name.toLowerCase()}s ({shop.currency}).
      </p>

      <h2>Tracking your order</h2>
      <p>
        As soon as your order leaves our warehouse you can follow it on{" "}
        <Link to="/orders/track">Track Your Order</Link> with your order number and the e-mail address you
        used at checkout.
      </p>

      <h2>Late, damaged or missing parcels</h2>
      <p>
        If your parcel hasn't arrived by the end of its delivery window, or arrives damaged,{" "}
        <Link to="/contact">contact us</Link> with your order number and we'll put it right — with a
        replacement or a full refund. Anything you'd simply like to send back is covered by our{" "}
        <Link to="/help/returns">returns policy</Link>.
      </p>
    </>
  );
}

/** "the United States, Canada and France" (a name that is a republic or a union gets "the"). */
function listOf(names: readonly string[]): string {
  const withArticle = names.map((name) =>
    /^(United|Netherlands|Philippines|Czech|Dominican)/.test(name) ? `the ${name}` : name,
  );
  if (withArticle.length <= 1) return withArticle.join("");
  return `${withArticle.slice(0, -1).join(", ")} and ${withArticle.at(-1)}`;
}
