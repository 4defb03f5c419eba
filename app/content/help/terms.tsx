import { Link } from "react-router";
import { useShopSettings } from "../../components/shop-settings.ts";
import { CURRENCY_FORMATS } from "../../lib/money.ts";
import { RETURN_WINDOW_DAYS } from "./pages.ts";

export default function TermsContent() {
  const shop = useShopSettings();
  return (
    <>
      <p className="lead">
        These terms apply when you use the {shop.shopName} online shop and when you buy from us. Please read
        them before placing an order; by placing one, you agree to them.
      </p>

      <h2>1. Who we are</h2>
      <p>
        {shop.shopName} (“we”, “us”) runs this shop from {shop.contactAddress}. You can reach us through our{" "}
        <Link to="/contact">contact page</Link> or at{" "}
        <a href={`mailto:${shop.contactEmail}`}>{shop.contactEmail}</a>.
      </p>

      <h2>2. Your order</h2>
      <p>
        When you place an order we show a confirmation with your order number and e-mail it to you. The
        contract between us is made at that moment. If we can't supply an item — for example because it has
        just sold out, or its price was shown in error — we tell you straight away and refund anything you
        paid for it in full.
      </p>

      <h2>3. Prices and payment</h2>
      <ul>
        <li>
          Prices are in {CURRENCY_FORMATS[shop.currency].name.toLowerCase()}s ({shop.currency}).{" "}
          {shop.terms.taxIncluded
            ? "Prices include tax at the rate where your order goes; the tax is shown at checkout."
            : "Tax at the rate where your order goes is added at checkout."}
        </li>
        <li>Shipping costs are shown in your cart and at checkout, before you pay.</li>
        <li>Your card is charged when you place your order.</li>
        <li>
          Discount codes can't be exchanged for cash and apply only under the conditions stated with them.
        </li>
      </ul>

      <h2>4. Delivery</h2>
      <p>
        Delivery options, times and costs are described in{" "}
        <Link to="/help/shipping">Shipping Information</Link>. Delivery times are estimates; if your order is
        badly delayed you may cancel it for a full refund.
      </p>

      <h2>5. Returns and refunds</h2>
      <p>
        You may return items within {RETURN_WINDOW_DAYS} days of delivery for a full refund, as described in{" "}
        <Link to="/help/returns">Returns &amp; Exchanges</Link>. This does not affect your legal rights if an
        item is faulty or not as described.
      </p>

      <h2>6. Product information</h2>
      <p>
        We describe and photograph our products as accurately as we can, but colours on your screen may differ
        slightly from the real thing, and packaging may change. Stock levels shown are updated continuously
        but can change between adding an item to your cart and checking out.
      </p>

      <h2>7. Your account</h2>
      <p>
        Keep your password to yourself: you're responsible for what happens in your account. We may suspend
        accounts used for fraud or to harm the shop or other customers.
      </p>

      <h2>8. Reviews and messages</h2>
      <p>
        Reviews you post must be honest, about the product and free of unlawful or offensive content. By
        posting one you allow us to show it in our shop. We may remove reviews that break these rules.
      </p>

      <h2>9. Our liability</h2>
      <p>
        Nothing in these terms limits our liability where the law does not allow it to be limited. Otherwise,
        we are responsible only for losses that were foreseeable when you placed your order, up to the amount
        you paid for it.
      </p>

      <h2>10. Changes to these terms</h2>
      <p>
        We may update these terms from time to time. The version shown when you place an order is the one that
        applies to it.
      </p>

      <p>
        See also our <Link to="/help/privacy">Privacy Policy</Link> and{" "}
        <Link to="/help/cookies">Cookie Policy</Link>.
      </p>
    </>
  );
}
