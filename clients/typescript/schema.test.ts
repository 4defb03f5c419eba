import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { apiClientTypes } from "./generate.ts";

it("the client's types are the API's current document (npm run api:client writes them)", async () => {
  const committed = readFileSync(new URL("./schema.ts", import.meta.url), "utf8");
  expect(committed).toBe(await apiClientTypes());
});
