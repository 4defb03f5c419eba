import { readFileSync, writeFileSync } from "node:fs";
import { expect, it } from "vitest";
import { apiClientTypes } from "./generate.ts";

const target = new URL("./schema.ts", import.meta.url);

// `npm run api:client` runs this file with API_CLIENT_WRITE=1 to write the types; run through
// vitest (vite's module loader) because the API's modules reach the e-mails' .tsx templates
it("the client's types are the API's current document (npm run api:client writes them)", async () => {
  const types = await apiClientTypes();
  if (process.env.API_CLIENT_WRITE === "1") writeFileSync(target, types);
  expect(readFileSync(target, "utf8")).toBe(types);
});
