import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { openApiDocument } from "../../app/api/api.server.ts";

/** The client's types as openapi-typescript makes them from the API's own document. */
export async function apiClientTypes(): Promise<string> {
  const ast = await openapiTS(openApiDocument() as Parameters<typeof openapiTS>[0]);
  return `${COMMENT_HEADER}// npm run api:client writes this file from /api/v1/openapi.json.\n\n${astToString(ast)}`;
}
