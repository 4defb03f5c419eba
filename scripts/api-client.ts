/**
 * Writes the typed API client's types (clients/typescript/schema.ts) from the OpenAPI document the
 * API generates (app/api/api.server.ts), with openapi-typescript. Run after changing an operation:
 *
 *   npm run api:client
 *
 * clients/typescript/schema.test.ts fails while the file differs from what this writes.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiClientTypes } from "../clients/typescript/generate.ts";

const target = fileURLToPath(new URL("../clients/typescript/schema.ts", import.meta.url));
writeFileSync(target, await apiClientTypes());
console.log(`wrote ${target}`);
