import type { CarrierId } from "../../lib/carriers.ts";
import type { RETURN_REASONS } from "../../lib/return-reasons.ts";

/**
 * The demo history's people, words and plan (demo-history.ts writes it): who buys what and when,
 * and what becomes of each order — planned by a seeded random relative to `now`, so every start
 * plans the same 90 days. Pure: no database, no clock.
 */

const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The demo customers' password (local use only, README). */
export const DEMO_CUSTOMER_PASSWORD = "cartwheel-customer";

/** How far back the history goes. */
export const DEMO_HISTORY_DAYS = 90;

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: "US" | "CA" | "UK";
}

/** The demo customers (accounts), each joining some days before `now`. */
export const DEMO_CUSTOMERS: (Person & { joinedDaysAgo: number })[] = [
  {
    firstName: "Maya",
    lastName: "Chen",
    email: "maya.chen@example.com",
    phone: "+1 503 555 0142",
    address: "48 Alder Street",
    city: "Portland",
    state: "OR",
    zipCode: "97205",
    country: "US",
    joinedDaysAgo: 95,
  },
  {
    firstName: "Daniel",
    lastName: "Okafor",
    email: "daniel.okafor@example.com",
    phone: "+1 312 555 0187",
    address: "1220 West Fulton Market",
    city: "Chicago",
    state: "IL",
    zipCode: "60607",
    country: "US",
    joinedDaysAgo: 88,
  },
  {
    firstName: "Sofia",
    lastName: "Marquez",
    email: "sofia.marquez@example.com",
    phone: "+1 512 555 0123",
    address: "305 Congress Avenue, Apt 4B",
    city: "Austin",
    state: "TX",
    zipCode: "78701",
    country: "US",
    joinedDaysAgo: 74,
  },
  {
    firstName: "Liam",
    lastName: "Walsh",
    email: "liam.walsh@example.com",
    phone: "+1 416 555 0164",
    address: "77 Queen Street West",
    city: "Toronto",
    state: "ON",
    zipCode: "M5H 2M5",
    country: "CA",
    joinedDaysAgo: 61,
  },
  {
    firstName: "Priya",
    lastName: "Raman",
    email: "priya.raman@example.com",
    phone: "+1 206 555 0119",
    address: "901 Pike Street",
    city: "Seattle",
    state: "WA",
    zipCode: "98101",
    country: "US",
    joinedDaysAgo: 47,
  },
  {
    firstName: "Hannah",
    lastName: "Becker",
    email: "hannah.becker@example.com",
    phone: "+44 20 7946 0321",
    address: "14 Camden Passage",
    city: "London",
    state: "Greater London",
    zipCode: "N1 8ED",
    country: "UK",
    joinedDaysAgo: 33,
  },
  {
    firstName: "Marcus",
    lastName: "Reid",
    email: "marcus.reid@example.com",
    phone: "+1 617 555 0156",
    address: "22 Beacon Street",
    city: "Boston",
    state: "MA",
    zipCode: "02108",
    country: "US",
    joinedDaysAgo: 21,
  },
  {
    firstName: "Aiko",
    lastName: "Tanaka",
    email: "aiko.tanaka@example.com",
    phone: "+1 415 555 0108",
    address: "610 Valencia Street",
    city: "San Francisco",
    state: "CA",
    zipCode: "94110",
    country: "US",
    joinedDaysAgo: 9,
  },
];

