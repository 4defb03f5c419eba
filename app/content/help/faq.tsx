import type { ReactNode } from "react";
import { Link } from "react-router";
import { useMoney, useShopSettings } from "../../components/shop-settings.ts";
import { deliveryTimesSentence, methodCostSentence, taxSentence } from "../../lib/shipping-terms-text.ts";
import type { Storefront } from "../../lib/shop-settings.ts";
import { RETURN_WINDOW_DAYS } from "./pages.ts";

interface Question {
  q: string;
  a: ReactNode;
}

/** The questions, with the shop's own fees, delivery days and tax rate in the answers. */
const sections = (
  shop: Storefront,
  money: (cents: number) => string,
): Array<{ title: string; questions: Question[] }> => {
  const { methods } = shop.terms;
  return [
    {
      title: "Ordering",
      questions: [
        {
          q: "Do I need an account to place an order?",
          a: (
            <p>
              No. You can check out as a guest with just your e-mail address and delivery details. With an{" "}
              <Link to="/account">account</Link> you can also see your order history, save addresses for next
              time and keep a wishlist.
            </p>
          ),
        },
        {
          q: "How do I know my order went through?",
          a: (
            <p>
              Right after you place your order you see a confirmation page with your order number and
              estimated delivery date, and we send the same details to your e-mail address.
            </p>
          ),
        },
        {
          q: "Can I change or cancel my order?",
          a: (
            <p>
              Yes, as long as it hasn't shipped yet. <Link to="/contact">Contact us</Link> as soon as possible
              with your order number. Once an order is on its way, you can return it instead.
            </p>
          ),
        },
      ],
    },
    {
      title: "Shipping and delivery",
      questions: [
        {
          q: "How much does shipping cost?",
          a: (
            <p>
              {methods.map((method) => methodCostSentence(method, money)).join(" ")} The checkout shows the
              methods and prices for your address.
            </p>
          ),
        },
        {
          q: "How long will delivery take?",
          a: (
            <p>
              {deliveryTimesSentence(methods)} See <Link to="/help/shipping">Shipping Information</Link> for
              the details.
            </p>
          ),
        },
        {
          q: "How do I track my order?",
          a: (
            <p>
              Go to <Link to="/orders/track">Track Your Order</Link> and enter your order number with the
              e-mail address you used at checkout.
            </p>
          ),
        },
      ],
    },
    {
      title: "Returns and refunds",
      questions: [
        {
          q: "What is your return policy?",
          a: (
            <p>
              You can return any item within {RETURN_WINDOW_DAYS} days of delivery for a full refund. Read{" "}
              <Link to="/help/returns">Returns &amp; Exchanges</Link> to see how.
            </p>
          ),
        },
        {
          q: "When will I get my refund?",
          a: (
            <p>
              Within 5 business days of your return reaching us, to the payment method you used. Your bank may
              take a few more days to show it.
            </p>
          ),
        },
      ],
    },
    {
      title: "Payment",
      questions: [
        {
          q: "Which payment methods do you accept?",
          a: <p>We accept Visa, MasterCard and American Express credit and debit cards.</p>,
        },
        {
          q: "Is tax included in the price?",
          a: (
            <p>
              {taxSentence(shop.terms)} The rate depends on where your order goes: the checkout uses your
              address's.
            </p>
          ),
        },
        {
          q: "Is it safe to pay on your site?",
          a: (
            <p>
              Yes. The whole shop is served over an encrypted connection, and we never store your full card
              number or security code — only the card brand and last four digits, so you can recognise the
              card later.
            </p>
          ),
        },
      ],
    },
    {
      title: "Your account and privacy",
      questions: [
        {
          q: "I forgot my password. What do I do?",
          a: (
            <p>
              On the <Link to="/account">sign-in page</Link>, choose “Forgot password?” and we'll e-mail you a
              link to set a new one.
            </p>
          ),
        },
        {
          q: "How do I unsubscribe from the newsletter?",
          a: (
            <p>
              <Link to="/contact">Send us a message</Link> from the address you subscribed with and we'll
              remove it from our list straight away.
            </p>
          ),
        },
        {
          q: "What do you do with my data?",
          a: (
            <p>
              Only what's needed to run the shop and deliver your orders — we never sell it, and we use no
              advertising or analytics trackers. Our <Link to="/help/privacy">Privacy Policy</Link> and{" "}
              <Link to="/help/cookies">Cookie Policy</Link> explain everything.
            </p>
          ),
        },
      ],
    },
  ];
};

export default function FaqContent() {
  const shop = useShopSettings();
  const money = useMoney();
  return (
    <>
      <p className="lead">
        Quick answers to the questions we hear most. Can't find yours? <Link to="/contact">Ask us</Link> — we
        reply within one business day.
      </p>
      {sections(shop, money).map((section) => (
        <section key={section.title} aria-labelledby={`faq-${slug(section.title)}`}>
          <h2 id={`faq-${slug(section.title)}`}>{section.title}</h2>
          <div className="not-prose divide-y divide-gray-200 rounded-xl border border-gray-200">
            {section.questions.map(({ q, a }) => (
              <details key={q} className="group">
                <summary className="flex items-center justify-between gap-4 px-5 py-4 font-semibold hover:bg-gray-50">
                  {q}
                  <span
                    aria-hidden="true"
                    className="text-xl leading-none text-brand-700 transition group-open:rotate-45"
                  >
                    +
                  </span>
                </summary>
                <div className="px-5 pb-5 text-gray-700 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline">
                  {a}
                </div>
              </details>
            ))}
          </div>
        </section>
      ))}
    </>
  );
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, "-");
