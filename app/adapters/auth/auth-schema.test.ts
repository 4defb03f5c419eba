import { getMigrations } from "better-auth/db/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { createAuth } from "./auth.server.ts";

/** Our migration creates exactly the tables and columns Better Auth expects, on each engine. */
describe.each(ENGINES)("Better Auth schema on %s", (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await test?.destroy();
  });

  it("needs no migration of its own", async () => {
    const auth = createAuth({
      db: test.db,
      secret: "schema-test-secret-0123456789abcdefghijkl",
      baseURL: "http://shop.test",
      shopName: "Test",
      sendResetPassword: async () => {},
    });
    const { toBeCreated, toBeAdded } = await getMigrations(auth.options);
    expect(toBeCreated.map((t) => t.table)).toEqual([]);
    // Its checker compares its camelCase field names with the columns as they are, while the
    // adapter reaches them through our CamelCasePlugin: every field it lists must exist in snake_case.
    const columns = new Map(
      (await test.db.introspection.getTables()).map((t) => [t.name, t.columns.map((c) => c.name)]),
    );
    const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    const missing = toBeAdded.flatMap(({ table, fields }) =>
      Object.keys(fields)
        .map(snake)
        .filter((column) => !columns.get(table)?.includes(column))
        .map((column) => `${table}.${column}`),
    );
    expect(missing).toEqual([]);
  });
});