/** Shoppers who check out as guests. */
const GUESTS: Person[] = [
  {
    firstName: "Robert",
    lastName: "Hughes",
    email: "rhughes@example.net",
    phone: "+1 303 555 0175",
    address: "1550 Larimer Street",
    city: "Denver",
    state: "CO",
    zipCode: "80202",
    country: "US",
  },
  {
    firstName: "Elena",
    lastName: "Rossi",
    email: "elena.rossi@example.net",
    phone: "+1 212 555 0139",
    address: "85 Mercer Street",
    city: "New York",
    state: "NY",
    zipCode: "10012",
    country: "US",
  },
  {
    firstName: "Tom",
    lastName: "Fletcher",
    email: "tom.fletcher@example.net",
    phone: "+1 615 555 0191",
    address: "410 Broadway",
    city: "Nashville",
    state: "TN",
    zipCode: "37203",
    country: "US",
  },
  {
    firstName: "Grace",
    lastName: "Kim",
    email: "grace.kim@example.net",
    phone: "+1 604 555 0147",
    address: "1088 Homer Street",
    city: "Vancouver",
    state: "BC",
    zipCode: "V6B 2W9",
    country: "CA",
  },
  {
    firstName: "Samuel",
    lastName: "Adeyemi",
    email: "s.adeyemi@example.net",
    phone: "+1 404 555 0112",
    address: "230 Peachtree Street NE",
    city: "Atlanta",
    state: "GA",
    zipCode: "30303",
    country: "US",
  },
  {
    firstName: "Olivia",
    lastName: "Brooks",
    email: "olivia.brooks@example.net",
    phone: "+1 612 555 0168",
    address: "700 Nicollet Mall",
    city: "Minneapolis",
    state: "MN",
    zipCode: "55402",
    country: "US",
  },
];

/** Test cards the gateway approves (README, "Trying the checkout locally"). */
const CARDS = [
  { number: "4242424242424242", cvv: "123" },
  { number: "5555555555554444", cvv: "321" },
  { number: "378282246310005", cvv: "4321" },
  { number: "6011111111111117", cvv: "456" },
];

const CARRIERS: { id: CarrierId; tracking: (r: Random) => string }[] = [
  { id: "ups", tracking: (r) => `1Z${r.chars("0123456789ABCDEFGHJKLMNPRSTUVWXY", 16)}` },
  { id: "usps", tracking: (r) => `9400${r.chars("0123456789", 18)}` },
  { id: "fedex", tracking: (r) => r.chars("0123456789", 12) },
  { id: "dhl", tracking: (r) => r.chars("0123456789", 10) },
];

/** What customers write: believable of anything the demo sells. */
const REVIEWS: { rating: 1 | 2 | 3 | 4 | 5; title: string; body: string }[] = [
  {
    rating: 5,
    title: "Exactly what I hoped for",
    body: "Arrived two days early and well packed. It looks even better than in the pictures and feels built to last.",
  },
  {
    rating: 5,
    title: "Second one I have bought",
    body: "Bought one for myself last month and liked it so much I ordered another as a present. No regrets.",
  },
  {
    rating: 4,
    title: "Very good, small niggles",
    body: "Does everything it says. The packaging could use less plastic, but the product itself is great value.",
  },
  {
    rating: 5,
    title: "Great quality for the price",
    body: "I compared a few options before buying and this one is clearly the best made. Delivery was quick too.",
  },
  {
    rating: 4,
    title: "Happy with it",
    body: "Took a day to get used to, now I use it every day. Customer service answered my question within hours.",
  },
  {
    rating: 3,
    title: "Fine, but not special",
    body: "It does the job. I expected a little more for the money, but nothing is wrong with it.",
  },
  {
    rating: 5,
    title: "Would recommend",
    body: "Well designed and easy to use from the first minute. Tracking updates were clear the whole way.",
  },
  {
    rating: 2,
    title: "Not for me",
    body: "The quality is fine, but it did not suit how I wanted to use it. Check the details before ordering.",
  },
];

const REFUND_REASONS = {
  partial: ["Arrived late: a goodwill refund", "Box damaged in transit", "Price matched after purchase"],
  full: ["Parcel lost in transit", "Arrived broken: refunded in full"],
};

export const REJECTION =
  "The items came back used. We can only accept unused items in their original packaging.";

/** A small seeded generator (mulberry32): the same plan on every start. Not for secrets. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, max: number): number {
    return Math.floor(this.between(min, max + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

interface CatalogueVariant {
  id: number;
  productId: number;
  /** what the shop holds now: the most units that may ever come back to it */
  stock: number;
}
export interface CatalogueProduct {
  id: number;
  createdAt: number;
  variants: CatalogueVariant[];
}

