import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { salePrice } from "../../lib/promotions/catalogue-sale.ts";
import type { Promotion } from "../../lib/promotions/engine.ts";
import { regularCeiling } from "./listing-sale.server.ts";

const NOW = new Date("2026-12-01T12:00:00Z");

describe("the regular-price ceiling of a sale price bound", () => {
  it("holds every product whose sale price is within the bound (any stack, any price)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.record({ bp: fc.integer({ min: 1, max: 9_999 }), combines: fc.boolean() }), {
          minLength: 1,
          maxLength: 5,
        }),
        (priceCents, specs) => {
          const sale: Promotion[] = specs.map((s, i) => ({
            id: i + 1,
            name: `P${i}`,
            code: null,
            conditions: [],
            action: { type: "items-percent", target: {}, basisPoints: s.bp, apply: "all" },
            startsAt: null,
            endsAt: null,
            priority: 0,
            combines: s.combines,
            campaignId: null,
          }));
          const paid =
            salePrice(sale, { productId: 1, category: "c", brand: "b", priceCents }, NOW)?.priceCents ??
            priceCents;
          expect(paid).toBeLessThanOrEqual(priceCents);
          expect(priceCents).toBeLessThanOrEqual(regularCeiling(sale, paid)!);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
