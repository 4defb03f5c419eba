import { Link } from "react-router";
import { useMoney, useShopSettings } from "../../components/shop-settings.ts";
import { CURRENCY_FORMATS } from "../../lib/money.ts";
import { shippingMethod } from "../../lib/pricing.ts";

export default function ShippingContent() {
  const shop = useShopSettings();
  const money = useMoney();
  const threshold = money(shop.freeShippingThresholdCents);
  const standardFee = money(shop.standardShippingCents);
  const expressFee = money(shop.expressShippingCents);
  const standard = shippingMethod(shop, "standard");
  const express = shippingMethod(shop, "express");
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
            <tr data-testid="shipping-standard">
              <th scope="row">{standard.label}</th>
              <td>{standard.days}</td>
              <td>
                <strong>Free</strong> on orders of {threshold} or more, otherwise {standardFee}
              </td>
            </tr>
            <tr data-testid="shipping-express">
              <th scope="row">{express.label}</th>
              <td>{express.days}</td>
              <td>{expressFee} flat rate</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        Business days are Monday to Friday, excluding public holidays. Your estimated delivery date is shown
        at checkout and again on your order confirmation.
      </p>

      <h2>How free shipping works</h2>
      <p>
        Standard shipping is free when the items in your cart add up to {threshold} or more before tax. Below
        that, standard shipping costs {standardFee}. Express shipping costs {expressFee} whatever the size of
        your order.
      </p>

      <h2>Where we deliver</h2>
      <p>
        We currently deliver to the United States, Canada, the United Kingdom, Australia, Germany and France.
        Prices are shown and charged in {CURRENCY_FORMATS[shop.currency].name.toLowerCase()}s ({shop.currency}
        ).
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
