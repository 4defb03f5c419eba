import { Link } from "react-router";

export default function CookiesContent() {
  return (
    <>
      <p className="lead">
        We use only strictly necessary cookies — the ones the shop cannot work without. No analytics, no
        advertising, no social-media trackers, and no third party sets cookies through our site.
      </p>

      <h2>The cookies we use</h2>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">The cookies this shop sets</caption>
          <thead>
            <tr>
              <th scope="col">Cookie</th>
              <th scope="col">What it does</th>
              <th scope="col">How long it lasts</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Cart</th>
              <td>Remembers the items in your cart while you shop, even without signing in.</td>
              <td>Kept between visits, so your cart is still there when you come back</td>
            </tr>
            <tr>
              <th scope="row">Session</th>
              <td>Keeps you signed in to your account. Only set when you sign in.</td>
              <td>Until you sign out or the session expires</td>
            </tr>
            <tr>
              <th scope="row">Messages</th>
              <td>
                Carries a one-off confirmation, such as “Thanks for your message!”, to the next page after you
                submit a form.
              </td>
              <td>Deleted as soon as the message has been shown</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        These cookies hold no information about you beyond what they need to do their job, are sent only to
        our own site and can't be read by scripts on the page.
      </p>

      <h2>Why there is no cookie banner</h2>
      <p>
        Strictly necessary cookies don't need your consent, and we don't use any other kind. If we ever want
        to, we will ask you first.
      </p>

      <h2>Managing cookies</h2>
      <p>
        You can delete or block cookies in your browser's settings. If you block ours, the shop can't keep
        your cart or keep you signed in.
      </p>

      <p>
        To learn how we handle personal data in general, read our{" "}
        <Link to="/help/privacy">Privacy Policy</Link>.
      </p>
    </>
  );
}
