import { describe, expect, it } from "vitest";
import { parseProductFields } from "../../../http/product-upload.server.ts";
import { productFormSchema } from "./product-form.server.ts";
import { slugify } from "./product-form.ts";

/** The product form read as its routes read it (Conform with the form's schema). */
function parseProductForm(data: FormData, { withStock = true } = {}) {
  const submission = parseProductFields(data, productFormSchema({ withStock }));
  if (submission.status === "success") return { ok: true as const, value: submission.value };
  const { "": form, ...fieldErrors } = submission.error ?? {};
  return { ok: false as const, message: form?.[0], fieldErrors };
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  }
  return data;
}

const VALID = {
  name: "Desk Lamp",
  description: "Warm light.",
  price: "19.99",
  category: "home",
  brand: "Lumo",
  stock: "0",
};

describe("productFormSchema", () => {
  it("names every missing required field in the spec's message, in form order", () => {
    const result = parseProductForm(form({ description: " " }));
    expect(result).toMatchObject({
      ok: false,
      message: "Please fill in all required fields: name, description, price, category, brand, stock",
    });
  });

  it("accepts amounts ≥ 0 in steps of 0.01 and whole stock ≥ 0", () => {
    const result = parseProductForm(form({ ...VALID, originalPrice: "25", subcategory: "kitchen" }));
    expect(result.ok && result.value).toMatchObject({
      priceCents: 1999,
      originalPriceCents: 2500,
      stock: 0,
      subcategoryId: "kitchen",
    });
    for (const [field, value] of [
      ["price", "-1"],
      ["price", "1.999"],
      ["originalPrice", "abc"],
      ["stock", "-2"],
      ["stock", "2.5"],
      ["category", "weapons"],
    ] as const) {
      const refused = parseProductForm(form({ ...VALID, [field]: value }));
      expect(refused.ok, `${field}=${value}`).toBe(false);
      if (!refused.ok) expect(Object.keys(refused.fieldErrors)).toEqual([field]);
    }
  });

  it("refuses a subcategory of another category", () => {
    const result = parseProductForm(form({ ...VALID, subcategory: "laptops" }));
    expect(result.ok).toBe(false);
  });

  it("reads specification rows, skipping blank ones, refusing half-filled or repeated names", () => {
    const ok = parseProductForm(
      form({ ...VALID, specName: ["Power", "", "Colour"], specValue: ["5 W", "", "Red"] }),
    );
    expect(ok.ok && ok.value.specifications).toEqual({ Power: "5 W", Colour: "Red" });
    expect(parseProductForm(form({ ...VALID, specName: ["Power"], specValue: [""] })).ok).toBe(false);
    expect(parseProductForm(form({ ...VALID, specName: ["A", "A"], specValue: ["1", "2"] })).ok).toBe(false);
  });

  it("reads the flags from checkboxes", () => {
    const result = parseProductForm(form({ ...VALID, featured: "on", newArrival: "on" }));
    expect(result.ok && [result.value.featured, result.value.newArrival, result.value.bestSeller]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("reads the tax class (standard when none is named) and the weight in kg as grams", () => {
    const read = (fields: Record<string, string>) => {
      const result = parseProductForm(form({ ...VALID, ...fields }));
      return result.ok ? [result.value.taxClass, result.value.weightGrams] : result.fieldErrors;
    };
    expect(read({ taxClass: "reduced", weight: "0.25" })).toEqual(["reduced", 250]);
    expect(read({ taxClass: "exempt", weight: " 1.6 " })).toEqual(["exempt", 1600]);
    expect(read({ taxClass: "", weight: "" })).toEqual(["standard", 0]);
    // no weight field (a product sold in variants keeps each variant's): not given
    expect(read({ taxClass: "zero" })).toEqual(["zero", null]);
    expect(read({})).toEqual(["standard", null]);
  });

  it("refuses a weight that is not kg with up to 3 decimals, and an unknown tax class, beside the field", () => {
    for (const weight of ["-1", "0.0001", "1,5", "2 kg", "abc", "1000.001"]) {
      const refused = parseProductForm(form({ ...VALID, weight }));
      expect(refused, weight).toMatchObject({
        ok: false,
        message: "Please correct the highlighted fields.",
        fieldErrors: { weight: ["Enter a weight in kg, like 0.25."] },
      });
      if (!refused.ok) expect(Object.keys(refused.fieldErrors)).toEqual(["weight"]);
    }
    expect(parseProductForm(form({ ...VALID, taxClass: "luxury" }))).toMatchObject({
      ok: false,
      fieldErrors: { taxClass: ["Choose one of the tax classes."] },
    });
  });

  it("can leave stock out (the edit form changes stock separately)", () => {
    const { stock: _stock, ...rest } = VALID;
    expect(parseProductForm(form(rest), { withStock: false }).ok).toBe(true);
  });
});

describe("slugify", () => {
  it("makes URL slugs that are never only digits", () => {
    expect(slugify("Kestrel X12 Smartphone!")).toBe("kestrel-x12-smartphone");
    expect(slugify("Crème Brûlée Set")).toBe("creme-brulee-set");
    expect(slugify("2024")).toBe("product-2024");
    expect(slugify("???")).toBe("product-item");
  });
});
