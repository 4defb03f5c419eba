import { Link } from "react-router";
import { RETURN_WINDOW_DAYS } from "./pages.ts";

export default function ReturnsContent() {
  return (
    <>
      <p className="lead">
        Not quite right? Send it back within {RETURN_WINDOW_DAYS} days of delivery for a full refund. No
        awkward questions.
      </p>

      <h2>Our {RETURN_WINDOW_DAYS}-day promise</h2>
      <ul>
        <li>
          You can return any item within <strong>{RETURN_WINDOW_DAYS} days</strong> of the day it was
          delivered.
        </li>
        <li>You get a full refund of the price you paid for the returned item.</li>
        <li>
          Items should be unused and in their original condition and packaging, with any tags and accessories
          included.
        </li>
      </ul>

      <h2>How to return an item</h2>
      <ol>
        <li>
          Ask for the return online: signed in, open the order in{" "}
          <Link to="/account/orders">your orders</Link>; as a guest, find it with{" "}
          <Link to="/orders/track">Track your order</Link> (your order number and e-mail address). Choose the
          items and quantities and tell us why.
        </li>
        <li>We e-mail you a return number straight away, and check your request within 2 business days.</li>
        <li>
          Once it is approved, pack the items securely — the original box is ideal — with a note of the return
          number inside, and send them with a tracked service to the returns address in the e-mail.
        </li>
        <li>When they reach us we refund them and e-mail you.</li>
      </ol>

      <h2>Refunds</h2>
      <p>
        Refunds go back to the payment method you used, within 5 business days of your return reaching us.
        Your bank may take a few more days to show it on your statement.
      </p>
      <p>
        If an item arrives faulty or damaged, or we sent you the wrong thing, we also refund the shipping you
        paid and cover the cost of sending it back.
      </p>

      <h2>Exchanges</h2>
      <p>
        Need a different size or colour? The quickest way is to return the item for a refund and place a new
        order for the one you want, so it ships straight away instead of waiting for your return to arrive.
      </p>

      <p>
        Questions about a return? Take a look at the <Link to="/help/faq">FAQ</Link> or{" "}
        <Link to="/contact">get in touch</Link>.
      </p>
    </>
  );
}
