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
          <Link to="/contact?subject=Return">Send us a message</Link> with the subject “Return”, your order
          number and the items you'd like to return.
        </li>
        <li>We reply within one business day with your return instructions and the address to send it to.</li>
        <li>Pack the item securely — the original box is ideal — and send it with a tracked service.</li>
        <li>We e-mail you as soon as your refund has been issued.</li>
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
