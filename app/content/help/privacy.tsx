import { Link } from "react-router";
import { useShopSettings } from "../../components/shop-settings.ts";

export default function PrivacyContent() {
  const shop = useShopSettings();
  return (
    <>
      <p className="lead">
        We collect only what we need to run the shop and deliver your orders. We never sell your data, and we
        don't use advertising or analytics trackers.
      </p>

      <h2>Who is responsible for your data</h2>
      <p>
        {shop.shopName}, {shop.contactAddress}. For anything about your data, write to{" "}
        <a href={`mailto:${shop.contactEmail}`}>{shop.contactEmail}</a> or use our{" "}
        <Link to="/contact">contact form</Link>.
      </p>

      <h2>What we collect and why</h2>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Personal data we collect, and what we use it for</caption>
          <thead>
            <tr>
              <th scope="col">When you…</th>
              <th scope="col">We keep</th>
              <th scope="col">So that we can</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Place an order</th>
              <td>Your name, e-mail, phone number, delivery address and what you bought</td>
              <td>Deliver your order, send confirmations and handle returns</td>
            </tr>
            <tr>
              <th scope="row">Pay</th>
              <td>The card brand and last four digits only — never the full number or security code</td>
              <td>Show you which card you used and handle refunds</td>
            </tr>
            <tr>
              <th scope="row">Create an account</th>
              <td>Your name, e-mail, a securely hashed password, saved addresses and your wishlist</td>
              <td>Sign you in, speed up checkout and show your order history</td>
            </tr>
            <tr>
              <th scope="row">Write to us</th>
              <td>Your name, e-mail address, subject and message</td>
              <td>Answer you and follow up</td>
            </tr>
            <tr>
              <th scope="row">Subscribe to the newsletter</th>
              <td>Your e-mail address</td>
              <td>Send you our newsletter, until you ask us to stop</td>
            </tr>
            <tr>
              <th scope="row">Write a review</th>
              <td>Your name as shown on the review, your rating and text</td>
              <td>Publish your review on the product page</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        Our servers also keep short technical logs (which page was requested, when, and whether it worked) to
        keep the shop running and secure.
      </p>

      <h2>Who we share it with</h2>
      <p>
        Only those who help us serve you: the carrier delivering your parcel receives your name, address and
        phone number, and our payment provider processes your card. They may use your data only for that
        purpose. We never sell or rent your personal data.
      </p>

      <h2>How long we keep it</h2>
      <p>
        Order records are kept for as long as tax and accounting law requires. Messages are kept while we deal
        with your request. Your account data is kept until you ask us to delete your account, and your
        newsletter subscription until you unsubscribe.
      </p>

      <h2>Your rights</h2>
      <p>
        You can ask us for a copy of the data we hold about you, and ask us to correct or delete it, or to
        stop using it. Just <Link to="/contact">contact us</Link>; we reply within one business day.
      </p>

      <h2>Cookies</h2>
      <p>
        We use only the cookies the shop needs to work. Our <Link to="/help/cookies">Cookie Policy</Link>{" "}
        lists them.
      </p>

      <h2>Changes to this policy</h2>
      <p>If we change how we use your data, we update this page and the date at the top.</p>
    </>
  );
}