export type ReturnTarget = "requested" | "approved" | "rejected" | "received" | "refunded";
type ReturnReason = (typeof RETURN_REASONS)[number];

/** What becomes of an order after it is placed, with when. */
type Fate =
  | { kind: "declined" }
  | { kind: "paid" }
  | { kind: "cancelled"; at: number }
  | { kind: "shipped"; shipAt: number }
  | {
      kind: "delivered";
      shipAt: number;
      deliverAt: number;
      refund?: { at: number; full: boolean; reason: string };
      return?: { target: ReturnTarget; reason: ReturnReason; steps: number[] };
      review?: { at: number; text: (typeof REVIEWS)[number] };
    };

export interface PlannedOrder {
  index: number;
  at: number;
  customer: number | null;
  person: Person;
  method: "standard" | "express";
  coupon: boolean;
  card: (typeof CARDS)[number];
  carrier: (typeof CARRIERS)[number]["id"];
  tracking: string;
  lines: { productId: number; variantId: number; quantity: number }[];
  fate: Fate;
}

/**
 * Whether an order's units come back after being sold: all of a failed payment's or a
 * cancellation's, the first line's of a return that is received.
 */
const givesBack = (fate: Fate) =>
  fate.kind === "declined" ||
  fate.kind === "cancelled" ||
  (fate.kind === "delivered" && (fate.return?.target === "received" || fate.return?.target === "refunded"));
export const comesBack = (order: PlannedOrder, line: number) =>
  givesBack(order.fate) && (order.fate.kind !== "delivered" || line === 0);

/**
 * The history as data: when each customer joined, each order with its lines and fate. Pure and
 * deterministic for a catalogue and `now`.
 */
