import { expect, it } from "vitest";
import { openApiDocument } from "./api.server.ts";
import { referenceOf } from "./reference.ts";

it("the reference shows every operation of the document with its scope, fields and answers", () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
  const reference = referenceOf(doc);
  const shown = reference.groups.flatMap((group) => group.operations);
  const ids = Object.values(doc.paths).flatMap((methods) =>
    Object.values(methods).map((op) => op.operationId),
  );
  expect(shown.map((op) => op.id).sort()).toEqual(ids.sort());
  const stock = shown.find((op) => op.id === "changeStock")!;
  expect(stock).toMatchObject({
    method: "POST",
    path: "/api/v1/admin/products/{id}/stock",
    scope: "products:write",
  });
  expect(stock.fields.map((f) => [f.name, f.where, f.required])).toEqual([
    ["id", "path", true],
    ["idempotency-key", "header", true],
    ["delta", "body", true],
    ["variantId", "body", false],
  ]);
  expect(stock.fields.find((f) => f.name === "delta")?.type).toBe("integer (≥ -1000000, ≤ 1000000)");
  expect(stock.responses.map((r) => r.status)).toEqual([
    "200",
    "400",
    "401",
    "403",
    "404",
    "409",
    "422",
    "429",
  ]);
  expect(shown.find((op) => op.id === "listStoreProducts")?.scope).toBe("any key (Store API)");
  // an operation needing two scopes names both
  expect(shown.find((op) => op.id === "cancelOrder")?.scope).toBe("orders:write and refunds:write");
});
