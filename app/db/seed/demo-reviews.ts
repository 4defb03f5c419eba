import type { Database } from "../database.server.ts";
import { DEMO_MORE_CATEGORY_REVIEWS } from "./demo-more-categories.ts";
import type { DemoReview } from "./demo-product.ts";

export type { DemoReview } from "./demo-product.ts";

const DAY_MS = 86_400_000;

/**
 * A few written reviews per demo product (by slug). The product's own rating and review count
 * stay as seeded: they stand for all historical reviews, of which these are the latest.
 */
export const DEMO_REVIEWS: Record<string, DemoReview[]> = {
  "kestrel-x12-smartphone": [
    {
      authorName: "Priya S.",
      rating: 5,
      title: "Two days on a charge, really",
      body: "I was sceptical about the battery claim, but with normal use (maps, messages, a bit of video) I end the second day at around 15%. The 120 Hz screen is lovely and bright outdoors.",
      daysAgo: 4,
    },
    {
      authorName: "Marcus W.",
      rating: 4,
      title: "Great camera, slightly heavy",
      body: "Photos in daylight are excellent and the telephoto is genuinely useful. Night shots are good but not class-leading. It is a bit heavier than my old phone; a case makes it chunky.",
      daysAgo: 11,
    },
    {
      authorName: "Elena R.",
      rating: 5,
      title: "Smooth switch from my old phone",
      body: "Setup moved everything across in about twenty minutes. Fast, no lag at all, and the aluminium frame feels solid.",
      daysAgo: 23,
    },
    {
      authorName: "Tom H.",
      rating: 3,
      title: "Good phone, no charger in the box",
      body: "The phone itself is very good. Knocking off a star because there is only a cable in the box, so budget for a fast charger.",
      daysAgo: 37,
    },
  ],
  "lumen-book-pro-14": [
    {
      authorName: "Daniel K.",
      rating: 5,
      title: "Compiles my projects in half the time",
      body: "Replaced a three-year-old laptop and builds that took four minutes now take under two. It stays quiet under load and the 3K screen is sharp and colour accurate.",
      daysAgo: 2,
    },
    {
      authorName: "Sofia M.",
      rating: 5,
      title: "Perfect for photo editing",
      body: "The DCI-P3 display makes a real difference when editing. Light enough to carry every day, and the battery gets me through a full workday.",
      daysAgo: 3,
    },
    {
      authorName: "James O.",
      rating: 4,
      title: "Excellent, but only two USB-C ports",
      body: "Performance and build quality are top notch. I would have liked one more port; I carry a small hub now.",
      daysAgo: 5,
    },
  ],
  "aurora-anc-headphones": [
    {
      authorName: "Hannah L.",
      rating: 5,
      title: "My commute is finally quiet",
      body: "The noise cancelling takes the train rumble away almost completely. Comfortable for hours, and switching between laptop and phone just works.",
      daysAgo: 6,
    },
    {
      authorName: "Oliver B.",
      rating: 4,
      title: "Great sound, snug fit",
      body: "Warm, detailed sound and the battery seems endless. They clamp a little tightly at first but loosened up after a week.",
      daysAgo: 19,
    },
    {
      authorName: "Aisha N.",
      rating: 5,
      title: "Worth every penny",
      body: "I fly a lot for work and these are the best travel headphones I have owned. They fold flat into the case and fit in my backpack easily.",
      daysAgo: 42,
    },
    {
      authorName: "Lukas P.",
      rating: 4,
      title: "Good app, calls could be clearer",
      body: "Music and noise cancelling are excellent. People say my voice sounds a little distant on calls in windy weather.",
      daysAgo: 88,
    },
  ],
  "veltro-classic-leather-watch": [
    {
      authorName: "Charlotte D.",
      rating: 5,
      title: "Bought it as a gift, he loves it",
      body: "Beautifully finished, the leather strap smells and feels great, and the box makes it a proper present. Keeps time within a few seconds a day.",
      daysAgo: 1,
    },
    {
      authorName: "Ben T.",
      rating: 4,
      title: "Classic look, strap needs breaking in",
      body: "The dial is clean and easy to read and the sapphire crystal has no scratches so far. The strap was stiff for the first few days.",
      daysAgo: 2,
    },
  ],
  "nordhaus-oak-lounge-chair": [
    {
      authorName: "Ingrid F.",
      rating: 5,
      title: "The most comfortable chair we own",
      body: "It arrived fully assembled and well packed. The paper-cord seat is surprisingly comfortable and the oak has a lovely grain.",
      daysAgo: 8,
    },
    {
      authorName: "Paul G.",
      rating: 5,
      title: "Solid and beautifully made",
      body: "You can feel the quality. It is lower than a dining chair, which is exactly what we wanted for reading by the window.",
      daysAgo: 21,
    },
    {
      authorName: "Maya C.",
      rating: 4,
      title: "Lovely, delivery took a while",
      body: "Made to order, so it took about three weeks to arrive, but it was worth the wait. A cushion makes long sessions even better.",
      daysAgo: 33,
    },
  ],
  "nordhaus-pro-stand-mixer": [
    {
      authorName: "Rosa V.",
      rating: 5,
      title: "Handles heavy bread dough with ease",
      body: "I bake twice a week and this mixer kneads a double batch of dough without straining or walking across the counter.",
      daysAgo: 14,
    },
    {
      authorName: "George A.",
      rating: 4,
      title: "Powerful but loud on top speed",
      body: "Whips cream in no time and the bowl is a good size. It is quite loud on the highest speeds, otherwise no complaints.",
      daysAgo: 52,
    },
    {
      authorName: "Nina J.",
      rating: 4,
      title: "Great mixer, wish it came in more colours",
      body: "Sturdy, easy to clean and the attachments click in firmly. Planning to buy the pasta attachment next.",
      daysAgo: 130,
    },
  ],
  "kestrel-home-security-camera": [
    {
      authorName: "Chris E.",
      rating: 4,
      title: "Clear picture, easy setup",
      body: "Took ten minutes to set up on the porch. Night vision in colour is impressive and person detection has cut down false alerts from passing cars.",
      daysAgo: 3,
    },
    {
      authorName: "Fatima Z.",
      rating: 5,
      title: "No subscription is the big win",
      body: "Recording to the microSD card works reliably and I do not have to pay monthly. The 2K image lets me read number plates on the drive.",
      daysAgo: 6,
    },
    {
      authorName: "Robert M.",
      rating: 3,
      title: "Good camera, app could be better",
      body: "The hardware is good. The app sometimes takes a few seconds to load the live view on mobile data.",
      daysAgo: 9,
    },
  ],
  "loomwell-organic-cotton-t-shirt": [
    {
      authorName: "Tom B.",
      rating: 5,
      title: "Finally a T-shirt that keeps its shape",
      body: "Thick, soft cotton that did not twist or shrink after ten washes. I ordered my usual M and the relaxed fit is exactly as described. Bought the navy one next.",
      daysAgo: 2,
    },
    {
      authorName: "Ines K.",
      rating: 4,
      title: "Lovely fabric, white is a little sheer",
      body: "The black is perfect. The white is heavier than most but still slightly see-through in bright light. Sizing is true.",
      daysAgo: 3,
    },
  ],
  "stride-runner-sneakers": [
    {
      authorName: "Daniel O.",
      rating: 5,
      title: "Light and comfortable from day one",
      body: "No break-in needed. I run 5 km three times a week and walk the city in them at weekends; the cushioning is soft without feeling wobbly. EU 42 fits like my other 42s.",
      daysAgo: 6,
    },
    {
      authorName: "Mei L.",
      rating: 4,
      title: "Great everyday shoe",
      body: "Breathable and grippy on wet pavement. The white picks up dirt quickly, but the knit cleans up well by hand.",
      daysAgo: 15,
    },
  ],
  "solace-radiance-skincare-set": [
    {
      authorName: "Leah W.",
      rating: 5,
      title: "Gentle enough for my sensitive skin",
      body: "No redness or stinging, which is rare for me with vitamin C. My skin looks brighter after a few uses.",
      daysAgo: 0.3,
    },
    {
      authorName: "Amelia K.",
      rating: 4,
      title: "Lovely routine, small serum bottle",
      body: "All three products feel lovely and have no fragrance. The serum will run out before the cream does.",
      daysAgo: 0.6,
    },
  ],
  ...DEMO_MORE_CATEGORY_REVIEWS,
};

/**
 * Seeds the written demo reviews. Idempotent: a product gets them only while it has no review at
 * all, and a missing product (deleted by an admin) is skipped.
 */
export async function seedDemoReviews(db: Database, now: Date = new Date()): Promise<{ created: number }> {
  let created = 0;
  for (const [slug, reviews] of Object.entries(DEMO_REVIEWS)) {
    const product = await db.selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!product) continue;
    const existing = await db
      .selectFrom("reviews")
      .select("id")
      .where("productId", "=", product.id)
      .limit(1)
      .executeTakeFirst();
    if (existing) continue;
    await db
      .insertInto("reviews")
      .values(
        reviews.map((review) => {
          const createdAt = new Date(now.getTime() - Math.round(review.daysAgo * DAY_MS)).toISOString();
          return {
            productId: product.id,
            userId: null,
            authorName: review.authorName,
            rating: review.rating,
            title: review.title,
            body: review.body,
            createdAt,
            updatedAt: createdAt,
          };
        }),
      )
      .execute();
    created += reviews.length;
  }
  return { created };
}