export function planDemoHistory(products: readonly CatalogueProduct[], now: number): PlannedOrder[] {
  const random = new Random(20_261_129);
  // more orders lately (a growing shop): the age's density falls from now to 90 days back;
  // three in the last day so today has some
  const ages = [
    ...Array.from({ length: 100 }, () => DEMO_HISTORY_DAYS * DAY * (1 - Math.sqrt(random.next()))),
    0.08 * DAY,
    0.35 * DAY,
    0.8 * DAY,
  ]
    .map((age) => Math.max(age, 0.05 * DAY))
    .sort((a, b) => b - a);
  const orders: PlannedOrder[] = ages.map((age, index) => {
    const at = Math.round(now - age);
    const joined = DEMO_CUSTOMERS.flatMap((c, i) => (now - c.joinedDaysAgo * DAY < at - HOUR ? [i] : []));
    const customer = joined.length > 0 && random.chance(0.65) ? random.pick(joined) : null;
    const method: PlannedOrder["method"] = random.chance(0.2) ? "express" : "standard";
    const shipAt = at + random.between(0.4, 1.4) * DAY;
    const deliverAt = shipAt + (method === "express" ? random.between(1, 2) : random.between(2, 5)) * DAY;
    const fate: Fate =
      shipAt > now - HOUR
        ? { kind: "paid" }
        : deliverAt > now - HOUR
          ? { kind: "shipped", shipAt }
          : { kind: "delivered", shipAt, deliverAt };
    const carrier = random.pick(CARRIERS);
    return {
      index,
      at,
      customer,
      person: customer === null ? random.pick(GUESTS) : DEMO_CUSTOMERS[customer]!,
      method,
      coupon: random.chance(0.12),
      card: random.pick(CARDS),
      carrier: carrier.id,
      tracking: carrier.tracking(random),
      lines: [],
      fate,
    };
  });

  // the states that need choosing: returns in each state, refunds, cancellations, failed payments
  const delivered = (order: PlannedOrder) =>
    order.fate.kind === "delivered" && !order.fate.refund && !order.fate.return ? order.fate : null;
  const targets: { target: ReturnTarget; reason: ReturnReason }[] = [
    { target: "refunded", reason: "Arrived damaged or faulty" },
    { target: "refunded", reason: "It doesn't fit" },
    { target: "received", reason: "Not as described" },
    { target: "approved", reason: "It doesn't fit" },
    { target: "rejected", reason: "Changed my mind" },
    { target: "requested", reason: "Wrong item sent" },
    { target: "requested", reason: "Changed my mind" },
  ];
  for (const { target, reason } of targets) {
    const chosen = random.shuffle(orders).find((order) => {
      const fate = delivered(order);
      return fate !== null && returnSteps(target, fate.deliverAt, now) !== null;
    });
    const fate = chosen && delivered(chosen);
    if (fate) fate.return = { target, reason, steps: returnSteps(target, fate.deliverAt, now)! };
  }
  for (const full of [true, true, false, false, false, false]) {
    const chosen = random.shuffle(orders).find((order) => delivered(order) !== null);
    const fate = chosen && delivered(chosen);
    if (!fate) continue;
    const at = Math.min(fate.deliverAt + random.between(1, 6) * DAY, now - HOUR);
    fate.refund = { at, full, reason: random.pick(full ? REFUND_REASONS.full : REFUND_REASONS.partial) };
  }
  const open = (order: PlannedOrder) =>
    (order.fate.kind === "delivered" && !order.fate.refund && !order.fate.return) ||
    (order.fate.kind === "shipped" && order.at < now - 2 * DAY);
  for (const order of random.shuffle(orders.filter(open)).slice(0, 5)) {
    order.fate = { kind: "cancelled", at: order.at + random.between(2, 16) * HOUR };
  }
  for (const order of random.shuffle(orders.filter((o) => open(o) || o.fate.kind === "paid")).slice(0, 6)) {
    // a card declined when charged; keep one placed order from the last day
    if (order.at < now - DAY) order.fate = { kind: "declined" };
  }

  // the lines: products on sale by then; what comes back only from variants with stock to spare
  const spare = new Map(products.flatMap((p) => p.variants.map((v) => [v.id, v.stock] as const)));
  for (const order of orders) {
    const onSale = products.filter((p) => p.createdAt < order.at - HOUR && p.variants.length > 0);
    const count = Math.min(onSale.length, random.chance(0.7) ? 1 : random.chance(0.8) ? 2 : 3);
    const back = givesBack(order.fate);
    for (const product of random.shuffle(onSale)) {
      if (order.lines.length >= count) break;
      const quantity = random.chance(0.8) ? 1 : 2;
      const variants = back ? product.variants.filter((v) => spare.get(v.id)! >= quantity) : product.variants;
      if (variants.length === 0) continue;
      const variant = random.pick(variants);
      if (back) spare.set(variant.id, spare.get(variant.id)! - quantity);
      order.lines.push({ productId: product.id, variantId: variant.id, quantity });
    }
    if (order.fate.kind === "delivered" && order.customer !== null && random.chance(0.45)) {
      const at = Math.min(order.fate.deliverAt + random.between(1, 6) * DAY, now - HOUR);
      order.fate.review = { at, text: random.pick(REVIEWS) };
    }
  }
  return orders.filter((order) => order.lines.length > 0);
}

/**
 * When a return of an order delivered at `deliveredAt` takes each step to end in `target` by now
 * (asked within the 30 days, approved or rejected a day later, received 3 days after that,
 * refunded the next day), or null when this order cannot get there.
 */
function returnSteps(target: ReturnTarget, deliveredAt: number, now: number): number[] | null {
  const last = now - 2 * HOUR;
  let asked: number;
  switch (target) {
    case "requested":
      // asked in the last day and a half: not looked at yet
      asked = now - 1.5 * DAY;
      break;
    case "approved":
      // approved, the parcel not back yet
      asked = now - 2.5 * DAY;
      break;
    case "received":
      asked = now - 5.5 * DAY;
      break;
    default:
      asked = deliveredAt + 2 * DAY;
  }
  if (asked < deliveredAt + DAY || asked > deliveredAt + 29 * DAY) return null;
  const steps = [asked];
  if (target !== "requested") steps.push(asked + DAY);
  if (target === "received" || target === "refunded") steps.push(asked + 4 * DAY);
  if (target === "refunded") steps.push(asked + 5 * DAY);
  return steps.at(-1)! <= last ? steps : null;
}
